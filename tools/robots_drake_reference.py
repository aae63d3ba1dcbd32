"""Records pydrake 1.51.1's MultibodyPlant answers on real robots from
example-robot-data into tests/reference_data/robots/ (one JSON file per robot
and index.json), for tests/scenegraph/multibody/parsing/test_urdf_reader_parity.py.

Run with the scratch virtualenv that holds pydrake, example-robot-data, trimesh
and pycollada (only tools/ scripts import pydrake; nothing in the library or the
tests depends on this script, they only read the JSON it wrote):

    /work/drake-venv/bin/python tools/robots_drake_reference.py [--robots panda,ur5,...]
        [--out tests/reference_data/robots]

For every robot: the URDF and the meshes it names are copied into a temporary
directory laid out as the package ``example-robot-data`` (pydrake 1.51 refuses
collision meshes that are not .obj/.vtk/.gltf), every .stl/.dae mesh converted
to .obj with trimesh (``trimesh.load(path, force="mesh")``: a DAE scene's node
transforms applied, the file's units kept; vertices and faces only, written
with repr() so that every coordinate round-trips exactly), and the URDF's
filenames rewritten to the copies. The robot is then loaded alone into a fresh
plant (continuous; discrete with SAP when pydrake refuses a ``mimic`` joint on a
continuous plant), and the script records its structure (model instances,
bodies, frames, joints, limits, position and velocity names, default
positions), its geometries and collision candidates, and for three seeded
configurations: body poses in world, spatial-velocity and translational
Jacobians, a relative transform, point positions, signed distances between
collision candidates, the centre of mass and the total mass. The file format is
described in tests/reference_data/robots/README.md.

Prints one line per robot: how it was loaded, nq, nv, geometries, collision
candidate pairs, distances recorded/refused and seconds; then the robots
pydrake could not load, with its message (also in index.json).
"""
from __future__ import annotations

import argparse
import importlib.metadata
import json
import logging
import math
import pathlib
import re
import shutil
import tempfile
import time
import zlib

import numpy as np
import trimesh
from pydrake.geometry import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, Sphere
from pydrake.multibody.parsing import Parser
from pydrake.multibody.plant import AddMultibodyPlantSceneGraph, DiscreteContactApproximation
from pydrake.multibody.tree import (BodyIndex, FrameIndex, JacobianWrtVariable,
                                    ModelInstanceIndex)
from pydrake.systems.framework import DiagramBuilder

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "reference_data" / "robots"
PACKAGE = "example-robot-data"
FORMAT_VERSION = 1

# key -> URDF path relative to <package root>/robots
ROBOTS = {
    "panda": "panda_description/urdf/panda.urdf",
    "ur5": "ur_description/urdf/ur5_robot.urdf",
    "kinova": "kinova_description/robots/kinova.urdf",
    "xarm7": "xarm_description/urdf/xarm7.urdf",
    "z1": "z1_description/urdf/z1.urdf",
    "so100": "so_arm_description/urdf/so100.urdf",
    "go2": "go2_description/urdf/go2.urdf",
    "solo12": "solo_description/robots/solo12.urdf",
    "tiago": "tiago_description/robots/tiago.urdf",
    "talos": "talos_data/robots/talos_reduced.urdf",
    "double_pendulum": "double_pendulum_description/urdf/double_pendulum.urdf",
    "allegro": "allegro_hand_description/urdf/allegro_right_hand.urdf",
    "g1": "g1_description/urdf/g1_29dof_rev_1_0.urdf",
    "romeo": "romeo_description/urdf/romeo_small.urdf",
}

NUM_CONFIGURATIONS = 3
MAX_JACOBIAN_BODIES = 6
MAX_DISTANCE_PAIRS = 400
P_BOBP_B = [0.1, -0.05, 0.02]                            # m, point Bp of the spatial Jacobians
P_BOBI_B = [[0.1, -0.03], [-0.05, 0.07], [0.02, 0.04]]   # m, (3, 2): columns are points Bi
P_BQI = [[0.05, -0.12], [0.3, 0.01], [-0.07, 0.2]]       # m, (3, 2): columns are points Qi
PRISMATIC_RANGE = 0.5                                    # m, sampled range of an unlimited slider
FLOATING_RANGE = 0.5                                     # m, sampled range of a free translation
PRIMITIVES = ("Box", "Sphere", "Cylinder", "Capsule", "Ellipsoid", "HalfSpace")
_MESH_FILE = re.compile(r'filename="(package:/{2,3}' + re.escape(PACKAGE) + r'/)([^"]+)"')


def package_root() -> pathlib.Path:
    """The folder that is the package ``example-robot-data`` (it has no package.xml)."""
    dist = importlib.metadata.distribution(PACKAGE)
    return pathlib.Path(dist.locate_file(f"cmeel.prefix/share/{PACKAGE}"))


def robot_seed(key: str) -> int:
    """The robot's seed for numpy's default_rng: CRC-32 of its key."""
    return zlib.crc32(key.encode())


# ---------------------------------------------------------------- OBJ copies

def write_obj(source: pathlib.Path, target: pathlib.Path) -> None:
    """Writes source (STL or DAE, read by trimesh as one mesh in the file's
    own units) to target as an OBJ with vertices and triangles only."""
    mesh = trimesh.load(str(source), force="mesh")
    lines = [f"v {x!r} {y!r} {z!r}" for x, y, z in np.asarray(mesh.vertices, dtype=float).tolist()]
    lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in np.asarray(mesh.faces).tolist()]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(lines) + "\n")


def make_obj_package(urdf_rel: str, source_root: pathlib.Path, work: pathlib.Path):
    """Copies the URDF and the meshes it names below `work` (a package root),
    STL/DAE converted to ``<file>.obj`` and the URDF's filenames rewritten.

    Returns (path of the copied URDF, {copy's basename: original basename}).
    """
    text = (source_root / "robots" / urdf_rel).read_text()
    renamed = {}

    def replace(match: re.Match) -> str:
        prefix, rel = match.group(1), match.group(2)
        source = source_root / rel
        if source.suffix.lower() in (".stl", ".dae"):
            target_rel = rel + ".obj"
            if not (work / target_rel).exists():
                write_obj(source, work / target_rel)
            renamed[pathlib.PurePosixPath(target_rel).name] = source.name
        else:
            target_rel = rel
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            if source.exists():
                shutil.copyfile(source, work / rel)
        return f'filename="{prefix}{target_rel}"'

    new_text = _MESH_FILE.sub(replace, text)
    urdf_path = work / "robots" / urdf_rel
    urdf_path.parent.mkdir(parents=True, exist_ok=True)
    urdf_path.write_text(new_text)
    return urdf_path, renamed


# ------------------------------------------------------------------ loading

def load(urdf_path: pathlib.Path, root: pathlib.Path):
    """(diagram, plant, scene_graph, how) for the robot alone in a fresh plant.

    Continuous (time_step 0) first; if pydrake refuses a mimic joint there, a
    discrete plant (time_step 0.001, SAP). Kinematics do not depend on it."""
    def build(time_step):
        builder = DiagramBuilder()
        plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
        if time_step > 0:
            plant.set_discrete_contact_approximation(DiscreteContactApproximation.kSap)
        parser = Parser(plant)
        parser.package_map().Add(PACKAGE, str(root))
        parser.AddModels(str(urdf_path))
        plant.Finalize()
        return builder.Build(), plant, scene_graph

    with DrakeWarnings() as warnings:
        try:
            diagram, plant, scene_graph = build(0.0)
            how = {"time_step": 0.0, "discrete_contact_approximation": None, "reason": None}
        except Exception as error:  # noqa: BLE001  pydrake raises RuntimeError/ValueError
            if "mimic" not in str(error).lower():
                raise
            warnings.clear()
            diagram, plant, scene_graph = build(0.001)
            how = {"time_step": 0.001, "discrete_contact_approximation": "kSap",
                   "reason": "continuous plant refused: " + message(error)}
    how["num_constraints"] = plant.num_constraints()
    how["parser_warnings"] = sorted(set(warnings))
    return diagram, plant, scene_graph, how


class DrakeWarnings(logging.Handler):
    """Collects the messages pydrake logs (its spdlog goes to the Python
    logger "drake") while active, temporary paths replaced, as a list."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(clean(record.getMessage()))

    def __enter__(self):
        logging.getLogger("drake").addHandler(self)
        return self.messages

    def __exit__(self, *exc):
        logging.getLogger("drake").removeHandler(self)


def clean(text: str) -> str:
    """pydrake's text with id numbers and the package's paths replaced."""
    text = re.sub(r"id \d+", "id <id>", text)
    text = re.sub(r"/\S*?robots_drake_reference_[^/]*/", "<package>/", text)
    return re.sub(r"/\S*cmeel\.prefix/share/" + re.escape(PACKAGE) + "/", "<package>/", text)


def message(error: Exception) -> str:
    """`Type: text` of a pydrake error, temporary paths and id numbers replaced."""
    return f"{type(error).__name__}: {clean(str(error))}"


def finite_or_null(value):
    """`value` with every NaN float (e.g. the world body's mass) replaced by None."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, list):
        return [finite_or_null(v) for v in value]
    if isinstance(value, dict):
        return {k: finite_or_null(v) for k, v in value.items()}
    return value


# ---------------------------------------------------------------- recording

def limit(x: float):
    """A limit for JSON: finite as is, infinite as "inf" / "-inf"."""
    x = float(x)
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def matrix(X) -> list:
    return np.asarray(X, dtype=float).tolist()


def structure(plant) -> dict:
    """Model instances, bodies, frames, joints (index order) and the plant's sizes."""
    instances = [plant.GetModelInstanceName(ModelInstanceIndex(i))
                 for i in range(plant.num_model_instances())]
    bodies = []
    for i in range(plant.num_bodies()):
        body = plant.get_body(BodyIndex(i))
        bodies.append({"name": body.name(), "model_instance": int(body.model_instance()),
                       "is_floating_base_body": bool(body.is_floating_base_body()),
                       "mass": float(body.default_mass()),
                       "p_BoBcm_B": matrix(body.default_com())})
    frames = []
    for i in range(plant.num_frames()):
        frame = plant.get_frame(FrameIndex(i))
        frames.append({"name": frame.name(), "body": frame.body().name(),
                       "model_instance": int(frame.model_instance()),
                       "is_ephemeral": bool(frame.is_ephemeral()),
                       "X_BF": matrix(frame.GetFixedPoseInBodyFrame().GetAsMatrix4())})
    joints = []
    for index in plant.GetJointIndices():
        joint = plant.get_joint(index)
        joints.append({
            "name": joint.name(), "type_name": joint.type_name(),
            "model_instance": int(joint.model_instance()),
            "parent_body": joint.parent_body().name(), "child_body": joint.child_body().name(),
            "frame_on_parent": joint.frame_on_parent().name(),
            "frame_on_child": joint.frame_on_child().name(),
            "position_start": joint.position_start(), "num_positions": joint.num_positions(),
            "velocity_start": joint.velocity_start(), "num_velocities": joint.num_velocities(),
            "position_lower_limits": [limit(x) for x in joint.position_lower_limits()],
            "position_upper_limits": [limit(x) for x in joint.position_upper_limits()],
            "velocity_lower_limits": [limit(x) for x in joint.velocity_lower_limits()],
            "velocity_upper_limits": [limit(x) for x in joint.velocity_upper_limits()],
            "is_ephemeral": bool(joint.is_ephemeral()),
        })
    return {
        "model_instances": instances, "bodies": bodies, "frames": frames, "joints": joints,
        "num_positions": plant.num_positions(), "num_velocities": plant.num_velocities(),
        "position_names": list(plant.GetPositionNames()),
        "velocity_names": list(plant.GetVelocityNames()),
        "default_positions": matrix(plant.GetDefaultPositions()),
    }


def shape_record(shape, renamed: dict) -> dict:
    """Shape type and parameters in Drake's names (m)."""
    kind = type(shape).__name__
    record = {"type": kind}
    if isinstance(shape, Box):
        record.update(width=shape.width(), depth=shape.depth(), height=shape.height())
    elif isinstance(shape, Sphere):
        record.update(radius=shape.radius())
    elif isinstance(shape, (Cylinder, Capsule)):
        record.update(radius=shape.radius(), length=shape.length())
    elif isinstance(shape, Ellipsoid):
        record.update(a=shape.a(), b=shape.b(), c=shape.c())
    elif isinstance(shape, (Mesh, Convex)):
        drake_name = pathlib.PurePath(shape.source().path()).name
        record.update(filename=renamed.get(drake_name, drake_name), drake_filename=drake_name,
                      scale3=matrix(shape.scale3()))
    elif not isinstance(shape, HalfSpace):
        raise TypeError(f"unexpected shape {kind}")
    return record


def geometries(plant, scene_graph, renamed: dict):
    """Every geometry (in id order, i.e. registration order) and the collision
    candidates; and {GeometryId: key} for the proximity geometries.

    A proximity geometry's key is [body name, its index in
    plant.GetCollisionGeometriesForBody(body)]: pydrake's geometry names are
    only unique per frame and role, so names alone do not identify a geometry."""
    inspector = scene_graph.model_inspector()
    ids = sorted(inspector.GetAllGeometryIds(), key=lambda g: g.get_value())
    names = [inspector.GetName(g) for g in ids]
    key_of, visual_index = {}, {}
    for i in range(plant.num_bodies()):
        body = plant.get_body(BodyIndex(i))
        for n, g in enumerate(plant.GetCollisionGeometriesForBody(body)):
            key_of[g] = [body.name(), n]
        for n, g in enumerate(plant.GetVisualGeometriesForBody(body)):
            visual_index[g] = n
    records = []
    for g, name in zip(ids, names):
        frame_id = inspector.GetFrameId(g)
        roles = [role for role, props in (("proximity", inspector.GetProximityProperties(g)),
                                          ("illustration", inspector.GetIllustrationProperties(g)),
                                          ("perception", inspector.GetPerceptionProperties(g)))
                 if props is not None]
        records.append({
            "name": name, "frame": inspector.GetName(frame_id),
            "body": plant.GetBodyFromFrameId(frame_id).name(), "roles": roles,
            "collision_index": key_of[g][1] if g in key_of else None,
            "visual_index": visual_index.get(g),
            "shape": shape_record(inspector.GetShape(g), renamed),
            "X_FG": matrix(inspector.GetPoseInFrame(g).GetAsMatrix4())})
    candidates = [sorted([key_of[a], key_of[b]]) for a, b in inspector.GetCollisionCandidates()]
    candidates.sort()
    name_of = dict(zip(ids, names))
    return {"geometry_names_unique": len(set(names)) == len(names),
            "proximity_names_unique": len({name_of[g] for g in key_of}) == len(key_of),
            "geometries": records,
            "collision_candidates": candidates,
            "collision_candidate_names": sorted(
                sorted([name_of[a], name_of[b]]) for a, b in inspector.GetCollisionCandidates()),
            }, key_of


def sample_configuration(plant, rng) -> np.ndarray:
    """q in Drake's order: revolute/prismatic uniform within limits (within
    [-pi, pi] rad / [-0.5, 0.5] m where a limit is infinite); a quaternion
    floating joint a uniformly random unit quaternion (w, x, y, z) and a
    translation in [-0.5, 0.5]^3 m."""
    q = plant.GetDefaultPositions().copy()
    for index in plant.GetJointIndices():
        joint = plant.get_joint(index)
        start, n = joint.position_start(), joint.num_positions()
        kind = joint.type_name()
        if n == 0:
            continue
        if kind == "quaternion_floating":
            quat = rng.normal(size=4)
            q[start:start + 4] = quat / np.linalg.norm(quat)
            q[start + 4:start + 7] = rng.uniform(-FLOATING_RANGE, FLOATING_RANGE, size=3)
            continue
        if kind not in ("revolute", "prismatic"):
            raise ValueError(f"no sampling rule for joint {joint.name()} of type {kind}")
        default = math.pi if kind == "revolute" else PRISMATIC_RANGE
        lo, hi = float(joint.position_lower_limits()[0]), float(joint.position_upper_limits()[0])
        lo = lo if math.isfinite(lo) else -default
        hi = hi if math.isfinite(hi) else default
        q[start] = rng.uniform(lo, hi)
    return q


def tree_of(plant) -> dict:
    """child body name -> parent body name, over all joints."""
    return {plant.get_joint(i).child_body().name(): plant.get_joint(i).parent_body().name()
            for i in plant.GetJointIndices()}


def jacobian_bodies(plant) -> list:
    """Up to 6 body names: one body on each floating base first (its deepest
    leaf), then the leaf bodies of the tree, then the other bodies; within each
    group the bodies with the most velocities between them and the world first
    (ties by body index). World excluded."""
    parent = tree_of(plant)
    joint_nv = {plant.get_joint(i).child_body().name(): plant.get_joint(i).num_velocities()
                for i in plant.GetJointIndices()}
    names = [plant.get_body(BodyIndex(i)).name() for i in range(1, plant.num_bodies())]
    has_child = set(parent.values())

    def chain(name):
        out = []
        while name in parent:
            out.append(name)
            name = parent[name]
        return out

    depth = {n: sum(joint_nv.get(b, 0) for b in chain(n)) for n in names}
    order = {n: i for i, n in enumerate(names)}
    rank = sorted(names, key=lambda n: (n in has_child, -depth[n], order[n]))
    chosen = []
    floating = [plant.get_body(BodyIndex(i)).name() for i in range(1, plant.num_bodies())
                if plant.get_body(BodyIndex(i)).is_floating_base_body()]
    for base in floating:
        on_base = [n for n in rank if base in chain(n)]
        if on_base and on_base[0] not in chosen:
            chosen.append(on_base[0])
    for n in rank:
        if len(chosen) >= MAX_JACOBIAN_BODIES:
            break
        if n not in chosen:
            chosen.append(n)
    return chosen


def query_frames(plant, bodies: list) -> dict:
    """The frames of the kQDot Jacobian, the relative transform and the point
    positions, by name: bodies' frames and joints' "<joint>_parent" frames
    (never an ephemeral one). Raises if frame names are not unique."""
    frames = [plant.get_frame(FrameIndex(i)) for i in range(plant.num_frames())]
    names = [f.name() for f in frames]
    if len(set(names)) != len(names):
        raise ValueError("frame names are not unique; the queries could not name frames")
    offset = [f.name() for f in frames if not f.is_body_frame() and not f.is_ephemeral()]
    second = bodies[1] if len(bodies) > 1 else "world"
    third = bodies[2] if len(bodies) > 2 else "world"
    return {
        "jacobian_translational_qdot": {"frame_B": bodies[0], "frame_A": second,
                                        "frame_E": third},
        "relative_transform": {"frame_A": second,
                               "frame_B": offset[len(offset) // 2] if offset else bodies[0]},
        "points_positions": {"frame_B": bodies[0], "frame_A": offset[0] if offset else second},
    }


def distance_pairs(geometry: dict, kind: dict, seed: int) -> list:
    """The candidate pairs (keys) whose signed distance is recorded: all if at
    most 400; else every primitive-primitive pair first, then a seeded choice
    of the others, 400 in all (sorted). `kind`: key tuple -> shape type."""
    pairs = geometry["collision_candidates"]
    if len(pairs) <= MAX_DISTANCE_PAIRS:
        return pairs

    def is_primitive(pair):
        return all(kind[tuple(k)] in PRIMITIVES for k in pair)

    primitive = [p for p in pairs if is_primitive(p)]
    rest = [p for p in pairs if not is_primitive(p)]
    rng = np.random.default_rng([seed, 1])
    if len(primitive) >= MAX_DISTANCE_PAIRS:
        pick = rng.choice(len(primitive), MAX_DISTANCE_PAIRS, replace=False)
        return sorted(primitive[i] for i in pick)
    pick = rng.choice(len(rest), MAX_DISTANCE_PAIRS - len(primitive), replace=False)
    return sorted(primitive + [rest[i] for i in pick])


def configuration_record(diagram, plant, scene_graph, q, queries, pairs, id_of) -> dict:
    """Everything recorded at one configuration q."""
    context = diagram.CreateDefaultContext()
    plant_context = plant.GetMyMutableContextFromRoot(context)
    plant.SetPositions(plant_context, q)
    world = plant.world_frame()
    frame = plant.GetFrameByName
    record = {
        "q": matrix(q),
        "q_by_name": dict(zip(plant.GetPositionNames(), matrix(q))),
        "X_WB": {plant.get_body(BodyIndex(i)).name():
                 matrix(plant.EvalBodyPoseInWorld(plant_context,
                                                  plant.get_body(BodyIndex(i))).GetAsMatrix4())
                 for i in range(plant.num_bodies())},
    }
    record["J_V_WBp_W"] = {
        name: matrix(plant.CalcJacobianSpatialVelocity(
            plant_context, JacobianWrtVariable.kV, plant.GetBodyByName(name).body_frame(),
            np.array(P_BOBP_B), world, world))
        for name in queries["jacobian_bodies"]}
    jq = queries["jacobian_translational_qdot"]
    record["Js_v_ABi_E"] = matrix(plant.CalcJacobianTranslationalVelocity(
        plant_context, JacobianWrtVariable.kQDot, frame(jq["frame_B"]), np.array(P_BOBI_B),
        frame(jq["frame_A"]), frame(jq["frame_E"])))
    rt = queries["relative_transform"]
    record["X_AB"] = matrix(plant.CalcRelativeTransform(
        plant_context, frame(rt["frame_A"]), frame(rt["frame_B"])).GetAsMatrix4())
    pp = queries["points_positions"]
    record["p_AQi"] = matrix(plant.CalcPointsPositions(
        plant_context, frame(pp["frame_B"]), np.array(P_BQI), frame(pp["frame_A"])))
    query_object = scene_graph.get_query_output_port().Eval(
        scene_graph.GetMyContextFromRoot(context))
    distances = []
    for a, b in pairs:
        try:
            distances.append(float(query_object.ComputeSignedDistancePairClosestPoints(
                id_of[tuple(a)], id_of[tuple(b)]).distance))
        except Exception as error:  # noqa: BLE001  pydrake refuses some shape pairs
            distances.append({"throws": message(error)})
    record["signed_distances"] = distances
    record["p_WScm"] = matrix(plant.CalcCenterOfMassPositionInWorld(plant_context))
    record["total_mass"] = float(plant.CalcTotalMass(plant_context))
    return record


def record_robot(key: str, urdf_rel: str, source_root: pathlib.Path) -> tuple[dict, str]:
    """(the robot's JSON record, its one-line summary)."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="robots_drake_reference_") as tmp:
        work = pathlib.Path(tmp)
        urdf_path, renamed = make_obj_package(urdf_rel, source_root, work)
        diagram, plant, scene_graph, how = load(urdf_path, work)
        data = {"category": "robots", "format_version": FORMAT_VERSION,
                "pydrake_version": importlib.metadata.version("drake"),
                "example_robot_data_version": importlib.metadata.version(PACKAGE),
                "robot": key, "urdf": urdf_rel, "plant": how}
        data.update(structure(plant))
        geometry, key_of = geometries(plant, scene_graph, renamed)
        data.update(geometry)
        seed = robot_seed(key)
        rng = np.random.default_rng(seed)
        bodies = jacobian_bodies(plant)
        queries = {"jacobian_bodies": bodies, "p_BoBp_B": P_BOBP_B, "p_BoBi_B": P_BOBI_B,
                   "p_BQi": P_BQI}
        queries.update(query_frames(plant, bodies))
        id_of = {tuple(k): g for g, k in key_of.items()}
        inspector = scene_graph.model_inspector()
        kind = {k: type(inspector.GetShape(g)).__name__ for k, g in id_of.items()}
        pairs = distance_pairs(geometry, kind, seed)
        data["seed"] = seed
        data["queries"] = queries
        data["distance_pairs"] = {
            "selection": "all" if len(pairs) == len(geometry["collision_candidates"])
            else "seeded subset",
            "pairs": [{"A": a, "B": b,
                       "name_A": inspector.GetName(id_of[tuple(a)]),
                       "name_B": inspector.GetName(id_of[tuple(b)]),
                       "shape_A": kind[tuple(a)], "shape_B": kind[tuple(b)]} for a, b in pairs]}
        data["configurations"] = [
            configuration_record(diagram, plant, scene_graph,
                                 sample_configuration(plant, rng), queries, pairs, id_of)
            for _ in range(NUM_CONFIGURATIONS)]
    refused = sum(isinstance(d, dict) for c in data["configurations"]
                  for d in c["signed_distances"])
    total = len(pairs) * NUM_CONFIGURATIONS
    loaded = ("continuous" if how["time_step"] == 0 else "discrete (mimic)")
    line = (f"{key:16s} {loaded:17s} nq={plant.num_positions():3d} nv={plant.num_velocities():3d} "
            f"geometries={len(geometry['geometries']):4d} "
            f"candidates={len(geometry['collision_candidates']):5d} "
            f"distances={total - refused}/{refused} refused "
            f"{time.perf_counter() - start:6.1f} s")
    return data, line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--robots", default=",".join(ROBOTS),
                        help="comma-separated keys (default: all): " + ",".join(ROBOTS))
    parser.add_argument("--out", type=pathlib.Path, default=OUT)
    args = parser.parse_args()
    keys = [k for k in args.robots.split(",") if k]
    unknown = [k for k in keys if k not in ROBOTS]
    if unknown:
        parser.error(f"unknown robots {unknown}; known: {list(ROBOTS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    index_path = args.out / "index.json"
    index = (json.loads(index_path.read_text()) if index_path.exists()
             else {"category": "robots", "format_version": FORMAT_VERSION, "robots": {}})
    source_root = package_root()
    for key in keys:
        try:
            data, line = record_robot(key, ROBOTS[key], source_root)
        except Exception as error:  # noqa: BLE001  recorded, then the next robot
            text = message(error)
            index["robots"][key] = {"urdf": ROBOTS[key], "loaded": False, "error": text,
                                    "names_in_error": re.findall(r"'([^']+)'", text)}
            print(f"{key:16s} REFUSED: {text}", flush=True)
            (args.out / f"{key}.json").unlink(missing_ok=True)
            continue
        text = json.dumps(finite_or_null(data), separators=(",", ":"), allow_nan=False)
        (args.out / f"{key}.json").write_text(text + "\n")
        index["robots"][key] = {
            "urdf": ROBOTS[key], "loaded": True, "file": f"{key}.json",
            "time_step": data["plant"]["time_step"], "reason": data["plant"]["reason"]}
        print(line, flush=True)
    index["pydrake_version"] = importlib.metadata.version("drake")
    index["example_robot_data_version"] = importlib.metadata.version(PACKAGE)
    index["robots"] = {k: index["robots"][k] for k in ROBOTS if k in index["robots"]}
    index_path.write_text(json.dumps(index, indent=1) + "\n")
    refused = {k: v["error"] for k, v in index["robots"].items() if not v["loaded"]}
    print("refused by pydrake:" if refused else "refused by pydrake: none")
    for k, text in refused.items():
        print(f"  {k}: {text}")


if __name__ == "__main__":
    main()
