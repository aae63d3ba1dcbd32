"""Joint getters on a MultibodyPlant_[AutoDiffXd]'s context hand out
AutoDiffXd values with their derivatives (as pydrake's do); on a float
plant's context they hand out floats."""
import numpy as np

from systems.autodiff import AutoDiffXd, InitializeAutoDiff
from scenegraph.multibody import MultibodyPlant, Parser

URDF = """<robot name="r">
  <link name="world"/><link name="arm"/><link name="slider"/>
  <joint name="hinge" type="revolute"><parent link="world"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-2" upper="2"/></joint>
  <joint name="rail" type="prismatic"><parent link="arm"/><child link="slider"/>
    <axis xyz="1 0 0"/><limit lower="-1" upper="1"/></joint>
</robot>"""


def _plants():
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromString(URDF, "urdf")
    plant.Finalize()
    return plant, plant.ToAutoDiffXd()


def test_revolute_and_prismatic_getters_keep_the_derivatives():
    _, plant = _plants()
    context = plant.CreateDefaultContext()
    # q = (0.3, 0.2) with dq/dq = I, v = (1.5, -0.5) with dv/dv = I.
    x = InitializeAutoDiff(np.array([0.3, 0.2, 1.5, -0.5])).reshape(-1)
    plant.SetPositionsAndVelocities(context, x)
    hinge, rail = plant.GetJointByName("hinge"), plant.GetJointByName("rail")
    angle, rate = hinge.get_angle(context), hinge.get_angular_rate(context)
    d, d_rate = rail.get_translation(context), rail.get_translation_rate(context)
    assert all(isinstance(value, AutoDiffXd) for value in (angle, rate, d, d_rate))
    assert (angle.value(), rate.value(), d.value(), d_rate.value()) == (0.3, 1.5, 0.2, -0.5)
    np.testing.assert_array_equal(angle.derivatives(), [1, 0, 0, 0])
    np.testing.assert_array_equal(d_rate.derivatives(), [0, 0, 0, 1])
    assert hinge.GetOnePosition(context).value() == 0.3


def test_the_float_plant_getters_give_floats():
    plant, _ = _plants()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.3, 0.2])
    angle = plant.GetJointByName("hinge").get_angle(context)
    assert type(angle) is float and angle == 0.3
    assert type(plant.GetJointByName("rail").get_translation(context)) is float
