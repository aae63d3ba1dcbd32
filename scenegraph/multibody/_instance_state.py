"""The calc of a MultibodyPlant's per-model-instance state port, a picklable
callable (a bound method would need the instance index as a closure)."""
from __future__ import annotations

import numpy as np

__all__ = ["InstanceStateCalc"]


class InstanceStateCalc:
    """calc(context, output) writing [q_i; v_i] of model instance i."""

    __slots__ = ("_plant_ref", "_instance")

    def __init__(self, plant, instance: int):
        import weakref
        self._plant_ref = weakref.ref(plant)
        self._instance = instance

    def __call__(self, context, output) -> None:
        plant = self._plant_ref()
        i = self._instance
        output.SetFromVector(np.concatenate([
            plant._positions_of(context)[plant._q_of_instance[i]],
            plant._velocities_of(context)[plant._v_of_instance[i]]]))

    def __reduce__(self):
        return InstanceStateCalc, (self._plant_ref(), self._instance)
