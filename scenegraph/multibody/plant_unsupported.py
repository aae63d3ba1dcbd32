"""What this library's MultibodyPlant does not offer: dynamics.

pydrake's dynamics methods and ports exist here with their names and raise
NotImplementedError naming the method, so a ported dynamics script fails at
the first such call instead of running without physics. Contact and solver
settings (set_contact_model, set_discrete_contact_approximation, ...) are
accepted and stored, since scripts set them while building a diagram that
this library can still show and query; they have no effect.
"""
from __future__ import annotations

import enum

__all__ = ["PlantUnsupported", "ContactModel", "DiscreteContactApproximation",
           "DiscreteContactSolver"]


class ContactModel(enum.Enum):
    """pydrake's contact models (stored only; no contact dynamics here)."""
    kHydroelastic = 0
    kPoint = 1
    kHydroelasticWithFallback = 2
    kHydroelasticsOnly = 0
    kPointContactOnly = 1


class DiscreteContactApproximation(enum.Enum):
    """pydrake's discrete contact approximations (stored only)."""
    kTamsi = 0
    kSap = 1
    kSimilar = 2
    kLagged = 3


class DiscreteContactSolver(enum.Enum):
    """pydrake's discrete contact solvers (stored only)."""
    kTamsi = 0
    kSap = 1


_DYNAMICS_METHODS = (
    "CalcMassMatrix", "CalcMassMatrixViaInverseDynamics", "CalcBiasTerm",
    "CalcGravityGeneralizedForces", "CalcInverseDynamics", "CalcGeneralizedForces",
    "CalcForceElementsContribution", "CalcSpatialAccelerationsFromVdot",
    "CalcBiasSpatialAcceleration", "CalcBiasTranslationalAcceleration",
    "CalcBiasCenterOfMassTranslationalAcceleration",
    "CalcCenterOfMassTranslationalAccelerationInWorld", "CalcSpatialMomentumInWorldAboutPoint",
    "CalcSpatialInertia", "EvalBodySpatialAccelerationInWorld", "MakeActuationMatrix",
    "MakeActuationMatrixPseudoinverse", "MakeActuatorSelectorMatrix",
    "MakeStateSelectorMatrix", "GetActuationFromArray", "SetActuationInArray",
    "get_actuation_input_port", "get_applied_generalized_force_input_port",
    "get_applied_spatial_force_input_port", "get_desired_state_input_port",
    "get_contact_results_output_port", "get_generalized_acceleration_output_port",
    "get_generalized_contact_forces_output_port", "get_net_actuation_output_port",
    "get_reaction_forces_output_port", "get_body_spatial_accelerations_output_port",
    "get_deformable_body_configuration_output_port", "AddForceElement", "get_force_element",
    "num_force_elements", "gravity_field", "mutable_gravity_field", "AddBallConstraint",
    "AddDistanceConstraint", "AddWeldConstraint", "deformable_model",
    "mutable_deformable_model", "set_gravity_enabled", "is_gravity_enabled",
    "GetConstraintActiveStatus", "SetConstraintActiveStatus", "GetDistanceConstraintParams",
    "SetDistanceConstraintParams", "GetDefaultDistanceConstraintParams",
    "RemoveAllJointActuatorEffortLimits", "RemoveJointActuator", "SetUseSampledOutputPorts",
    "GetTopologyGraphvizString")


def _unsupported(name: str):
    def method(self, *args, **kwargs):
        raise NotImplementedError(
            f"MultibodyPlant.{name}() is not offered: this library's MultibodyPlant is the "
            f"kinematic part of pydrake's (bodies, joints, frames, poses, Jacobians, "
            f"geometry); it computes no dynamics, actuation or contact forces "
            f"(docs/robots.md)")
    method.__name__ = name
    method.__doc__ = (f"Not offered (no dynamics here): raises NotImplementedError. "
                      f"pydrake's MultibodyPlant.{name}.")
    return method


class PlantUnsupported:
    """Mixin of MultibodyPlant: dynamics methods that raise, settings that are
    stored."""

    _contact_model = ContactModel.kHydroelasticWithFallback
    _discrete_contact_approximation = DiscreteContactApproximation.kTamsi
    _penetration_allowance = 1e-3
    _stiction_tolerance = 1e-3

    def set_contact_model(self, model) -> None:
        """Stored only (no contact dynamics here)."""
        self._contact_model = model

    def get_contact_model(self):
        return self._contact_model

    def set_discrete_contact_approximation(self, approximation) -> None:
        """Stored only."""
        self._discrete_contact_approximation = approximation

    def get_discrete_contact_approximation(self):
        return self._discrete_contact_approximation

    def get_discrete_contact_solver(self):
        return DiscreteContactSolver.kSap if self._discrete_contact_approximation in (
            DiscreteContactApproximation.kSap, DiscreteContactApproximation.kSimilar,
            DiscreteContactApproximation.kLagged) else DiscreteContactSolver.kTamsi

    def set_penetration_allowance(self, penetration_allowance=0.001) -> None:
        """Stored only."""
        self._penetration_allowance = float(penetration_allowance)

    def set_stiction_tolerance(self, v_stiction=0.001) -> None:
        """Stored only."""
        self._stiction_tolerance = float(v_stiction)

    def get_contact_penalty_method_time_scale(self) -> float:
        return float("nan")

    def set_contact_surface_representation(self, surface_representation) -> None:
        self._surface_representation = surface_representation

    def get_contact_surface_representation(self):
        from scenegraph import HydroelasticContactRepresentation
        return getattr(self, "_surface_representation",
                       HydroelasticContactRepresentation.kPolygon)


for _name in _DYNAMICS_METHODS:
    setattr(PlantUnsupported, _name, _unsupported(_name))
del _name
