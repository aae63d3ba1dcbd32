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

from systems.common.overloads import signatures

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


# pydrake's signatures (without self) of the methods offered only to raise: a call
# must bind one of them (TypeError otherwise, as pybind11's) before it raises.
_DYNAMICS_METHODS = {
    "CalcMassMatrix": ("(context)",),
    "CalcMassMatrixViaInverseDynamics": ("(context)",),
    "CalcBiasTerm": ("(context)",),
    "CalcGravityGeneralizedForces": ("(context)",),
    "CalcInverseDynamics": ("(context, known_vdot, external_forces)",),
    "CalcGeneralizedForces": ("(context, forces)",),
    "CalcForceElementsContribution": ("(context, forces)",),
    "CalcSpatialAccelerationsFromVdot": ("(context, known_vdot)",),
    "CalcBiasSpatialAcceleration":
        ("(context, with_respect_to, frame_B, p_BoBp_B, frame_A, frame_E)",),
    "CalcBiasTranslationalAcceleration":
        ("(context, with_respect_to, frame_B, p_BoBi_B, frame_A, frame_E)",),
    "CalcBiasCenterOfMassTranslationalAcceleration":
        ("(context, with_respect_to, frame_A, frame_E)",
         "(context, model_instances, with_respect_to, frame_A, frame_E)"),
    "CalcCenterOfMassTranslationalAccelerationInWorld":
        ("(context)", "(context, model_instances)"),
    "CalcSpatialMomentumInWorldAboutPoint":
        ("(context, p_WoP_W)", "(context, model_instances, p_WoP_W)"),
    "CalcSpatialInertia": ("(context, frame_F, body_indexes)",),
    "EvalBodySpatialAccelerationInWorld": ("(context, body)",),
    "MakeActuationMatrix": ("()",),
    "MakeActuationMatrixPseudoinverse": ("()",),
    "MakeActuatorSelectorMatrix":
        ("(user_to_actuator_index_map)", "(user_to_joint_index_map)"),
    "MakeStateSelectorMatrix": ("(user_to_joint_index_map)",),
    "GetActuationFromArray": ("(model_instance, u)",),
    "SetActuationInArray": ("(model_instance, u_instance, u)",),
    "get_actuation_input_port": ("()", "(model_instance)"),
    "get_applied_generalized_force_input_port": ("()",),
    "get_applied_spatial_force_input_port": ("()",),
    "get_desired_state_input_port": ("(model_instance)",),
    "get_contact_results_output_port": ("()",),
    "get_generalized_acceleration_output_port": ("()", "(model_instance)"),
    "get_generalized_contact_forces_output_port": ("(model_instance)",),
    "get_net_actuation_output_port": ("()", "(model_instance)"),
    "get_reaction_forces_output_port": ("()",),
    "get_body_spatial_accelerations_output_port": ("()",),
    "get_deformable_body_configuration_output_port": ("()",),
    "AddForceElement": ("(force_element)",),
    "get_force_element": ("(force_element_index)",),
    "num_force_elements": ("()",),
    "gravity_field": ("()",),
    "mutable_gravity_field": ("()",),
    "AddBallConstraint": ("(body_A, p_AP, body_B, p_BQ=None)",),
    "AddDistanceConstraint":
        ("(body_A, p_AP, body_B, p_BQ, distance, stiffness=inf, damping=0.0)",),
    "AddWeldConstraint": ("(body_A, X_AP, body_B, X_BQ)",),
    "deformable_model": ("()",),
    "mutable_deformable_model": ("()",),
    "set_gravity_enabled": ("(model_instance, is_enabled)",),
    "is_gravity_enabled": ("(model_instance)",),
    "GetConstraintActiveStatus": ("(context, id)",),
    "SetConstraintActiveStatus": ("(context, id, status)",),
    "GetDistanceConstraintParams": ("(context)", "(context, id)"),
    "SetDistanceConstraintParams": ("(context, id, params)",),
    "GetDefaultDistanceConstraintParams": ("()",),
    "RemoveAllJointActuatorEffortLimits": ("()",),
    "RemoveJointActuator": ("(actuator)",),
    "SetUseSampledOutputPorts": ("(use_sampled_output_ports)",),
    "GetTopologyGraphvizString": ("()",),
}


def _unsupported(name: str, texts):
    @signatures(*texts)
    def method(self, *args, **kwargs):
        for sig in method.__overloads__:
            try:
                sig.bind(*args, **kwargs)
                break
            except TypeError:
                continue
        else:
            given = [type(a).__name__ for a in args] + [f"{k}=..." for k in kwargs]
            raise TypeError(f"MultibodyPlant.{name}(): incompatible function arguments "
                            f"({', '.join(given)}); pydrake's signatures: "
                            + ", ".join(f"{name}{t}" for t in texts))
        raise NotImplementedError(
            f"MultibodyPlant.{name}() is not offered: this library's MultibodyPlant is the "
            f"kinematic part of pydrake's (bodies, joints, frames, poses, Jacobians, "
            f"geometry); it computes no dynamics, actuation or contact forces "
            f"(docs/robots.md)")
    method.__name__ = name
    method.__doc__ = (f"Not offered (no dynamics here): raises NotImplementedError. "
                      f"pydrake's MultibodyPlant."
                      + " or ".join(f"{name}{t}" for t in texts) + ".")
    return method


class PlantUnsupported:
    """Mixin of MultibodyPlant: dynamics methods that raise, settings that are
    stored."""

    _contact_model = ContactModel.kHydroelasticWithFallback
    # pydrake 1.51's default for a MultibodyPlant built directly (kSap solver).
    _discrete_contact_approximation = DiscreteContactApproximation.kLagged
    _penetration_allowance = 1e-3
    _stiction_tolerance = 1e-3

    def set_contact_model(self, model) -> None:
        """Stored only (no contact dynamics here).

        Raises:
          RuntimeError: after Finalize, as pydrake's."""
        self._throw_if_finalized("set_contact_model")
        self._contact_model = model

    def get_contact_model(self):
        """The stored ContactModel (kHydroelasticWithFallback unless set, as
        pydrake's); it has no effect here."""
        return self._contact_model

    def set_discrete_contact_approximation(self, approximation) -> None:
        """Stored only.

        Raises:
          RuntimeError: after Finalize, or on a continuous plant (time_step 0),
            where pydrake aborts."""
        self._throw_if_finalized("set_discrete_contact_approximation")
        if self.time_step() == 0:
            raise RuntimeError("set_discrete_contact_approximation(): the plant is "
                               "continuous (time_step = 0); a discrete contact "
                               "approximation needs a discrete plant")
        self._discrete_contact_approximation = approximation

    def get_discrete_contact_approximation(self):
        """The stored DiscreteContactApproximation (kLagged unless set, as
        pydrake's); it has no effect here."""
        return self._discrete_contact_approximation

    def get_discrete_contact_solver(self):
        """The DiscreteContactSolver pydrake would use for the stored
        approximation: kTamsi for kTamsi, kSap for the others. No effect here."""
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
        """NaN: there is no penalty contact model here. pydrake returns a time
        scale [s] estimated from the penetration allowance (−1 when it estimated
        none, e.g. without a SceneGraph) and raises RuntimeError before Finalize."""
        return float("nan")

    def set_contact_surface_representation(self, surface_representation) -> None:
        """Stored only.

        Raises:
          RuntimeError: after Finalize, as pydrake's."""
        self._throw_if_finalized("set_contact_surface_representation")
        self._surface_representation = surface_representation

    @staticmethod
    def GetDefaultContactSurfaceRepresentation(time_step):
        """kTriangle for a continuous plant (time_step 0 [s]), else kPolygon."""
        from scenegraph.hydroelastic.contact_surface import HydroelasticContactRepresentation
        return HydroelasticContactRepresentation.kTriangle if time_step == 0 \
            else HydroelasticContactRepresentation.kPolygon

    def get_contact_surface_representation(self):
        """The stored representation; by default
        GetDefaultContactSurfaceRepresentation(time_step()), as pydrake's."""
        return getattr(self, "_surface_representation",
                       self.GetDefaultContactSurfaceRepresentation(self.time_step()))


for _name, _texts in _DYNAMICS_METHODS.items():
    setattr(PlantUnsupported, _name, _unsupported(_name, _texts))
del _name, _texts
