"""Joint setters return the joint, as pydrake's."""

import numpy as np

from scenegraph.math import RollPitchYaw, RotationMatrix
from scenegraph.multibody import (MultibodyPlant, PlanarJoint, PrismaticJoint,
                                  RevoluteJoint, RpyFloatingJoint)
from tests.scenegraph.multibody.plant_builders import unit_sphere_inertia


# --- joints -------------------------------------------------------------------------------
def test_joint_setters_return_the_joint():
    plant = MultibodyPlant(0.0)
    bodies = [plant.AddRigidBody(n, unit_sphere_inertia()) for n in "abcd"]
    rev = plant.AddJoint(RevoluteJoint("rev", plant.world_frame(), bodies[0].body_frame(),
                                       [0, 0, 1]))
    pri = plant.AddJoint(PrismaticJoint("pri", bodies[0].body_frame(),
                                        bodies[1].body_frame(), [1, 0, 0]))
    planar = plant.AddJoint(PlanarJoint("planar", bodies[1].body_frame(),
                                        bodies[2].body_frame(), [0, 0, 0]))
    rpy = plant.AddJoint(RpyFloatingJoint("rpy", bodies[2].body_frame(),
                                          bodies[3].body_frame()))
    rpy.set_default_translation(p_FM=[0.1, 0.2, 0.3])
    plant.Finalize()
    context = plant.CreateDefaultContext()
    assert rev.set_angle(context, 0.3).set_angular_rate(context, 0.1) is rev
    assert pri.set_translation(context, 0.2).set_translation_rate(context, 0.5) is pri
    assert planar.set_pose(context, [0.1, 0.2], 0.3).set_rotation(context, 0.4) is planar
    R = RotationMatrix(RollPitchYaw(0.1, 0.2, 0.3))
    assert rpy.SetOrientation(context, R_FM=R).SetTranslation(context, [1, 2, 3]) is rpy
    np.testing.assert_allclose(rpy.get_angles(context), [0.1, 0.2, 0.3])
    np.testing.assert_allclose(rpy.get_default_translation(), [0.1, 0.2, 0.3])
