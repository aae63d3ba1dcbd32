"""SemiExplicitEulerIntegrator: symplectic (semi-implicit) Euler, fixed step (Drake's
SemiExplicitEulerIntegrator).

For x = [q; v; z]: v1 = v0 + h v̇(t0, x0) and z1 = z0 + h ż(t0, x0) explicitly, then
q1 = q0 + h q̇(t0, q0, v1) — the position update uses the *new* velocity, which
conserves a modified energy for Hamiltonian systems. q̇ comes from the system's own
time derivatives evaluated at (q0, v1) (Drake maps v to q̇ with N(q); here q̇ is
whatever DoCalcTimeDerivatives returns for q). First order.
"""
from __future__ import annotations

import numpy as np

from .integrator_base import IntegratorBase

__all__ = ["SemiExplicitEulerIntegrator"]


class SemiExplicitEulerIntegrator(IntegratorBase):
    """First-order semi-explicit Euler; fixed step only."""

    def __init__(self, system, max_step_size: float, context=None):
        super().__init__(system, context)
        self.set_maximum_step_size(max_step_size)

    def DoInitialize(self) -> None:
        q, v, z = [], [], []
        offset = 0
        for leaf in self._context._leaves():
            xc = leaf._state._continuous
            nq, nv, nz = xc.num_q(), xc.num_v(), xc.num_z()
            q.extend(range(offset, offset + nq))
            v.extend(range(offset + nq, offset + nq + nv))
            z.extend(range(offset + nq + nv, offset + nq + nv + nz))
            offset += nq + nv + nz
        self._q = np.array(q, dtype=np.intp)
        self._vz = np.array(v + z, dtype=np.intp)

    def DoStep(self, h: float) -> bool:
        x = self._x
        t0 = self._info.time
        xcdot = self._eval_xcdot()
        x[self._vz] += h * xcdot[self._vz]
        if self._q.size:
            self._set_time_and_note_xc_change(t0)   # q̇ at the new velocity
            qdot = self._eval_xcdot()[self._q].copy()
            x[self._q] += h * qdot
        self._set_time_and_note_xc_change(t0 + h)
        return True
