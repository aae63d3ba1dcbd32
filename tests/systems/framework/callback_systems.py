"""A LeafSystem that records its callbacks, shared by the lifetime and builder tests."""

from systems.framework import (AbstractValue, LeafSystem, ValueProducer,
                               WitnessFunctionDirection)


class Callbacks(LeafSystem):
    """Every kind of declared callback as a bound method of the system."""

    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(1)
        self.xd = self.DeclareDiscreteState(1)
        self.DeclareVectorInputPort("u", 1)
        self.DeclareVectorOutputPort("y", 1, self.CalcY)
        self.DeclareAbstractOutputPort("label", self.MakeLabel, self.CalcLabel)
        self.DeclareStateOutputPort("xd", self.xd)
        self.entry = self.DeclareCacheEntry(
            "twice time", ValueProducer(allocate=self.MakeLabel, calc=self.CalcLabel))
        self.DeclarePeriodicPublishEvent(0.1, 0.0, self.Publish)
        self.DeclarePeriodicDiscreteUpdateEvent(0.1, 0.0, self.Update)
        self.DeclarePerStepPublishEvent(self.Publish)
        self.DeclareInitializationDiscreteUpdateEvent(self.Update)
        self.DeclareForcedPublishEvent(self.Publish)
        self.witness = self.MakeWitnessFunction(
            "x crosses 1", WitnessFunctionDirection.kCrossesZero, self.Guard)
        self.published = 0

    def CalcY(self, context, output):
        output.SetFromVector([2.0 * context.get_time()])

    def MakeLabel(self):
        return AbstractValue.Make("")

    def CalcLabel(self, context, output):
        output.set_value(f"t={context.get_time()}")

    def Publish(self, context):
        self.published += 1

    def Update(self, context, discrete_state):
        discrete_state.set_value(0, [context.get_time()])

    def Guard(self, context):
        return context.get_continuous_state_vector()[0] - 1.0

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.SetFromVector([1.0])
