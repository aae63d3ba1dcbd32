"""What the kinematic MultibodyPlant does not offer: dynamics raise naming the method after
checking pydrake's signatures; contact settings are accepted, stored and follow pydrake's
defaults and Finalize rules."""

import pytest

from scenegraph.multibody import MultibodyPlant
from scenegraph.multibody import DiscreteContactApproximation
from tests.scenegraph.multibody.plant_builders import unit_sphere_inertia


@pytest.mark.parametrize("method, args", [
    ("CalcMassMatrix", (None,)), ("CalcInverseDynamics", (None, None, None)),
    ("get_actuation_input_port", ()), ("get_contact_results_output_port", ()),
    ("CalcGravityGeneralizedForces", (None,))])
def test_dynamics_are_not_offered_and_say_so(method, args):
    plant = MultibodyPlant(0.0)
    with pytest.raises(NotImplementedError, match=f"MultibodyPlant.{method}\\(\\) is not "
                                                  f"offered.*no dynamics"):
        getattr(plant, method)(*args)


def test_contact_settings_are_accepted_and_stored():
    from scenegraph.multibody import DiscreteContactApproximation
    plant = MultibodyPlant(0.001)
    plant.set_discrete_contact_approximation(DiscreteContactApproximation.kSap)
    plant.set_penetration_allowance(0.002)
    assert plant.get_discrete_contact_approximation() is DiscreteContactApproximation.kSap


# --- contact settings and the dynamics that raise ----------------------------------------
def test_contact_settings_follow_pydrakes_defaults_and_finalize_rules():
    from scenegraph import HydroelasticContactRepresentation as Rep
    continuous, discrete = MultibodyPlant(0.0), MultibodyPlant(0.01)
    assert continuous.get_discrete_contact_approximation() is \
        DiscreteContactApproximation.kLagged
    assert continuous.get_contact_surface_representation() is Rep.kTriangle
    assert discrete.get_contact_surface_representation() is Rep.kPolygon
    assert MultibodyPlant.GetDefaultContactSurfaceRepresentation(time_step=0.1) is \
        Rep.kPolygon
    with pytest.raises(RuntimeError, match="continuous"):
        continuous.set_discrete_contact_approximation(DiscreteContactApproximation.kSap)
    discrete.Finalize()
    with pytest.raises(RuntimeError, match="Post-finalize calls to 'set_contact_model"):
        from scenegraph.multibody import ContactModel
        discrete.set_contact_model(ContactModel.kPoint)
    with pytest.raises(RuntimeError, match="Post-finalize"):
        discrete.set_contact_surface_representation(Rep.kTriangle)


def test_dynamics_stubs_check_pydrakes_signatures_before_raising():
    plant = MultibodyPlant(0.0)
    plant.AddRigidBody("ball", unit_sphere_inertia())
    plant.Finalize()
    context = plant.CreateDefaultContext()
    with pytest.raises(NotImplementedError, match="CalcMassMatrix"):
        plant.CalcMassMatrix(context=context)
    with pytest.raises(NotImplementedError, match="AddDistanceConstraint"):
        plant.AddDistanceConstraint(body_A=None, p_AP=None, body_B=None, p_BQ=None,
                                    distance=1.0)
    with pytest.raises(TypeError, match=r"CalcMassMatrix\(\): incompatible"):
        plant.CalcMassMatrix(context, 5)
    with pytest.raises(TypeError, match="incompatible"):
        plant.get_actuation_input_port(instance=1)
