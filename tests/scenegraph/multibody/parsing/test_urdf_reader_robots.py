"""Real robots from example-robot-data, loaded with their meshes (STL, DAE, OBJ).

Expected structure is pydrake 1.51.1's on the same URDF with its meshes
converted to OBJ (the only collision format pydrake reads): bodies, joints,
positions and velocities after Finalize (a free base adds a quaternion
floating joint: 7 positions, 6 velocities), geometries, actuators and coupler
constraints. pydrake refuses every Talos file (talos_reduced.urdf: a welded joint
mimics a moving one); this parser ignores those mimic elements with a warning
and loads it, and its numbers come from the URDF itself, counted here with the
standard library's XML reader.

Each robot is loaded once for the module (about 0.05-0.8 s each).
"""
import collections
import functools
import pathlib
import warnings
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest
import trimesh

from scenegraph import Convex, Mesh, Role
from scenegraph.proximity_shape_check import check_proximity_shape
from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
from scenegraph.multibody.parsing import ParsingError, ParsingWarning
from systems.framework import DiagramBuilder

from tests.scenegraph.multibody import robot_data

# robot: (URDF, (bodies, joints, nq, nv, geometries, actuators, coupler constraints))
PYDRAKE = {
    "panda": ("panda_description/urdf/panda.urdf", (14, 13, 16, 15, 28, 0, 1)),
    "ur5": ("ur_description/urdf/ur5_robot.urdf", (11, 10, 6, 6, 15, 6, 0)),
    "xarm7": ("xarm_description/urdf/xarm7.urdf", (10, 9, 7, 7, 16, 7, 0)),
    "tiago": ("tiago_description/robots/tiago.urdf", (79, 78, 55, 54, 129, 13, 0)),
    "go2": ("go2_description/urdf/go2.urdf", (32, 31, 19, 18, 36, 0, 0)),
    "solo12": ("solo_description/robots/solo12.urdf", (18, 17, 19, 18, 34, 0, 0)),
    "allegro": ("allegro_hand_description/urdf/allegro_right_hand.urdf",
                (22, 21, 23, 22, 42, 0, 0)),
    "g1": ("g1_description/urdf/g1_29dof_rev_1_0.urdf", (40, 39, 36, 35, 71, 0, 0)),
    "romeo": ("romeo_description/urdf/romeo_small.urdf", (59, 58, 38, 37, 40, 0, 0)),
}
TALOS = "talos_data/robots/talos_reduced.urdf"


@functools.lru_cache(maxsize=None)
def loaded(urdf):
    """(plant, scene_graph, warnings) of one robot, finalized."""
    builder = DiagramBuilder()
    plant, sg = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    parser.package_map().Add(robot_data.PACKAGE, str(robot_data.package_root()))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parser.AddModels(robot_data.urdf_path(urdf))
    plant.Finalize()
    return plant, sg, [w for w in caught if issubclass(w.category, ParsingWarning)]


def structure(plant, sg):
    return (plant.num_bodies(), plant.num_joints(), plant.num_positions(),
            plant.num_velocities(), sg.model_inspector().num_geometries(), plant.num_actuators(),
            plant.num_constraints())


@pytest.mark.parametrize("robot", list(PYDRAKE))
def test_structure_matches_pydrake(robot):
    urdf, expected = PYDRAKE[robot]
    plant, sg, _ = loaded(urdf)
    assert structure(plant, sg) == expected


def test_panda_mimic_is_recorded_follower_first():
    plant, _, _ = loaded(PYDRAKE["panda"][0])
    [spec] = plant.get_coupler_constraint_specs()
    # <joint name="panda_finger_joint2"> <mimic joint="panda_finger_joint1"/>
    assert plant.get_joint(spec.joint0_index).name() == "panda_finger_joint2"
    assert plant.get_joint(spec.joint1_index).name() == "panda_finger_joint1"
    assert (spec.gear_ratio, spec.offset) == (1.0, 0.0)


def test_panda_collision_meshes_hold_the_files_vertices():
    plant, sg, _ = loaded(PYDRAKE["panda"][0])
    inspector = sg.model_inspector()
    shapes = [inspector.GetShape(g) for g in inspector.GetAllGeometryIds(Role.kProximity)]
    meshes = [s for s in shapes if isinstance(s, (Mesh, Convex))]
    assert (len(shapes), len(meshes)) == (17, 9)          # 9 STL meshes and 8 boxes
    for shape in meshes:           # the obvious reading: trimesh, as the file says
        reference = trimesh.load(shape.filename(), force="mesh", process=False)
        np.testing.assert_array_equal(shape.mesh_vertices(), reference.vertices)
    [link0] = [s for s in meshes if s.filename().endswith("collision/link0.stl")]
    # A binary STL: an 84-byte header, then 50 bytes per triangle, three vertices each.
    triangles = (pathlib.Path(link0.filename()).stat().st_size - 84) // 50
    assert (len(link0.mesh_faces()), len(link0.mesh_vertices())) == (triangles, 3 * triangles)
    assert triangles == 200


def test_panda_visual_dae_meshes_are_read_with_their_scene_transforms():
    plant, sg, _ = loaded(PYDRAKE["panda"][0])
    inspector = sg.model_inspector()
    dae = [inspector.GetShape(g) for g in inspector.GetAllGeometryIds(Role.kIllustration)
           if inspector.GetShape(g).filename().endswith(".dae")]
    assert len(dae) == 11         # finger.dae twice
    for shape in dae:
        reference = trimesh.load(shape.filename(), force="mesh")
        assert len(shape.mesh_vertices()) == len(reference.vertices)
        np.testing.assert_allclose(shape.mesh_vertices().min(axis=0), reference.bounds[0])


def test_collision_meshes_scene_graph_accepts_stay_meshes_the_others_become_convex():
    plant, sg, _ = loaded(PYDRAKE["tiago"][0])
    inspector = sg.model_inspector()
    ids = inspector.GetAllGeometryIds(Role.kProximity)
    kinds = collections.Counter(type(inspector.GetShape(g)).__name__ for g in ids)
    assert kinds == {"Convex": 20, "Mesh": 12, "Box": 18, "Cylinder": 7, "Sphere": 7}
    for g in ids:
        shape = inspector.GetShape(g)
        if isinstance(shape, (Mesh, Convex)):
            try:      # SceneGraph's own test: closed, and small enough for exact queries
                check_proximity_shape(Mesh(shape.filename(), shape.scale()))
                accepted = True
            except ValueError:
                accepted = False
            assert isinstance(shape, Mesh) == accepted
            assert inspector.GetName(g).split("::")[1].startswith("Mesh")    # Drake's name


@functools.lru_cache(maxsize=None)
def talos():
    """Talos (talos_reduced.urdf) as it is: pydrake refuses it (its welded
    gripper joints keep their <mimic>); here those mimics are ignored with a
    warning each, and the rest loads."""
    builder = DiagramBuilder()
    plant, sg = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    parser.package_map().Add(robot_data.PACKAGE, str(robot_data.package_root()))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parser.AddModels(robot_data.urdf_path(TALOS))
    plant.Finalize()
    robot = ElementTree.parse(robot_data.urdf_path(TALOS)).getroot()
    return plant, sg, robot, [str(w.message) for w in caught]


def test_talos_loads_as_it_is_warning_about_its_welded_mimics():
    plant, sg, robot, messages = talos()
    mimics = [m for m in messages if "cannot mimic joint" in m]
    welded = [j.get("name") for j in robot.findall("joint")
              if j.get("type") == "fixed" and j.find("mimic") is not None]
    assert len(mimics) == len(welded) == 12          # six per gripper
    assert all(any(f"Joint '{name}' which has 0 DOF" in m for m in mimics) for name in welded)


def test_talos_matches_its_urdf():
    plant, sg, robot, _ = talos()
    joints = robot.findall("joint")
    movable = [j for j in joints if j.get("type") in ("revolute", "continuous", "prismatic")]
    links = robot.findall("link")
    shapes = sum(len(link.findall("visual")) + len(link.findall("collision")) for link in links)
    efforts = {j.get("name"): float(j.find("limit").get("effort", "inf"))
               for j in movable if j.find("limit") is not None}
    actuated = [t for t in robot.findall("transmission")
                if "SimpleTransmission" in t.find("type").text
                and efforts.get(t.find("joint").get("name"), 0) > 0]
    # The obvious count (a free base: one more joint, 7 positions and 6 velocities) ...
    assert structure(plant, sg) == (len(links) + 1, len(joints) + 1, len(movable) + 7,
                                    len(movable) + 6, shapes, len(actuated), 0)
    # ... and its values.
    assert structure(plant, sg) == (61, 60, 39, 38, 104, 24, 0)
    torso = plant.GetJointByName("torso_1_joint")
    limit = [j for j in joints if j.get("name") == "torso_1_joint"][0].find("limit")
    assert (torso.position_lower_limit(), torso.position_upper_limit()) == \
        (float(limit.get("lower")), float(limit.get("upper")))
    assert torso.velocity_upper_limit() == float(limit.get("velocity"))
