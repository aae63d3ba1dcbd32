"""Linearization and the linear-system tests (pydrake's Linearize,
FirstOrderTaylorApproximation, ControllabilityMatrix, IsControllable,
ObservabilityMatrix, IsObservable, IsStabilizable, IsDetectable).

Derivatives are automatic when the system converts to AutoDiffXd (``ToAutoDiffXdMaybe()``
is not None: library systems, TemplateSystems and Diagrams of them), as in Drake: the
AutoDiffXd system is evaluated once at (x0, u0) seeded with the identity, and A, B, C, D
are the exact Jacobians. Otherwise (a plain Python LeafSystem) they are numerical: each
column of ∂f/∂x, ∂f/∂u, ∂g/∂x, ∂g/∂u is a central difference with one Richardson
extrapolation,
    D(h) = (f(x + h e_j) − f(x − h e_j)) / 2h,   D = (4 D(h/2) − D(h)) / 3,
with h = 1e-3 · max(1, |x_j|). The truncation error is O(h⁴) and the rounding error
O(ε/h): about 1e-10 relative for smooth dynamics (tests compare with analytic
Jacobians of a nonlinear pendulum at 1e-9). Each column costs 4 evaluations.

Rank tests use singular values: rank = #{σ_i > threshold · σ_max}, with threshold
defaulting to n·ε (Eigen's default relative threshold, which Drake uses).
"""
from __future__ import annotations

import numpy as np

from systems.framework import InputPortSelection, OutputPortSelection, PortDataType

from .linear import AffineSystem, LinearSystem

__all__ = ["Linearize", "FirstOrderTaylorApproximation", "ControllabilityMatrix",
           "IsControllable", "ObservabilityMatrix", "IsObservable", "IsStabilizable",
           "IsDetectable"]


def _jacobian(func, x0: np.ndarray, rows: int) -> np.ndarray:
    """∂func/∂x at x0 (rows, x0.size) by Richardson-extrapolated central differences."""
    J = np.zeros((rows, x0.size))
    for j in range(x0.size):
        h = 1e-3 * max(1.0, abs(x0[j]))

        def central(step):
            xp, xm = x0.copy(), x0.copy()
            xp[j] += step
            xm[j] -= step
            return (func(xp) - func(xm)) / (xp[j] - xm[j])
        J[:, j] = (4.0 * central(0.5 * h) - central(h)) / 3.0
    return J


def _gradient(values: np.ndarray, n: int) -> np.ndarray:
    """(len(values), n) Jacobian of AutoDiffXd `values` (constants give zero rows)."""
    from systems.autodiff import ExtractGradient
    if values.size == 0:
        return np.zeros((0, n))
    J = ExtractGradient(values)
    return J if J.shape[1] == n else np.zeros((values.size, n))


def _port(system, index, kind: str):
    """The selected vector port (or None), following Drake's selection rules."""
    count = system.num_input_ports() if kind == "input" else system.num_output_ports()
    value = int(index)
    first = (int(InputPortSelection.kUseFirstInputIfItExists) if kind == "input"
             else int(OutputPortSelection.kUseFirstOutputIfItExists))
    if value == first:
        value = 0 if count else -1
    if value < 0:
        return None
    port = system.get_input_port(value) if kind == "input" else system.get_output_port(value)
    if port.get_data_type() != PortDataType.kVectorValued:
        raise RuntimeError(f"Linearize: the {kind} port '{port.get_name()}' of "
                           f"{system.GetSystemPathname()} is abstract-valued; only vector "
                           "ports can be linearized")
    return port


def _autodiff_context(system, system_ad, context):
    """A context of `system_ad` with `context`'s time, state, parameters and fixed inputs
    (floats, as AutoDiffXd constants)."""
    ad = system_ad.CreateDefaultContext()
    ad.SetTimeStateAndParametersFrom(context)
    for i in range(system_ad.num_input_ports()):
        port = system.get_input_port(i)
        if port.HasValue(context) and port.get_data_type() == PortDataType.kVectorValued:
            system_ad.get_input_port(i).FixValue(ad, port.Eval(context))
    return ad


class _Model:
    """f(x, u) and g(x, u) of `system` around the operating point in `context`."""

    def __init__(self, system, context, input_port_index, output_port_index):
        system.ValidateContext(context)
        self.system, self.work = system, context.Clone()
        self.in_port = _port(system, input_port_index, "input")
        self.out_port = _port(system, output_port_index, "output")
        if self.in_port is not None and not self.in_port.HasValue(context):
            raise RuntimeError(f"Linearize: the input port '{self.in_port.get_name()}' "
                               f"of {system.GetSystemPathname()} must be fixed in the "
                               "context (it gives the nominal input u0)")
        self.nx_c = context.num_continuous_states()
        groups = context.num_discrete_state_groups()
        if self.nx_c and groups:
            raise RuntimeError("Linearize: the system has both continuous and discrete "
                               "state; only one kind can be linearized")
        self.period = 0.0
        if groups:
            is_difference, period = system.IsDifferenceEquationSystem()
            if not is_difference:
                raise RuntimeError("Linearize: a discrete-time system must have one "
                                   "discrete group updated by one periodic discrete "
                                   "update (IsDifferenceEquationSystem())")
            self.period = period
        self.x0 = (context.get_continuous_state_vector().CopyToVector() if self.nx_c
                   else context.get_discrete_state_vector().CopyToVector() if groups
                   else np.zeros(0))
        self.u0 = (self.in_port.Eval(context).copy() if self.in_port is not None
                   else np.zeros(0))

    def _autodiff_matrices(self):
        """(A, B, C, D) by AutoDiffXd, or None when the system does not convert."""
        from systems.autodiff import InitializeAutoDiff
        system_ad = self.system.ToAutoDiffXdMaybe()
        if system_ad is None:
            return None
        nx, nu = self.x0.size, self.u0.size
        ny = 0 if self.out_port is None else self.out_port.size()
        seeded = InitializeAutoDiff(np.concatenate([self.x0, self.u0]))[:, 0]
        x, u = seeded[:nx], seeded[nx:]
        work = _autodiff_context(self.system, system_ad, self.work)
        if self.nx_c:
            work.SetContinuousState(x)
        elif nx:
            work.SetDiscreteState(x)
        if self.in_port is not None:
            system_ad.get_input_port(self.in_port.get_index()).FixValue(work, u)
        if self.nx_c:
            f = system_ad.EvalTimeDerivatives(work).CopyToVector()
        elif nx:
            f = system_ad.EvalUniquePeriodicDiscreteUpdate(work).get_vector(0).CopyToVector()
        else:
            f = np.zeros(0, dtype=object)
        F = _gradient(f, nx + nu)
        if self.out_port is not None:
            y = system_ad.get_output_port(self.out_port.get_index()).Eval(work)
            G = _gradient(np.asarray(y), nx + nu)
        else:
            G = np.zeros((0, nx + nu))
        return F[:, :nx], F[:, nx:], G[:ny, :nx], G[:ny, nx:]

    def _load(self, x, u):
        work = self.work
        if self.nx_c:
            work.SetContinuousState(x)
        elif x.size:
            work.SetDiscreteState(x)
        if self.in_port is not None:
            self.in_port.FixValue(work, u)
        return work

    def dynamics(self, x, u) -> np.ndarray:
        work = self._load(x, u)
        if self.nx_c:
            return self.system.EvalTimeDerivatives(work).CopyToVector()
        if x.size:
            return self.system.EvalUniquePeriodicDiscreteUpdate(work).get_vector(
                0).CopyToVector()
        return np.zeros(0)

    def output(self, x, u) -> np.ndarray:
        if self.out_port is None:
            return np.zeros(0)
        return np.array(self.out_port.Eval(self._load(x, u)), dtype=float)

    def matrices(self):
        exact = self._autodiff_matrices()
        if exact is not None:
            return exact
        x0, u0 = self.x0, self.u0
        nx, ny = x0.size, 0 if self.out_port is None else self.out_port.size()
        A = _jacobian(lambda x: self.dynamics(x, u0), x0, nx)
        B = _jacobian(lambda u: self.dynamics(x0, u), u0, nx)
        C = _jacobian(lambda x: self.output(x, u0), x0, ny)
        D = _jacobian(lambda u: self.output(x0, u), u0, ny)
        return A, B, C, D


def Linearize(system, context,
              input_port_index=InputPortSelection.kUseFirstInputIfItExists,
              output_port_index=OutputPortSelection.kUseFirstOutputIfItExists,
              equilibrium_check_tolerance: float = 1e-6) -> LinearSystem:
    """The LinearSystem x̃̇ = A x̃ + B ũ, ỹ = C x̃ + D ũ about the equilibrium (x0, u0)
    in `context` (x̃ = x − x0, ũ = u − u0, ỹ = y − y0; for a difference equation
    system x̃[n+1] = A x̃[n] + B ũ[n] with its period). See the module docstring for
    how the derivatives are computed.

    Raises:
      RuntimeError: (x0, u0) is not an equilibrium within the tolerance (|ẋ| or
        |x[n+1] − x[n]| larger), the input is not fixed, or the state kinds are mixed.
    """
    model = _Model(system, context, input_port_index, output_port_index)
    f0 = model.dynamics(model.x0, model.u0)
    residual = f0 if model.period == 0.0 else f0 - model.x0
    if residual.size and not np.all(np.abs(residual) <= equilibrium_check_tolerance):
        raise RuntimeError(
            f"The nominal operating point (x0,u0) is not an equilibrium point of the "
            f"system. Without additional information, a time-invariant linearization of "
            f"this system is not well defined. The {'derivative' if model.period == 0 else 'update'} "
            f"residual is {residual.tolist()} (tolerance {equilibrium_check_tolerance})")
    A, B, C, D = model.matrices()
    return LinearSystem(A, B, C, D, model.period)


def FirstOrderTaylorApproximation(
        system, context, input_port_index=InputPortSelection.kUseFirstInputIfItExists,
        output_port_index=OutputPortSelection.kUseFirstOutputIfItExists) -> AffineSystem:
    """The AffineSystem ẋ = A x + B u + f0, y = C x + D u + y0 that matches `system` to
    first order at (x0, u0) in `context` (no equilibrium needed): f0 = f(x0, u0) −
    A x0 − B u0 and y0 = g(x0, u0) − C x0 − D u0 (for a difference equation system,
    x[n+1] in place of ẋ)."""
    model = _Model(system, context, input_port_index, output_port_index)
    A, B, C, D = model.matrices()
    x0, u0 = model.x0, model.u0
    f0 = model.dynamics(x0, u0) - A @ x0 - B @ u0
    y0 = model.output(x0, u0) - C @ x0 - D @ u0
    return AffineSystem(A, B, f0, C, D, y0, model.period)


def _rank(M: np.ndarray, threshold) -> int:
    if M.size == 0:
        return 0
    s = np.linalg.svd(M, compute_uv=False)
    if threshold is None:
        threshold = max(M.shape) * np.finfo(float).eps
    return int(np.sum(s > threshold * s[0])) if s[0] > 0 else 0


def ControllabilityMatrix(arg0) -> np.ndarray:
    """[B, AB, A²B, ..., A^(n−1)B] (n, n·m) of a LinearSystem."""
    A, B = arg0.A(), arg0.B()
    blocks, block = [], B
    for _ in range(A.shape[0]):
        blocks.append(block)
        block = A @ block
    return np.hstack(blocks) if blocks else np.zeros((0, 0))


def ObservabilityMatrix(arg0) -> np.ndarray:
    """[C; CA; CA²; ...; CA^(n−1)] (n·p, n) of a LinearSystem."""
    A, C = arg0.A(), arg0.C()
    blocks, block = [], C
    for _ in range(A.shape[0]):
        blocks.append(block)
        block = block @ A
    return np.vstack(blocks) if blocks else np.zeros((0, 0))


def IsControllable(sys, threshold=None) -> bool:
    """rank(ControllabilityMatrix) == n (threshold: relative singular-value cutoff)."""
    return _rank(ControllabilityMatrix(sys), threshold) == sys.A().shape[0]


def IsObservable(sys, threshold=None) -> bool:
    """rank(ObservabilityMatrix) == n."""
    return _rank(ObservabilityMatrix(sys), threshold) == sys.A().shape[0]


def _unstable(sys):
    eigenvalues = np.linalg.eigvals(sys.A()) if sys.A().size else np.zeros(0)
    if sys.time_period() == 0.0:
        return [lam for lam in eigenvalues if lam.real >= 0.0]
    return [lam for lam in eigenvalues if abs(lam) >= 1.0]


def IsStabilizable(sys, threshold=None) -> bool:
    """PBH test: rank([λI − A, B]) == n for every eigenvalue λ of A that is not
    stable (Re λ ≥ 0, or |λ| ≥ 1 for a discrete system)."""
    A, B = sys.A(), sys.B()
    n = A.shape[0]
    return all(_rank(np.hstack([lam * np.eye(n) - A, B.astype(complex)]), threshold) == n
               for lam in _unstable(sys))


def IsDetectable(sys, threshold=None) -> bool:
    """PBH test: rank([λI − A; C]) == n for every eigenvalue λ that is not stable."""
    A, C = sys.A(), sys.C()
    n = A.shape[0]
    return all(_rank(np.vstack([lam * np.eye(n) - A, C.astype(complex)]), threshold) == n
               for lam in _unstable(sys))
