"""The unit harmonic oscillator q̇ = v, v̇ = −q with q and v declared as such, shared by the
integrator tests."""

from systems.framework import LeafSystem


class Oscillator(LeafSystem):
    """q̇ = v, v̇ = −q (q, v declared as such): q = cos t, v = −sin t from (1, 0)."""

    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(1, 1, 0)

    def DoCalcTimeDerivatives(self, context, derivatives):
        q, v = context.get_continuous_state_vector().CopyToVector()
        derivatives.SetFromVector([v, -q])
