"""Small LeafSystems shared by the framework and analysis tests.

Each counts its calc calls so tests can prove what was (re)computed.
"""
from __future__ import annotations

import numpy as np

from systems.framework import AbstractValue, BasicVector, LeafSystem


class Counter:
    def __init__(self):
        self.n = 0

    def __call__(self):
        self.n += 1


class StateSource(LeafSystem):
    """Continuous state x (size 2, xdot = 0 unless given); output 'x' = x,
    depending on xc only."""

    def __init__(self, x0=(1.0, 2.0), xdot=None):
        super().__init__()
        self.DeclareContinuousState(BasicVector(list(x0)))
        self.xdot = None if xdot is None else np.asarray(xdot, dtype=float)
        self.calls = Counter()
        self.DeclareVectorOutputPort("x", len(x0), self._calc,
                                     prerequisites_of_calc={self.xc_ticket()})

    def _calc(self, context, output):
        self.calls()
        output.SetFromVector(context.get_continuous_state_vector().CopyToVector())

    def DoCalcTimeDerivatives(self, context, derivatives):
        xdot = np.zeros(derivatives.size()) if self.xdot is None else self.xdot
        derivatives.get_mutable_vector().SetFromVector(xdot)


class Scaler(LeafSystem):
    """y = k·u with a numeric parameter k; prerequisites given explicitly or
    left at Drake's default ("everything") when `narrow` is False."""

    def __init__(self, size=2, k=3.0, narrow=True):
        super().__init__()
        self.DeclareVectorInputPort("u", size)
        self.k_index = self.DeclareNumericParameter(BasicVector([k]))
        self.calls = Counter()
        prerequisites = ({self.all_input_ports_ticket(),
                          self.numeric_parameter_ticket(self.k_index)} if narrow else None)
        self.DeclareVectorOutputPort("y", size, self._calc, prerequisites)

    def _calc(self, context, output):
        self.calls()
        k = context.get_numeric_parameter(self.k_index).GetAtIndex(0)
        output.SetFromVector(k * self.get_input_port(0).Eval(context))


class TimeClock(LeafSystem):
    """Output 't' = [time], depending on time only."""

    def __init__(self):
        super().__init__()
        self.calls = Counter()
        self.DeclareVectorOutputPort("t", 1, self._calc, {self.time_ticket()})

    def _calc(self, context, output):
        self.calls()
        output.SetAtIndex(0, context.get_time())


class AbstractEcho(LeafSystem):
    """Abstract input 'in' (str) -> abstract output 'out' = in.upper()."""

    def __init__(self):
        super().__init__()
        self.DeclareAbstractInputPort("in", AbstractValue.Make(""))
        self.calls = Counter()
        self.DeclareAbstractOutputPort("out", lambda: AbstractValue.Make(""), self._calc,
                                       {self.all_input_ports_ticket()})

    def _calc(self, context, output):
        self.calls()
        output.set_value(self.get_input_port(0).Eval(context).upper())
