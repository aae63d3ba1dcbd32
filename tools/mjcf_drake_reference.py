"""Records pydrake 1.51.1's answers on MJCF models (dm_control's suite and the
project's own small models) into tests/reference_data/mjcf/, for
tests/scenegraph/multibody/parsing/test_mjcf_reader_parity.py.

Run with the scratch virtualenv that holds pydrake and trimesh (only tools/
scripts import pydrake):

    /work/drake-venv/bin/python tools/mjcf_drake_reference.py [--models a,b] [--suite DIR]

``--suite`` is dm_control's suite folder (default: found in the project's
.venv, where the [test] extra installs dm-control). Each model is loaded
alone into a fresh continuous plant. pydrake's MJCF parser reads only OBJ
meshes: a model naming STL meshes (the dog) is copied to a temporary folder
with each STL written as OBJ by trimesh (vertices and triangles, repr()
digits) and the XML's file names rewritten.

Recorded per model (format_version 1): model instances, bodies, frames (not
ephemeral), joints, num_positions/num_velocities, position names, default
positions, geometries (name, body, roles, shape, X_FG), collision candidates
as [body, geometry name] pairs; and at three seeded configurations q: every
body's X_WB, and for every collision candidate pair the signed distance
(ComputeSignedDistancePairClosestPoints) or {"throws": message} where
pydrake refuses the pair (a HalfSpace against anything but a Sphere). The
MuJoCo side (tools/mjcf_mujoco_reference.py) adds MuJoCo's own poses and
collision filters for the same configurations.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import json
import logging
import math
import pathlib
import re
import tempfile
import time
import zlib

import numpy as np
import trimesh
from pydrake.geometry import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, Sphere
from pydrake.math import RollPitchYaw
from pydrake.multibody.parsing import Parser
from pydrake.multibody.plant import AddMultibodyPlantSceneGraph
from pydrake.multibody.tree import BodyIndex, FrameIndex, ModelInstanceIndex
from pydrake.systems.framework import DiagramBuilder

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "reference_data" / "mjcf"
OWN = ROOT / "tests" / "scenegraph" / "multibody" / "models" / "mjcf"
FORMAT_VERSION = 1
NUM_CONFIGURATIONS = 3
PRISMATIC_RANGE = 0.5     # m, sampled range of an unlimited slide
FLOATING_RANGE = 0.5      # m, sampled range of a free body's translation about its default
BALL_RANGE = 1.0          # rad, sampled range of each roll-pitch-yaw angle of a ball joint
SUITE_MODELS = ("acrobot", "ball_in_cup", "cartpole", "cheetah", "dog", "finger", "fish",
                "hopper", "humanoid", "humanoid_CMU", "lqr", "manipulator", "pendulum",
                "point_mass", "quadruped", "reacher", "stacker", "swimmer", "walker")


def default_suite() -> pathlib.Path:
    found = sorted((ROOT / ".venv" / "lib").glob("python3*/site-packages/dm_control/suite"))
    if not found:
        raise SystemExit("dm_control's suite not found in .venv; pass --suite")
    return found[0]


def model_seed(key: str) -> int:
    """numpy default_rng seed of a model: CRC-32 of its key."""
    return zlib.crc32(key.encode())


def obj_copy(xml: pathlib.Path, work: pathlib.Path) -> pathlib.Path:
    """The model copied into `work` with its STL meshes as OBJ files (module
    docstring); includes copied as they are. Returns the copy's path."""
    text = xml.read_text()
    meshdir = re.search(r'meshdir="([^"]*)"', text)
    mesh_root = xml.parent / (meshdir.group(1) if meshdir else "")

    def convert(match):
        name = match.group(1)
        source = mesh_root / name
        target = work / "meshes" / (name + ".obj")
        if not target.exists():
            mesh = trimesh.load(str(source), force="mesh", process=False)
            lines = [f"v {x!r} {y!r} {z!r}" for x, y, z in np.asarray(mesh.vertices).tolist()]
            lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in np.asarray(mesh.faces).tolist()]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("\n".join(lines) + "\n")
        return f'file="{name}.obj"'

    text = re.sub(r'file="([^"]+\.stl)"', convert, text)
    for name in re.findall(r'file="([^"]+\.obj)"', text):
        if not (work / "meshes" / name).exists() and (mesh_root / name).exists():
            (work / "meshes").mkdir(exist_ok=True)
            (work / "meshes" / name).write_bytes((mesh_root / name).read_bytes())
    text = re.sub(r'meshdir="[^"]*"', 'meshdir="meshes/"', text)
    for include in re.findall(r'<include file="([^"]+)"', text):
        target = work / include
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((xml.parent / include).read_text())
    copy = work / xml.name
    copy.write_text(text)
    return copy


class DrakeWarnings(logging.Handler):
    """Collects pydrake's log messages while active."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())

    def __enter__(self):
        logging.getLogger("drake").addHandler(self)
        return self.messages

    def __exit__(self, *exc):
        logging.getLogger("drake").removeHandler(self)


def limit(x: float):
    x = float(x)
    return ("inf" if x > 0 else "-inf") if math.isinf(x) else x


def matrix(X) -> list:
    return np.asarray(X, dtype=float).tolist()


def shape_record(shape) -> dict:
    record = {"type": type(shape).__name__}
    if isinstance(shape, Box):
        record.update(width=shape.width(), depth=shape.depth(), height=shape.height())
    elif isinstance(shape, Sphere):
        record.update(radius=shape.radius())
    elif isinstance(shape, (Cylinder, Capsule)):
        record.update(radius=shape.radius(), length=shape.length())
    elif isinstance(shape, Ellipsoid):
        record.update(a=shape.a(), b=shape.b(), c=shape.c())
    elif isinstance(shape, (Mesh, Convex)):
        name = pathlib.PurePath(shape.source().path()).name
        record.update(filename=name[:-4] if name.endswith(".stl.obj") else name,
                      scale3=matrix(shape.scale3()))
    elif not isinstance(shape, HalfSpace):
        raise TypeError(type(shape).__name__)
    return record


def structure(plant) -> dict:
    bodies = [plant.get_body(BodyIndex(i)) for i in range(plant.num_bodies())]
    frames = [plant.get_frame(FrameIndex(i)) for i in range(plant.num_frames())]
    joints = [plant.get_joint(i) for i in plant.GetJointIndices()]
    return {
        "model_instances": [plant.GetModelInstanceName(ModelInstanceIndex(i))
                            for i in range(plant.num_model_instances())],
        "bodies": [{"name": b.name(), "model_instance": int(b.model_instance()),
                    "is_floating_base_body": bool(b.is_floating_base_body()),
                    "mass": None if math.isnan(b.default_mass()) else b.default_mass()}
                   for b in bodies],
        "frames": [{"name": f.name(), "body": f.body().name(),
                    "model_instance": int(f.model_instance()),
                    "X_BF": matrix(f.GetFixedPoseInBodyFrame().GetAsMatrix4())}
                   for f in frames if not f.is_ephemeral()],
        "joints": [{"name": j.name(), "type_name": j.type_name(),
                    "parent_body": j.parent_body().name(), "child_body": j.child_body().name(),
                    "frame_on_parent": j.frame_on_parent().name(),
                    "frame_on_child": j.frame_on_child().name(),
                    "position_start": j.position_start(), "num_positions": j.num_positions(),
                    "velocity_start": j.velocity_start(), "num_velocities": j.num_velocities(),
                    "position_lower_limits": [limit(x) for x in j.position_lower_limits()],
                    "position_upper_limits": [limit(x) for x in j.position_upper_limits()],
                    "default_positions": matrix(j.default_positions()),
                    "is_ephemeral": bool(j.is_ephemeral())}
                   for j in joints],
        "num_positions": plant.num_positions(), "num_velocities": plant.num_velocities(),
        "position_names": list(plant.GetPositionNames()),
        "default_positions": matrix(plant.GetDefaultPositions()),
    }


def geometries(plant, scene_graph):
    """Geometry records (registration order) and candidates as
    [[body, name], [body, name]] sorted; {GeometryId: [body, bare name]}."""
    inspector = scene_graph.model_inspector()
    ids = sorted(inspector.GetAllGeometryIds(), key=lambda g: g.get_value())
    key_of, records = {}, []
    for g in ids:
        body = plant.GetBodyFromFrameId(inspector.GetFrameId(g)).name()
        name = inspector.GetName(g)
        roles = [role for role, props in (("proximity", inspector.GetProximityProperties(g)),
                                          ("illustration", inspector.GetIllustrationProperties(g)),
                                          ("perception", inspector.GetPerceptionProperties(g)))
                 if props is not None]
        if "proximity" in roles:
            key_of[g] = [body, name.split("::")[-1]]
        records.append({"name": name, "body": body, "roles": roles,
                        "shape": shape_record(inspector.GetShape(g)),
                        "X_FG": matrix(inspector.GetPoseInFrame(g).GetAsMatrix4())})
    candidates = sorted(sorted([key_of[a], key_of[b]]) for a, b in
                        inspector.GetCollisionCandidates())
    return records, candidates, key_of


def sample_configuration(plant, rng) -> np.ndarray:
    """Revolute/prismatic uniform within limits (±π rad / ±0.5 m where
    unlimited); ball (roll-pitch-yaw) each angle in ±1 rad; a quaternion
    floating joint a random unit quaternion and its default translation ±0.5 m."""
    q = plant.GetDefaultPositions().copy()
    for index in plant.GetJointIndices():
        joint = plant.get_joint(index)
        start, n, kind = joint.position_start(), joint.num_positions(), joint.type_name()
        if n == 0:
            continue
        if kind == "quaternion_floating":
            quat = rng.normal(size=4)
            q[start:start + 4] = quat / np.linalg.norm(quat)
            q[start + 4:start + 7] += rng.uniform(-FLOATING_RANGE, FLOATING_RANGE, size=3)
        elif kind == "ball_rpy":
            q[start:start + 3] = rng.uniform(-BALL_RANGE, BALL_RANGE, size=3)
        elif kind in ("revolute", "prismatic"):
            default = math.pi if kind == "revolute" else PRISMATIC_RANGE
            lo, hi = joint.position_lower_limits()[0], joint.position_upper_limits()[0]
            q[start] = rng.uniform(lo if math.isfinite(lo) else -default,
                                   hi if math.isfinite(hi) else default)
        else:
            raise ValueError(f"no sampling rule for joint {joint.name()} ({kind})")
    return q


def configuration(diagram, plant, scene_graph, q, candidates, id_of) -> dict:
    context = diagram.CreateDefaultContext()
    plant_context = plant.GetMyMutableContextFromRoot(context)
    plant.SetPositions(plant_context, q)
    record = {"q": matrix(q),
              "X_WB": {plant.get_body(BodyIndex(i)).name(): matrix(plant.EvalBodyPoseInWorld(
                  plant_context, plant.get_body(BodyIndex(i))).GetAsMatrix4())
                  for i in range(plant.num_bodies())}}
    query = scene_graph.get_query_output_port().Eval(scene_graph.GetMyContextFromRoot(context))
    distances = []
    for a, b in candidates:
        try:
            distances.append(float(query.ComputeSignedDistancePairClosestPoints(
                id_of[tuple(a)], id_of[tuple(b)]).distance))
        except Exception as error:  # noqa: BLE001  pydrake refuses some shape pairs
            distances.append({"throws": f"{type(error).__name__}: {error}"[:300]})
    record["signed_distances"] = distances
    return record


def record_model(key: str, xml: pathlib.Path, source: str):
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mjcf_drake_reference_") as tmp:
        path = obj_copy(xml, pathlib.Path(tmp)) if ".stl" in xml.read_text().lower() else xml
        with DrakeWarnings() as messages:
            builder = DiagramBuilder()
            plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
            Parser(plant).AddModels(str(path))
            plant.Finalize()
            diagram = builder.Build()
        data = {"category": "mjcf", "format_version": FORMAT_VERSION,
                "pydrake_version": importlib.metadata.version("drake"), "model": key,
                "source": source, "file": xml.name, "loaded_from_obj_copies": path != xml,
                "num_parser_warnings": len(messages)}
        data.update(structure(plant))
        records, candidates, key_of = geometries(plant, scene_graph)
        data["geometries"], data["collision_candidates"] = records, candidates
        id_of = {tuple(k): g for g, k in key_of.items()}
        rng = np.random.default_rng(model_seed(key))
        data["seed"] = model_seed(key)
        data["configurations"] = [
            configuration(diagram, plant, scene_graph, sample_configuration(plant, rng),
                          candidates, id_of) for _ in range(NUM_CONFIGURATIONS)]
    refused = sum(isinstance(v, dict) for c in data["configurations"]
                  for v in c["signed_distances"])
    line = (f"{key:14s} nq={plant.num_positions():3d} bodies={plant.num_bodies():3d} "
            f"candidates={len(candidates):5d} distances refused={refused:5d}/"
            f"{len(candidates) * NUM_CONFIGURATIONS} {time.perf_counter() - start:5.1f} s")
    return data, line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", type=pathlib.Path, default=None)
    parser.add_argument("--models", default="", help="comma-separated keys (default: all)")
    parser.add_argument("--out", type=pathlib.Path, default=OUT)
    args = parser.parse_args()
    suite = args.suite or default_suite()
    models = {name: (suite / f"{name}.xml", "dm_control suite") for name in SUITE_MODELS}
    for xml in sorted(OWN.glob("*.xml")):
        if "<worldbody" in xml.read_text():
            models[f"own_{xml.stem}"] = (xml, "tests/scenegraph/multibody/models/mjcf")
    keys = [k for k in args.models.split(",") if k] or list(models)
    args.out.mkdir(parents=True, exist_ok=True)
    index_path = args.out / "index.json"
    index = json.loads(index_path.read_text()) if index_path.exists() else {
        "category": "mjcf", "format_version": FORMAT_VERSION, "models": {}}
    for key in keys:
        xml, source = models[key]
        try:
            data, line = record_model(key, xml, source)
        except Exception as error:  # noqa: BLE001
            index["models"][key] = {"file": xml.name, "source": source,
                                    "refused": f"{type(error).__name__}: {error}"[:500]}
            print(f"{key:14s} refused by pydrake: {error}"[:300])
            continue
        (args.out / f"{key}.json").write_text(json.dumps(data, separators=(",", ":")))
        index["models"][key] = {"file": xml.name, "source": source, "refused": None}
        print(line)
    index["pydrake_version"] = importlib.metadata.version("drake")
    index_path.write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
