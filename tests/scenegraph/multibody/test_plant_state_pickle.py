"""A MultibodyPlant pickles after its kinematics ran (its compiled entry is
looked up again by the copy), and the copy computes the same poses."""
import pickle

import numpy as np

from scenegraph.multibody import MultibodyPlant, Parser

URDF = """<robot name="r">
  <link name="world"/><link name="arm"/>
  <joint name="hinge" type="revolute"><parent link="world"/><child link="arm"/>
    <origin xyz="1 0 0"/><axis xyz="0 0 1"/><limit lower="-2" upper="2"/></joint>
</robot>"""


def test_a_plant_whose_kinematics_ran_pickles_and_its_copy_computes_poses():
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromString(URDF, "urdf")
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.3])
    plant.EvalBodyPoseInWorld(context, plant.GetBodyByName("arm"))
    copy = pickle.loads(pickle.dumps(plant))
    copy_context = copy.CreateDefaultContext()
    copy.SetPositions(copy_context, [np.pi / 2])
    X_WA = copy.EvalBodyPoseInWorld(copy_context, copy.GetBodyByName("arm"))
    np.testing.assert_allclose(X_WA.translation(), [1, 0, 0], atol=1e-15)
    np.testing.assert_allclose(X_WA.rotation().matrix(), [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
                               atol=1e-15)
