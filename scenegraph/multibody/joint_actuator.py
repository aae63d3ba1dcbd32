"""JointActuator (pydrake.multibody.tree): an actuator on a one-dof joint.
Recorded for its name, joint and effort limit; actuation needs dynamics,
which this library does not offer."""
from __future__ import annotations

import math

import numpy as np

from scenegraph.multibody.element import MultibodyElement

__all__ = ["JointActuator"]


class JointActuator(MultibodyElement):
    """An actuator named `name` on `joint`, with |effort| ≤ effort_limit
    [N·m or N]. Made by ``MultibodyPlant.AddJointActuator``."""

    __slots__ = ("_joint", "_effort_limit", "_rotor_inertia", "_gear_ratio")

    def __init__(self, name: str, joint, effort_limit=math.inf):
        super().__init__(name, joint.model_instance())
        limit = float(effort_limit)
        if not limit > 0:
            raise RuntimeError(f"JointActuator '{name}': effort_limit must be positive; got "
                               f"{effort_limit}")
        self._joint, self._effort_limit = joint, limit
        self._rotor_inertia, self._gear_ratio = 0.0, 1.0

    def joint(self):
        """The actuated joint."""
        return self._joint

    def effort_limit(self) -> float:
        return self._effort_limit

    def set_effort_limit(self, effort_limit) -> None:
        self._effort_limit = float(effort_limit)

    def num_inputs(self) -> int:
        return 1

    def input_start(self) -> int:
        """This actuator's row in the plant's actuation vector (its index)."""
        return int(self.index())

    def default_rotor_inertia(self) -> float:
        return self._rotor_inertia

    def default_gear_ratio(self) -> float:
        return self._gear_ratio

    def set_default_rotor_inertia(self, rotor_inertia) -> None:
        self._rotor_inertia = float(rotor_inertia)

    def set_default_gear_ratio(self, gear_ratio) -> None:
        self._gear_ratio = float(gear_ratio)

    def default_reflected_inertia(self) -> float:
        return self._rotor_inertia * self._gear_ratio ** 2

    def get_actuation_vector(self, u) -> np.ndarray:
        """This actuator's entry of the plant's actuation vector u, as (1,)."""
        return np.asarray(u, dtype=float)[self.input_start():self.input_start() + 1].copy()

    def set_actuation_vector(self, u_actuator, u) -> None:
        u[self.input_start()] = float(np.asarray(u_actuator).reshape(-1)[0])
