"""Records pydrake 1.51.1's answers on SDFormat models (the project's own
small models and Drake's example SDFs) into tests/reference_data/sdf/, for
tests/scenegraph/multibody/parsing/test_sdf_reader_parity.py.

Run with the scratch virtualenv that holds pydrake (only tools/ scripts
import pydrake):

    /work/drake-venv/bin/python tools/sdf_drake_reference.py [--models a,b]

Models: every *.sdf of tests/scenegraph/multibody/models/sdf (key
"own_<stem>") and of its drake/ folder (copies of the SDFs pydrake ships in
share/drake/examples; key "drake_<stem>"). Each is loaded alone into a fresh
continuous plant with the packages of ``PACKAGES`` in the parser's package map
and the working directory set to the model's folder (libsdformat resolves a
relative <include> URI against the working directory; this library against
the including file's folder — the same folder here).

Recorded per model (format_version 1), with tools/mjcf_drake_reference.py's
helpers: model instances, bodies, frames, joints, num_positions /
num_velocities, position names, default positions, geometries (name, body,
roles, shape, X_FG), collision candidates as [body, geometry name] pairs, the
joint actuators (name, joint, effort limit); and at three seeded
configurations q: every body's X_WB and every candidate pair's signed
distance (or {"throws": message} where pydrake refuses the pair).
"""
from __future__ import annotations

import argparse
import importlib.metadata
import json
import math
import os
import pathlib
import sys
import time

import numpy as np
from pydrake.multibody.parsing import Parser
from pydrake.multibody.plant import AddMultibodyPlantSceneGraph
from pydrake.systems.framework import DiagramBuilder

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from mjcf_drake_reference import (DrakeWarnings, configuration, geometries,  # noqa: E402
                                  model_seed, sample_configuration, structure)

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "reference_data" / "sdf"
MODELS = ROOT / "tests" / "scenegraph" / "multibody" / "models" / "sdf"
FORMAT_VERSION = 1
NUM_CONFIGURATIONS = 3
# package name -> folder relative to MODELS (also in tests/.../sdf_data.py)
PACKAGES = {"sdf_parts": "parts", "finger": "parts/finger", "table": "parts/table"}


def actuators(plant) -> list:
    out = []
    for index in plant.GetJointActuatorIndices():
        actuator = plant.get_joint_actuator(index)
        limit = actuator.effort_limit()
        out.append({"name": actuator.name(), "joint": actuator.joint().name(),
                    "effort_limit": "inf" if math.isinf(limit) else limit})
    return out


def record_model(key: str, path: pathlib.Path):
    start = time.perf_counter()
    cwd = os.getcwd()
    os.chdir(path.parent)
    try:
        with DrakeWarnings() as messages:
            builder = DiagramBuilder()
            plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
            parser = Parser(plant)
            for name, folder in PACKAGES.items():
                parser.package_map().Add(name, str(MODELS / folder))
            added = parser.AddModels(str(path))
            plant.Finalize()
            diagram = builder.Build()
    finally:
        os.chdir(cwd)
    data = {"category": "sdf", "format_version": FORMAT_VERSION,
            "pydrake_version": importlib.metadata.version("drake"), "model": key,
            "file": str(path.relative_to(MODELS)), "num_parser_warnings": len(messages),
            "added_model_instances": [int(m) for m in added]}
    data.update(structure(plant))
    data["actuators"] = actuators(plant)
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
    line = (f"{key:42s} nq={plant.num_positions():3d} bodies={plant.num_bodies():3d} "
            f"candidates={len(candidates):4d} distances refused={refused:4d}/"
            f"{len(candidates) * NUM_CONFIGURATIONS} {time.perf_counter() - start:5.1f} s")
    return data, line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="", help="comma-separated keys (default: all)")
    parser.add_argument("--out", type=pathlib.Path, default=OUT)
    args = parser.parse_args()
    models = {f"own_{p.stem}": p for p in sorted(MODELS.glob("*.sdf"))}
    models.update({f"drake_{p.stem}": p for p in sorted((MODELS / "drake").glob("*.sdf"))})
    keys = [k for k in args.models.split(",") if k] or list(models)
    args.out.mkdir(parents=True, exist_ok=True)
    index_path = args.out / "index.json"
    index = json.loads(index_path.read_text()) if index_path.exists() else {
        "category": "sdf", "format_version": FORMAT_VERSION, "models": {}}
    for key in keys:
        path = models[key]
        entry = {"file": str(path.relative_to(MODELS))}
        try:
            data, line = record_model(key, path)
        except Exception as error:  # noqa: BLE001
            index["models"][key] = dict(entry, refused=f"{type(error).__name__}: {error}"[:500])
            print(f"{key:42s} refused by pydrake: {error}"[:300])
            continue
        (args.out / f"{key}.json").write_text(json.dumps(data, separators=(",", ":")))
        index["models"][key] = dict(entry, refused=None)
        print(line)
    index["pydrake_version"] = importlib.metadata.version("drake")
    index["packages"] = PACKAGES
    index_path.write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
