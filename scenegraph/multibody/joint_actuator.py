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
        """The bound on |u| [N·m on a revolute joint, N on a prismatic one]; +inf
        when unlimited."""
        return self._effort_limit

    def set_effort_limit(self, effort_limit) -> None:
        """Sets the effort limit [N·m or N]; +inf clears it.

        Raises:
          RuntimeError: the limit is not positive."""
        limit = float(effort_limit)
        if not limit > 0:
            raise RuntimeError(f"JointActuator '{self._name}': effort_limit must be "
                               f"positive; got {effort_limit}")
        self._effort_limit = limit

    def num_inputs(self) -> int:
        """1: the actuated joint's degrees of freedom (actuators here sit on
        one-dof joints only)."""
        return 1

    def input_start(self) -> int:
        """This actuator's row in the plant's actuation vector (its index)."""
        return int(self.index())

    def default_rotor_inertia(self) -> float:
        """Iᵣ, the motor rotor's inertia [kg·m²]; 0 unless set. Stored only (no
        dynamics here)."""
        return self._rotor_inertia

    def default_gear_ratio(self) -> float:
        """ρ, the gear ratio from joint to rotor speed; 1 unless set. Stored only."""
        return self._gear_ratio

    def set_default_rotor_inertia(self, rotor_inertia) -> None:
        """Sets Iᵣ [kg·m²] (stored only)."""
        self._rotor_inertia = float(rotor_inertia)

    def set_default_gear_ratio(self, gear_ratio) -> None:
        """Sets ρ (stored only)."""
        self._gear_ratio = float(gear_ratio)

    def default_reflected_inertia(self) -> float:
        """ρ²·Iᵣ, the rotor inertia seen at the joint [kg·m² on a revolute joint,
        kg on a prismatic one]."""
        return self._rotor_inertia * self._gear_ratio ** 2

    def get_actuation_vector(self, u) -> np.ndarray:
        """This actuator's entry of the plant's actuation vector u, as (1,)."""
        return np.asarray(u, dtype=float)[self.input_start():self.input_start() + 1].copy()

    def set_actuation_vector(self, u_actuator, u) -> None:
        """Writes this actuator's value u_actuator (1,) [N·m or N] into the plant's
        actuation vector u (num_actuators(),) in place, at row input_start(),
        leaving the other rows; u is plain data here, nothing applies it.

        Raises:
          RuntimeError: u_actuator is not one value."""
        values = np.asarray(u_actuator, dtype=float).reshape(-1)
        if values.shape != (1,):
            raise RuntimeError(f"JointActuator '{self._name}'.set_actuation_vector: "
                               f"u_actuator must hold one value; got {values.size}")
        u[self.input_start()] = float(values[0])
