"""A harmonic oscillator driven by an input u (q̈ = −q + u) with q as output, shared by the
dense-output, batch-evaluation and discretisation tests."""

from systems.framework import LeafSystem


class Oscillator(LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(2)
        self.DeclareVectorInputPort("u", 1)
        self.DeclareVectorOutputPort("q", 1, self._q)

    def _q(self, context, output):
        output.SetFromVector([context.get_continuous_state_vector()[0]])

    def DoCalcTimeDerivatives(self, context, derivatives):
        q, v = context.get_continuous_state_vector().CopyToVector()
        u = self.get_input_port().Eval(context)[0]
        derivatives.SetFromVector([v, -q + u])
