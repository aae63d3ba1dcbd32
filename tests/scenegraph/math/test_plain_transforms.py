"""plain_transforms: model loading's pose arithmetic on Python floats gives
the compiled kernels' results bit for bit (RigidTransform's own composition,
inversion and RollPitchYaw conversion), with RigidTransform(RollPitchYaw(rpy),
p)'s checks; and a URDF parse + Finalize loads no compiled kernel."""
import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.math.plain_transforms import compose, inverse, pose_from_rpy, rpy_rotation


def _angles(count=2000, seed=7):
    rng = np.random.default_rng(seed)
    wide = rng.uniform(-4 * math.pi, 4 * math.pi, size=(count, 3))
    # URDF-like values: multiples and fractions of π, tiny and exact zeros.
    special = [0.0, -0.0, math.pi, -math.pi / 2, math.pi / 2, 1.5707963, 1e-300, -1e-17, 0.3]
    grid = np.array([[a, b, c] for a in special for b in special for c in special[:3]])
    return np.vstack([wide, grid])


def _poses(count=500, seed=11):
    rng = np.random.default_rng(seed)
    out = []
    for rpy in _angles(count, seed):
        out.append(RigidTransform(RollPitchYaw(rpy), rng.normal(scale=3.0, size=3)))
    return out


def test_rpy_rotation_equals_the_kernel_bit_for_bit():
    for roll, pitch, yaw in _angles():
        expected = RollPitchYaw(roll, pitch, yaw).ToRotationMatrix().matrix()
        assert np.array_equal(rpy_rotation(roll, pitch, yaw), expected)


def test_compose_equals_rigid_transform_matmul_bit_for_bit():
    poses = _poses()
    for X_AB, X_BC in zip(poses, poses[1:] + poses[:1]):
        assert compose(X_AB, X_BC).IsExactlyEqualTo(X_AB @ X_BC)


def test_inverse_equals_rigid_transform_inverse_bit_for_bit():
    for X_AB in _poses():
        assert inverse(X_AB).IsExactlyEqualTo(X_AB.inverse())


def test_results_are_new_rigid_transforms_that_share_nothing_with_the_inputs():
    X_AB = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [1.0, 2.0, 3.0])
    for X in (compose(X_AB, X_AB), inverse(X_AB)):
        assert type(X) is RigidTransform
        assert not np.shares_memory(X.GetAsMatrix4(), X_AB.GetAsMatrix4())
        assert X._R.flags.c_contiguous and X._R.dtype == np.float64 and X._p.shape == (3,)


def test_pose_from_rpy_is_the_rigid_transform_of_those_angles():
    X = pose_from_rpy(np.array([0.1, -0.2, 2.5]), np.array([0.5, 0.0, -1.0]))
    expected = RigidTransform(RollPitchYaw([0.1, -0.2, 2.5]), [0.5, 0.0, -1.0])
    assert X.IsExactlyEqualTo(expected)


def test_pose_from_rpy_keeps_the_constructors_checks():
    with pytest.raises(RuntimeError, match="angles must be finite"):
        pose_from_rpy(np.array([0.0, math.nan, 0.0]), np.zeros(3))
    with pytest.raises(TypeError, match="p must have 3 elements"):
        pose_from_rpy(np.zeros(3), np.zeros(2))


def test_a_urdf_parse_and_finalize_load_no_compiled_kernel():
    """Origins with rpy, a fixed offset frame and the forest's inversions:
    numba is imported later (the first query's kernels), not by the model."""
    code = textwrap.dedent("""
        import sys
        from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
        from systems.framework import DiagramBuilder
        urdf = '''<robot name="r"><link name="a"/>
          <link name="b"><inertial><origin rpy="0.1 0.2 0.3" xyz="0 0 0.1"/><mass value="1"/>
            <inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
            <collision><origin rpy="0 1.5707963 0"/><geometry><box size="0.1 0.2 0.3"/>
            </geometry></collision></link>
          <joint name="j" type="revolute"><origin rpy="0.5 0 -0.25" xyz="0.1 0 0"/>
            <parent link="a"/><child link="b"/><axis xyz="0 0 1"/></joint></robot>'''
        plant, _ = AddMultibodyPlantSceneGraph(DiagramBuilder(), 0.0)
        Parser(plant).AddModelsFromString(urdf, "urdf")
        plant.Finalize()
        print("numba" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False"]
