"""A damped pendulum written once as a TemplateSystem (Pendulum_[T]), shared by the
AutoDiffXd tests of systems, integrators and linearization."""

from __future__ import annotations

import numpy as np

from systems.framework import BasicVector_, LeafSystem_, TemplateSystem


@TemplateSystem.define("Pendulum_")
def Pendulum_(T):
    class Impl(LeafSystem_[T]):
        """θ̈ = −g sin θ − b θ̇, with g a numeric parameter [m/s²] and b [1/s] fixed;
        output θ; input: an added torque/inertia u (θ̈ += u)."""

        def _construct(self, damping=0.1, converter=None):
            LeafSystem_[T].__init__(self, converter=converter)
            self.damping = damping
            self.copied_from = None
            self.DeclareContinuousState(1, 1, 0)
            self.DeclareNumericParameter(BasicVector_[T]([9.81]))
            self.DeclareVectorInputPort("u", 1)
            self.DeclareVectorOutputPort("theta", 1, self._calc_theta,
                                         {self.xc_ticket()})

        def _construct_copy(self, other, converter=None):
            Impl._construct(self, other.damping, converter=converter)
            self.copied_from = other

        def DoCalcTimeDerivatives(self, context, derivatives):
            q, v = context.get_continuous_state_vector().CopyToVector()
            g = context.get_numeric_parameter(0).GetAtIndex(0)
            u = self.get_input_port(0).Eval(context)[0]
            derivatives.SetFromVector([v, -g * np.sin(q) - self.damping * v + u])

        def _calc_theta(self, context, y):
            y.SetFromVector(context.get_continuous_state_vector().CopyToVector()[:1])
    return Impl


Pendulum = Pendulum_[None]
