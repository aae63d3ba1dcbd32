"""Hand-written bad calls of the robot-loading path (Parser, MultibodyPlant),
as an attacker and as a careless user would make them, written once for both
libraries: every case takes an `api` namespace (this library's names from
`api_here()`, pydrake's from tools/attack_cases_vs_drake.py) and a scratch
folder, and returns a short summary of what came back.

`run_case` turns a case into an outcome record ({"outcome": "ok", "value": ...}
or {"outcome": "error", "type": ..., "message": ...}); the tool compares the
records of the two libraries, tests/robustness/test_robot_loading_bad_calls.py checks
this library's against what each case expects.
"""
from __future__ import annotations

import math
import os
import pathlib
import types

import numpy as np

NAN, INF = math.nan, math.inf


def api_here():
    """This library's names, as the cases use them."""
    from scenegraph import (Box, FramePoseVector, GeometryInstance, ProximityProperties,
                            SceneGraph, Sphere)
    from scenegraph.math import RigidTransform, RollPitchYaw, RotationMatrix
    from scenegraph.multibody import (AddMultibodyPlantSceneGraph, BodyIndex,
                                      FixedOffsetFrame, FrameIndex, JacobianWrtVariable,
                                      JointIndex, ModelInstanceIndex, MultibodyPlant, Parser,
                                      PrismaticJoint, RevoluteJoint, RotationalInertia,
                                      SpatialInertia, UnitInertia, WeldJoint)
    from systems.analysis import Simulator
    from systems.framework import DiagramBuilder
    return types.SimpleNamespace(**{k: v for k, v in locals().items()})


class Rig:
    """A finalized continuous plant in a diagram: a planar two-link arm
    (revolute 'shoulder' about z at the world origin, 'elbow' with limits
    ±2 rad at (0.7, 0, 0) in link1) and a free body 'ball' with a collision
    sphere; the diagram's context, the plant's and SceneGraph's; and a
    second, unrelated plant with its own context."""

    def __init__(self, api):
        self.api = api
        builder = api.DiagramBuilder()
        plant, scene_graph = api.AddMultibodyPlantSceneGraph(builder, 0.0)
        self.link1, self.link2 = _arm(api, plant)
        self.ball = plant.AddRigidBody("ball", api.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
        plant.RegisterCollisionGeometry(self.ball, api.RigidTransform(), api.Sphere(0.1),
                                        "ball", api.ProximityProperties())
        plant.Finalize()
        self.plant, self.scene_graph = plant, scene_graph
        self.diagram = builder.Build()
        self.root = self.diagram.CreateDefaultContext()
        self.context = plant.GetMyMutableContextFromRoot(self.root)
        self.sg_context = scene_graph.GetMyMutableContextFromRoot(self.root)
        other_builder = api.DiagramBuilder()
        other, _ = api.AddMultibodyPlantSceneGraph(other_builder, 0.0)
        self.other_link1, _ = _arm(api, other)
        other.Finalize()
        self.other = other
        self.other_diagram = other_builder.Build()
        self.other_context = other.GetMyMutableContextFromRoot(
            self.other_diagram.CreateDefaultContext())

    def q(self):
        return [float(x) for x in self.plant.GetPositions(self.context)]


def _arm(api, plant):
    inertia = api.SpatialInertia.SolidSphereWithMass(1.0, 0.1)
    link1 = plant.AddRigidBody("link1", inertia)
    link2 = plant.AddRigidBody("link2", inertia)
    plant.AddJoint(api.RevoluteJoint("shoulder", plant.world_frame(), link1.body_frame(),
                                     [0.0, 0.0, 1.0]))
    elbow_parent = plant.AddFrame(api.FixedOffsetFrame(
        "elbow_parent", link1.body_frame(), api.RigidTransform([0.7, 0.0, 0.0])))
    plant.AddJoint(api.RevoluteJoint("elbow", elbow_parent, link2.body_frame(),
                                     [0.0, 0.0, 1.0], -2.0, 2.0))
    return link1, link2


def _fresh(api):
    """(builder, plant, scene_graph) before Finalize."""
    builder = api.DiagramBuilder()
    plant, scene_graph = api.AddMultibodyPlantSceneGraph(builder, 0.0)
    return builder, plant, scene_graph


def _pose(X):
    return [round(float(v), 9) for v in np.asarray(X.translation()).ravel()]


def _write(tmp: pathlib.Path, name: str, text) -> str:
    path = tmp / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return str(path)


def _urdf(body: str, name: str = "r") -> str:
    return f'<?xml version="1.0"?>\n<robot name="{name}">\n{body}\n</robot>\n'


LINK = '<link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ' \
       'ixy="0" ixz="0" iyz="0"/></inertial></link>'


def _parse_file(api, tmp, name, text):
    """Parses `text` written to tmp/name into a fresh plant; (bodies, joints)
    added, or the error."""
    _, plant, _ = _fresh(api)
    path = _write(tmp, name, text)
    api.Parser(plant).AddModels(path)
    return plant.num_bodies(), plant.num_joints()


def _parse_string(api, text, file_type):
    _, plant, _ = _fresh(api)
    api.Parser(plant).AddModelsFromString(text, file_type)
    return plant.num_bodies(), plant.num_joints()


def _billion_laughs(depth=10):
    """An XML bomb: entity lol{depth} expands to 10**depth copies of 'lol'."""
    lines = ['<!ENTITY lol0 "lol">']
    for k in range(1, depth + 1):
        lines.append(f'<!ENTITY lol{k} "' + f"&lol{k - 1};" * 10 + '">')
    return ('<?xml version="1.0"?>\n<!DOCTYPE robot [\n' + "\n".join(lines) + "\n]>\n"
            f'<robot name="&lol{depth};">{LINK}</robot>\n')


def _deep_chain(n):
    links = "".join(f'<link name="l{k}"/>' for k in range(n + 1))
    joints = "".join(f'<joint name="j{k}" type="revolute"><parent link="l{k}"/>'
                     f'<child link="l{k + 1}"/><axis xyz="0 0 1"/></joint>'
                     for k in range(n))
    return _urdf(links + joints)


def _mesh_visual(path):
    return _urdf(f'<link name="a"><visual><geometry><mesh filename="{path}"/></geometry>'
                 f'</visual></link>')


def _special_file(tmp, name, target):
    """tmp/name: a symbolic link to the device `target` (or a FIFO for None)."""
    path = tmp / name
    if target is None:
        os.mkfifo(path)
    else:
        os.symlink(target, path)
    return str(path)


# name -> (who would try it, call(api, rig, tmp) -> summary)
CASES = {
    # --- ids and names ------------------------------------------------------------------
    "GetBodyByName of a missing name": (
        "careless", lambda api, r, tmp: r.plant.GetBodyByName("nope").name()),
    "GetBodyByName in a missing model instance": (
        "careless", lambda api, r, tmp: r.plant.GetBodyByName(
            "link1", api.ModelInstanceIndex(99)).name()),
    "get_body with an out-of-range BodyIndex": (
        "careless", lambda api, r, tmp: r.plant.get_body(api.BodyIndex(99)).name()),
    "get_body with a JointIndex": (
        "careless", lambda api, r, tmp: r.plant.get_body(api.JointIndex(0)).name()),
    "get_joint with a BodyIndex": (
        "careless", lambda api, r, tmp: r.plant.get_joint(api.BodyIndex(1)).name()),
    "get_body with a plain int": (
        "careless", lambda api, r, tmp: r.plant.get_body(1).name()),
    "get_body with a negative BodyIndex": (
        "attacker", lambda api, r, tmp: r.plant.get_body(api.BodyIndex(-1)).name()),
    "get_frame with a huge FrameIndex": (
        "attacker", lambda api, r, tmp: r.plant.get_frame(api.FrameIndex(2 ** 31 - 1)).name()),
    "GetJointByName with a non-string": (
        "careless", lambda api, r, tmp: r.plant.GetJointByName(7).name()),
    "HasBodyNamed with None": (
        "careless", lambda api, r, tmp: r.plant.HasBodyNamed(None)),
    "HasJointNamed with None": (
        "careless", lambda api, r, tmp: r.plant.HasJointNamed(None)),
    "GetFrameByName with an int": (
        "careless", lambda api, r, tmp: r.plant.GetFrameByName(3).name()),
    "AddRigidBody with an int name": (
        "careless", lambda api, r, tmp: _fresh(api)[1].AddRigidBody(
            5, api.SpatialInertia.SolidSphereWithMass(1.0, 0.1)).name()),
    "a joint with an empty name": (
        "careless", lambda api, r, tmp: _joint(api, lambda p, b: api.RevoluteJoint(
            "", p.world_frame(), b.body_frame(), [0.0, 0.0, 1.0]))),
    "a frame with an empty name": (
        "careless", lambda api, r, tmp: _empty_frame(api)),
    "a model instance with an empty name": (
        "careless", lambda api, r, tmp: int(_fresh(api)[1].AddModelInstance(""))),
    "GetModelInstanceByName of a missing name": (
        "careless", lambda api, r, tmp: int(r.plant.GetModelInstanceByName("nope"))),
    # --- contexts ------------------------------------------------------------------------
    "EvalBodyPoseInWorld with the diagram's context": (
        "careless", lambda api, r, tmp: _pose(r.plant.EvalBodyPoseInWorld(r.root, r.link2))),
    "EvalBodyPoseInWorld with SceneGraph's context": (
        "careless", lambda api, r, tmp: _pose(r.plant.EvalBodyPoseInWorld(r.sg_context,
                                                                           r.link2))),
    "EvalBodyPoseInWorld with another plant's context": (
        "careless", lambda api, r, tmp: _pose(r.plant.EvalBodyPoseInWorld(r.other_context,
                                                                           r.link2))),
    "EvalBodyPoseInWorld of another plant's body": (
        "careless", lambda api, r, tmp: _pose(r.plant.EvalBodyPoseInWorld(r.context,
                                                                           r.other_link1))),
    "GetPositions with another plant's context": (
        "careless", lambda api, r, tmp: list(r.plant.GetPositions(r.other_context))),
    "CalcRelativeTransform with another plant's frame": (
        "careless", lambda api, r, tmp: _pose(r.plant.CalcRelativeTransform(
            r.context, r.plant.world_frame(), r.other_link1.body_frame()))),
    "SetPositions with None for the context": (
        "careless", lambda api, r, tmp: r.plant.SetPositions(None, [0.0] * 9)),
    # --- values ---------------------------------------------------------------------------
    "SetPositions with a NaN, then a pose": (
        "careless", lambda api, r, tmp: (r.plant.SetPositions(
            r.context, [NAN] + r.q()[1:]), _pose(r.plant.EvalBodyPoseInWorld(
                r.context, r.link2)))[1]),
    "SetPositions with an inf, then a query": (
        "careless", lambda api, r, tmp: (r.plant.SetPositions(
            r.context, r.q()[:-1] + [INF]), len(r.scene_graph.get_query_output_port().Eval(
                r.sg_context).ComputePointPairPenetration()))[1]),
    "SetPositions of the wrong size": (
        "careless", lambda api, r, tmp: r.plant.SetPositions(r.context, [0.0, 0.0])),
    "SetPositions with an (nq, 1) column": (
        "careless", lambda api, r, tmp: (r.plant.SetPositions(
            r.context, np.array(r.q()).reshape(-1, 1)), r.q())[1]),
    "SetPositions with text": (
        "careless", lambda api, r, tmp: (r.plant.SetPositions(
            r.context, ["0.5"] + [str(x) for x in r.q()[1:]]), r.q()[0])[1]),
    "SetPositions with None": (
        "careless", lambda api, r, tmp: r.plant.SetPositions(r.context, None)),
    "SetPositions of a missing model instance": (
        "careless", lambda api, r, tmp: r.plant.SetPositions(
            r.context, api.ModelInstanceIndex(99), [0.0])),
    "SetVelocities with a NaN": (
        "careless", lambda api, r, tmp: (r.plant.SetVelocities(r.context, [NAN] + [0.0] * 7),
                                         float(r.plant.GetVelocities(r.context)[0]))[1]),
    "SetPositionsInArray of the wrong size": (
        "careless", lambda api, r, tmp: list(r.plant.SetPositionsInArray(
            r.plant.GetModelInstanceByName("DefaultModelInstance"), [1.0], np.zeros(9)))),
    "MapVelocityToQDot with a short v": (
        "careless", lambda api, r, tmp: list(r.plant.MapVelocityToQDot(r.context, [1.0]))),
    "CalcPointsPositions with N x 3 points": (
        "careless", lambda api, r, tmp: np.shape(r.plant.CalcPointsPositions(
            r.context, r.link2.body_frame(), np.zeros((2, 3)), r.plant.world_frame()))),
    "CalcPointsPositions with a NaN point": (
        "careless", lambda api, r, tmp: np.asarray(r.plant.CalcPointsPositions(
            r.context, r.link2.body_frame(), [NAN, 0.0, 0.0],
            r.plant.world_frame())).ravel().tolist()),
    "CalcJacobianSpatialVelocity with a 2-vector point": (
        "careless", lambda api, r, tmp: np.shape(r.plant.CalcJacobianSpatialVelocity(
            r.context, api.JacobianWrtVariable.kV, r.link2.body_frame(), [0.0, 0.0],
            r.plant.world_frame(), r.plant.world_frame()))),
    "SetFreeBodyPose of a jointed body": (
        "careless", lambda api, r, tmp: r.plant.SetFreeBodyPose(r.context, r.link1,
                                                                 api.RigidTransform())),
    "SetFreeBodyPose with a NaN translation": (
        "careless", lambda api, r, tmp: (r.plant.SetFreeBodyPose(
            r.context, r.ball, api.RigidTransform([NAN, 0.0, 0.0])), r.q()[-3])[1]),
    "GetFreeBodyPose of a jointed body": (
        "careless", lambda api, r, tmp: _pose(r.plant.GetFreeBodyPose(r.context, r.link1))),
    # --- structure ------------------------------------------------------------------------
    "AddRigidBody after Finalize": (
        "careless", lambda api, r, tmp: r.plant.AddRigidBody(
            "late", api.SpatialInertia.SolidSphereWithMass(1.0, 0.1)).name()),
    "Finalize twice": (
        "careless", lambda api, r, tmp: r.plant.Finalize()),
    "a duplicate body name": (
        "careless", lambda api, r, tmp: _twice(api)),
    "an empty body name": (
        "careless", lambda api, r, tmp: _fresh(api)[1].AddRigidBody(
            "", api.SpatialInertia.SolidSphereWithMass(1.0, 0.1)).name()),
    "a revolute joint with a zero axis": (
        "careless", lambda api, r, tmp: _joint(api, lambda p, b: api.RevoluteJoint(
            "j", p.world_frame(), b.body_frame(), [0.0, 0.0, 0.0]))),
    "a revolute joint with a NaN axis": (
        "careless", lambda api, r, tmp: _joint(api, lambda p, b: api.RevoluteJoint(
            "j", p.world_frame(), b.body_frame(), [NAN, 0.0, 1.0]))),
    "a revolute joint with lower > upper": (
        "careless", lambda api, r, tmp: _joint(api, lambda p, b: api.RevoluteJoint(
            "j", p.world_frame(), b.body_frame(), [0.0, 0.0, 1.0], 1.0, -1.0))),
    "a joint from a body to itself": (
        "careless", lambda api, r, tmp: _joint(api, lambda p, b: api.RevoluteJoint(
            "j", b.body_frame(), b.body_frame(), [0.0, 0.0, 1.0]))),
    "a second parent joint": (
        "careless", lambda api, r, tmp: _two_parents(api)),
    "WeldFrames of the world to itself": (
        "careless", lambda api, r, tmp: _weld_world(api)),
    "WeldFrames with a NaN pose": (
        "careless", lambda api, r, tmp: _weld_nan(api)),
    "a negative mass": (
        "careless", lambda api, r, tmp: api.SpatialInertia.SolidSphereWithMass(-1.0, 0.1)
        .get_mass()),
    "an inertia of infinite moments": (
        "attacker", lambda api, r, tmp: api.RotationalInertia(INF, INF, INF)
        .CouldBePhysicallyValid()),
    "an inertia that violates the triangle inequality": (
        "careless", lambda api, r, tmp: _inertia(api, [1.0, 1.0, 5.0])),
    # --- the Parser: careless -------------------------------------------------------------
    "AddModels of a missing file": (
        "careless", lambda api, r, tmp: api.Parser(_fresh(api)[1]).AddModels(
            str(tmp / "missing.urdf"))),
    "AddModels of an unknown extension": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "robot.txt", _urdf(LINK))),
    "AddModelsFromString of an empty string": (
        "careless", lambda api, r, tmp: _parse_string(api, "", "urdf")),
    "AddModelsFromString of URDF text typed 'sdf'": (
        "careless", lambda api, r, tmp: _parse_string(api, _urdf(LINK), "sdf")),
    "AddModelsFromString of an unknown type": (
        "careless", lambda api, r, tmp: _parse_string(api, _urdf(LINK), "yaml")),
    "the same model file added twice": (
        "careless", lambda api, r, tmp: _twice_file(api, tmp)),
    "AddModels after Finalize": (
        "careless", lambda api, r, tmp: api.Parser(r.plant).AddModels(
            _write(tmp, "late.urdf", _urdf(LINK)))),
    "a URDF origin with NaN": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "nan.urdf", _urdf(
            LINK + '<link name="b"/><joint name="j" type="fixed"><parent link="a"/>'
            '<child link="b"/><origin xyz="nan 0 0"/></joint>'))),
    "a URDF mass of text": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "mass.urdf", _urdf(
            LINK.replace('value="1"', 'value="heavy"')))),
    "a URDF mass of inf": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "inf.urdf", _urdf(
            LINK.replace('value="1"', 'value="inf"')))),
    "a URDF inertia of 1e400": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "big.urdf", _urdf(
            LINK.replace('ixx="1"', 'ixx="1e400"')))),
    "an MJCF body with two geoms of one name": (
        "careless", lambda api, r, tmp: _unchanged_after(api, tmp, "geoms.xml", _mjcf(
            '<body name="b"><freejoint/><geom name="g" size="0.1"/>'
            '<geom name="g" size="0.2"/></body>'))),
    "two MJCF joints of one name": (
        "careless", lambda api, r, tmp: _unchanged_after(api, tmp, "joints.xml", _mjcf(
            '<body name="b"><joint name="j"/><geom size="0.1"/></body>'
            '<body name="c"><joint name="j"/><geom size="0.1"/></body>'))),
    "a URDF negative mass": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "neg.urdf", _urdf(
            LINK.replace('value="1"', 'value="-1"')))),
    "a URDF sphere of radius 0": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "r0.urdf", _urdf(
            '<link name="a"><collision><geometry><sphere radius="0"/></geometry>'
            '</collision></link>'))),
    "a URDF box of two sizes": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "box2.urdf", _urdf(
            '<link name="a"><collision><geometry><box size="1 1"/></geometry>'
            '</collision></link>'))),
    "a URDF mesh in an unknown package": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "pkg.urdf", _mesh_visual(
            "package://no_such_package/m.obj"))),
    "a URDF mesh naming a folder": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "dir.urdf", _urdf(
            f'<link name="a"><collision><geometry><mesh filename="{tmp}"/></geometry>'
            f'</collision></link>'))),
    "a xacro file": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "r.urdf.xacro", _urdf(
            '<xacro:property name="w" value="1"/>' + LINK))),
    "an MJCF model that includes itself": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "self.xml",
                                                    '<mujoco><include file="self.xml"/>'
                                                    '</mujoco>')),
    # --- the Parser: attacker -------------------------------------------------------------
    "an XML bomb (billion laughs)": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "bomb.urdf", _billion_laughs())),
    "an external entity naming /etc/passwd": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "xxe.urdf",
                                                    '<?xml version="1.0"?>\n<!DOCTYPE robot '
                                                    '[<!ENTITY x SYSTEM "file:///etc/passwd">'
                                                    ']>\n<robot name="&x;">' + LINK +
                                                    '</robot>')),
    "a chain of 300 links": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "chain.urdf", _deep_chain(300))),
    "a visual mesh that is a FIFO": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "fifo.urdf", _mesh_visual(
            _special_file(tmp, "fifo.obj", None)))),
    "a visual mesh linked to /dev/zero": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "zero.urdf", _mesh_visual(
            _special_file(tmp, "zero.stl", "/dev/zero")))),
    "a collision mesh linked to /dev/urandom": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "rnd.urdf", _urdf(
            '<link name="a"><collision><geometry><mesh filename="' +
            _special_file(tmp, "rnd.obj", "/dev/urandom") + '"/></geometry></collision>'
            '</link>'))),
    "AddModels of a FIFO": (
        "attacker", lambda api, r, tmp: api.Parser(_fresh(api)[1]).AddModels(
            _special_file(tmp, "pipe.urdf", None))),
    "AddModels of a folder named like a model": (
        "careless", lambda api, r, tmp: (os.mkdir(tmp / "robot.urdf"), api.Parser(
            _fresh(api)[1]).AddModels(str(tmp / "robot.urdf")))[1]),
    "an MJCF include of a FIFO": (
        "attacker", lambda api, r, tmp: (_special_file(tmp, "inc.xml", None), _parse_file(
            api, tmp, "main.xml", '<mujoco><include file="inc.xml"/></mujoco>'))[1]),
    "a URDF with a NUL byte": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "nul.urdf",
                                                    _urdf(LINK).encode().replace(
                                                        b'name="a"', b'name="a\x00b"'))),
    "a link name of 100 000 characters": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "long.urdf", _urdf(
            LINK.replace('name="a"', 'name="' + "a" * 100000 + '"')))),
    "a mesh scale of 1e308 cubed": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "scale.urdf", _urdf(
            '<link name="a"><collision><geometry><box size="1e308 1e308 1e308"/>'
            '</geometry></collision></link>'))),
}


def _mjcf(worldbody: str) -> str:
    return f'<mujoco model="m"><worldbody>{worldbody}</worldbody></mujoco>'


def _unchanged_after(api, tmp, name, text):
    """Parses `text` into a plant that already holds a model; returns the
    (bodies, joints, geometries) left after the refusal, or the error."""
    _, plant, scene_graph = _fresh(api)
    parser = api.Parser(plant)
    parser.AddModels(_write(tmp, "first.urdf", _urdf(LINK, "first")))
    before = (plant.num_bodies(), plant.num_joints(),
              scene_graph.model_inspector().num_geometries())
    try:
        parser.AddModels(_write(tmp, name, text))
    except Exception as error:
        after = (plant.num_bodies(), plant.num_joints(),
                 scene_graph.model_inspector().num_geometries())
        if after != before:
            raise AssertionError(f"the refusal left the plant changed: {before} -> {after}; "
                                 f"{type(error).__name__}: {error}") from error
        raise
    return plant.num_bodies(), plant.num_joints()


# --- second pass: meshes that are not meshes, deep nesting, huge files, SDFormat ----------
def _collision_mesh(path, scale="1 1 1", convex=False):
    extra = '<drake:declare_convex/>' if convex else ''
    return (f'<?xml version="1.0"?>\n<robot name="r" xmlns:drake="http://drake.mit.edu">\n'
            f'<link name="a"><collision><geometry><mesh filename="{path}" scale="{scale}">'
            f'{extra}</mesh></geometry></collision></link>\n</robot>\n')


def _mesh_file(tmp, name, data):
    return _write(tmp, name, data)


TETRA_OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"


def _nested_mjcf(depth):
    """Bodies nested `depth` deep, each with a hinge and a sphere."""
    opening = "".join(f'<body name="b{k}" pos="0 0 0.1"><joint name="j{k}"/>'
                      f'<geom size="0.01"/>' for k in range(depth))
    return f'<mujoco model="m"><worldbody>{opening}{"</body>" * depth}</worldbody></mujoco>'


def _nested_sdf(depth):
    """Models nested `depth` deep, each with one link."""
    inner = ""
    for k in reversed(range(depth)):
        inner = f'<model name="m{k}"><link name="l{k}"/>{inner}</model>'
    return f'<?xml version="1.0"?><sdf version="1.9">{inner}</sdf>'


def _deep_unknown(depth):
    """A link with an unknown element nested `depth` deep."""
    return _urdf(f'<link name="a">{"<junk>" * depth}{"</junk>" * depth}</link>')


def _include_chain(tmp, n):
    """main.xml includes inc0.xml, which includes inc1.xml, ... inc{n-1}.xml
    (the last holds a body)."""
    for k in range(n):
        body = (f'<include file="inc{k + 1}.xml"/>' if k + 1 < n else
                '<worldbody><body name="b"><geom size="0.1"/></body></worldbody>')
        _write(tmp, f"inc{k}.xml", f"<mujoco>{body}</mujoco>")
    return _write(tmp, "main.xml", '<mujoco model="m"><include file="inc0.xml"/></mujoco>')


def _parse_path(api, path):
    _, plant, _ = _fresh(api)
    api.Parser(plant).AddModels(path)
    return plant.num_bodies(), plant.num_joints()


def _sdf(body: str) -> str:
    return f'<?xml version="1.0"?><sdf version="1.9">{body}</sdf>'


SDF_LINK = ('<model name="m"><link name="a"><inertial><mass>1</mass></inertial>{}</link>'
            '</model>')


CASES.update({
    # --- meshes that are not meshes (collision role: read while parsing) ------------------
    "a collision mesh .obj that is a PNG image": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "png.urdf", _collision_mesh(
            _mesh_file(tmp, "image.obj", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)))),
    "a collision mesh .stl claiming 2**31 triangles": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "stl.urdf", _collision_mesh(
            _mesh_file(tmp, "liar.stl", b"\0" * 80 + (2 ** 31).to_bytes(4, "little") +
                       b"\0" * 50)))),
    "a collision mesh .obj with a face index out of range": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "idx.urdf", _collision_mesh(
            _mesh_file(tmp, "idx.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n")))),
    "a collision mesh .obj with a NaN vertex": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "nanv.urdf", _collision_mesh(
            _mesh_file(tmp, "nanv.obj", TETRA_OBJ.replace("v 1 0 0", "v nan 0 0"))))),
    "a collision mesh .obj of vertices only": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "pts.urdf", _collision_mesh(
            _mesh_file(tmp, "pts.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n")))),
    "an empty collision mesh .obj": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "empty.urdf", _collision_mesh(
            _mesh_file(tmp, "empty.obj", b"")))),
    "a collision mesh .dae that is an XML bomb": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "dae.urdf", _collision_mesh(
            _mesh_file(tmp, "bomb.dae", _billion_laughs().replace("robot", "COLLADA"))))),
    "a collision mesh .gltf whose buffer is /etc/passwd": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "gltf.urdf", _collision_mesh(
            _mesh_file(tmp, "m.gltf", '{"asset": {"version": "2.0"}, "buffers": [{"uri": '
                                      '"file:///etc/passwd", "byteLength": 36}], '
                                      '"bufferViews": [{"buffer": 0, "byteLength": 36}], '
                                      '"accessors": [{"bufferView": 0, "componentType": '
                                      '5126, "count": 3, "type": "VEC3"}], "meshes": '
                                      '[{"primitives": [{"attributes": {"POSITION": 0}}]}], '
                                      '"nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], '
                                      '"scene": 0}')))),
    "a collision mesh with scale 0": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "s0.urdf", _collision_mesh(
            _mesh_file(tmp, "t0.obj", TETRA_OBJ), scale="0 0 0"))),
    "a collision mesh with scale -1": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "sneg.urdf", _collision_mesh(
            _mesh_file(tmp, "tn.obj", TETRA_OBJ), scale="-1 1 1"))),
    "a declared-convex mesh of coplanar points": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "flat.urdf", _collision_mesh(
            _mesh_file(tmp, "flat.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\n"),
            convex=True))),
    "a collision mesh in an unknown format": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "fmt.urdf", _collision_mesh(
            _mesh_file(tmp, "m.xyz", TETRA_OBJ)))),
    # --- deep nesting -----------------------------------------------------------------------
    "MJCF bodies nested 1500 deep": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "deep.xml", _nested_mjcf(1500))),
    "MJCF bodies nested 480 deep": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "d480.xml", _nested_mjcf(480))),
    "SDFormat models nested 480 deep": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "deep.sdf", _nested_sdf(480))),
    "an unknown URDF element nested 5000 deep": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "junk.urdf",
                                                    _deep_unknown(5000))),
    "MJCF includes chained 60 deep": (
        "attacker", lambda api, r, tmp: _parse_path(api, _include_chain(tmp, 60))),
    # --- huge files ---------------------------------------------------------------------------
    "a URDF with 20 MB of comment": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "big.urdf", _urdf(
            "<!--" + "x" * 20_000_000 + "-->" + LINK))),
    "a URDF attribute of 5 MB": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "attr.urdf", _urdf(
            LINK.replace('ixy="0"', 'ixy="' + "0" * 5_000_000 + '"')))),
    "a URDF link with 500 collision spheres": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "many.urdf", _urdf(
            '<link name="a">' + '<collision><geometry><sphere radius="0.1"/></geometry>'
            '</collision>' * 500 + '</link>'))),
    # --- SDFormat -------------------------------------------------------------------------------
    "an SDFormat pose of nan": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "nan.sdf", _sdf(
            SDF_LINK.format("<pose>nan 0 0 0 0 0</pose>")))),
    "an SDFormat version 99": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "v99.sdf", _sdf(
            SDF_LINK.format("")).replace('version="1.9"', 'version="99"'))),
    "an SDFormat file without <sdf>": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "bare.sdf",
                                                    SDF_LINK.format(""))),
    "an SDFormat include of a FIFO": (
        "attacker", lambda api, r, tmp: (_special_file(tmp, "model.sdf", None), _parse_file(
            api, tmp, "main.sdf", _sdf('<world name="w"><include><uri>model.sdf</uri>'
                                       '</include></world>')))[1]),
    "an SDFormat mesh at an http:// URI": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "http.sdf", _sdf(
            SDF_LINK.format('<collision name="c"><geometry><mesh><uri>'
                            'http://127.0.0.1:9/m.obj</uri></mesh></geometry></collision>')))),
    "a URDF mesh escaping its package with ..": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "esc.urdf", _collision_mesh(
            "package://drake_models/../../../../../../etc/passwd"))),
    "an SDFormat inertial mass of -inf": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "minf.sdf", _sdf(
            SDF_LINK.replace("<mass>1</mass>", "<mass>-inf</mass>").format("")))),
    # --- found by tools/fuzz_models_against_drake.py (seeds 62, 99, 200, 549) -------------------
    "an SDFormat inertia moment of 1e400": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "ixx.sdf", _sdf(
            SDF_LINK.replace("<mass>1</mass>", "<mass>1</mass><inertia><ixx>1e400</ixx>"
                             "<iyy>1</iyy><izz>1</izz></inertia>").format("")))),
    "an SDFormat joint axis of 1e999": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "axis.sdf", _sdf(
            '<model name="m"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
            '<parent>a</parent><child>b</child><axis><xyz>1e999 0 0</xyz></axis></joint>'
            '</model>'))),
    "an SDFormat joint limit of inf": (
        "careless", lambda api, r, tmp: _parse_file(api, tmp, "lim.sdf", _sdf(
            '<model name="m"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
            '<parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz><limit><lower>-inf'
            '</lower><upper>inf</upper></limit></axis></joint></model>'))),
    "a URDF joint axis of 1e999": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "axis.urdf", _urdf(
            LINK + '<link name="b"/><joint name="j" type="revolute"><parent link="a"/>'
            '<child link="b"/><axis xyz="1e999 0 0"/></joint>'))),
    "a URDF mass of 1e-320 with an unphysical inertia": (
        "attacker", lambda api, r, tmp: _parse_file(api, tmp, "tiny.urdf", _urdf(
            LINK.replace('value="1"', 'value="1e-320"').replace('izz="1"', 'izz="5"')))),
    # --- the Parser as a careless user calls it -------------------------------------------------
    "PackageMap.AddPackageXml of a FIFO": (
        "attacker", lambda api, r, tmp: api.Parser(_fresh(api)[1]).package_map().AddPackageXml(
            _special_file(tmp, "package.xml", None))),
    "AddModels with None": (
        "careless", lambda api, r, tmp: api.Parser(_fresh(api)[1]).AddModels(None)),
    "AddModels with a pathlib.Path": (
        "careless", lambda api, r, tmp: len(api.Parser(_fresh(api)[1]).AddModels(
            pathlib.Path(_write(tmp, "path.urdf", _urdf(LINK)))))),
    "AddModelsFromString with bytes": (
        "careless", lambda api, r, tmp: len(api.Parser(_fresh(api)[1]).AddModelsFromString(
            _urdf(LINK).encode(), "urdf"))),
    "Parser of a SceneGraph": (
        "careless", lambda api, r, tmp: api.Parser(_fresh(api)[2]).AddModels(
            _write(tmp, "sg.urdf", _urdf(LINK)))),
    "a package folder that does not exist": (
        "careless", lambda api, r, tmp: api.Parser(_fresh(api)[1]).package_map().Add(
            "nowhere_pkg", str(tmp / "no_such_folder"))),
})


def _twice(api):
    _, plant, _ = _fresh(api)
    inertia = api.SpatialInertia.SolidSphereWithMass(1.0, 0.1)
    plant.AddRigidBody("x", inertia)
    return plant.AddRigidBody("x", inertia).name()


def _joint(api, make):
    _, plant, _ = _fresh(api)
    body = plant.AddRigidBody("b", api.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    joint = plant.AddJoint(make(plant, body))
    plant.Finalize()
    return joint.name(), plant.num_positions()


def _two_parents(api):
    _, plant, _ = _fresh(api)
    inertia = api.SpatialInertia.SolidSphereWithMass(1.0, 0.1)
    a, b = plant.AddRigidBody("a", inertia), plant.AddRigidBody("b", inertia)
    plant.AddJoint(api.RevoluteJoint("j1", plant.world_frame(), b.body_frame(), [0, 0, 1.0]))
    plant.AddJoint(api.RevoluteJoint("j2", a.body_frame(), b.body_frame(), [0, 0, 1.0]))
    plant.Finalize()
    return plant.num_positions()


def _empty_frame(api):
    _, plant, _ = _fresh(api)
    return plant.AddFrame(api.FixedOffsetFrame("", plant.world_frame(),
                                               api.RigidTransform())).name()


def _weld_world(api):
    _, plant, _ = _fresh(api)
    return plant.WeldFrames(plant.world_frame(), plant.world_frame()).name()


def _weld_nan(api):
    _, plant, _ = _fresh(api)
    body = plant.AddRigidBody("b", api.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    plant.WeldFrames(plant.world_frame(), body.body_frame(), api.RigidTransform([NAN, 0, 0]))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    return _pose(plant.EvalBodyPoseInWorld(context, body))


def _inertia(api, moments):
    return api.SpatialInertia.MakeFromCentralInertia(
        1.0, [0.0, 0.0, 0.0], api.RotationalInertia(*moments)).get_mass()


def _twice_file(api, tmp):
    _, plant, _ = _fresh(api)
    path = _write(tmp, "twice.urdf", _urdf(LINK))
    api.Parser(plant).AddModels(path)
    api.Parser(plant).AddModels(path)
    return plant.num_bodies()


def run_case(name: str, api, tmp) -> dict:
    """The outcome of CASES[name] in a fresh Rig and folder `tmp`."""
    _, call = CASES[name]
    tmp = pathlib.Path(tmp)
    tmp.mkdir(parents=True, exist_ok=True)
    try:
        value = call(api, _LazyRig(api), tmp)
    except Exception as error:  # noqa: BLE001 - the outcome is the point
        return {"outcome": "error", "type": type(error).__name__,
                "message": str(error)[:600]}
    return {"outcome": "ok", "value": _plain(value)}


class _LazyRig:
    """The Rig, built when a case first reads one of its attributes (most
    parser cases never do)."""

    def __init__(self, api):
        self._api, self._rig = api, None

    def __getattr__(self, name):
        if self.__dict__["_rig"] is None:
            self.__dict__["_rig"] = Rig(self.__dict__["_api"])
        return getattr(self.__dict__["_rig"], name)


def _plain(value):
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (np.floating, float)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, (np.integer, int, bool, np.bool_)):
        return int(value) if not isinstance(value, (bool, np.bool_)) else bool(value)
    return value if isinstance(value, (str, type(None))) else repr(value)
