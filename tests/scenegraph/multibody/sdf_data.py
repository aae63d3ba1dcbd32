"""Shared helpers for the SDFormat tests: the project's own SDFormat models
(tests/scenegraph/multibody/models/sdf, with Drake's example SDFs copied into
its drake/ folder), the packages they use, and pydrake 1.51.1's recorded
answers on them (tests/reference_data/sdf, written by
tools/sdf_drake_reference.py)."""
from __future__ import annotations

import functools
import json
import pathlib
import warnings

REFERENCE_DIR = pathlib.Path(__file__).resolve().parents[2] / "reference_data" / "sdf"
MODELS = pathlib.Path(__file__).resolve().parent / "models" / "sdf"
# package name -> folder under MODELS (as tools/sdf_drake_reference.py's PACKAGES)
PACKAGES = {"sdf_parts": "parts", "finger": "parts/finger", "table": "parts/table"}


@functools.lru_cache(maxsize=None)
def reference_index() -> dict:
    return json.loads((REFERENCE_DIR / "index.json").read_text())


@functools.lru_cache(maxsize=None)
def reference(key: str) -> dict:
    return json.loads((REFERENCE_DIR / f"{key}.json").read_text())


def recorded_models() -> list:
    return sorted(k for k, v in reference_index()["models"].items() if not v["refused"])


def model_path(key: str) -> pathlib.Path:
    return MODELS / reference_index()["models"][key]["file"]


def add_packages(parser) -> None:
    """Adds the test models' packages to `parser`'s package map."""
    for name, folder in PACKAGES.items():
        parser.package_map().Add(name, str(MODELS / folder))


def load(path, time_step: float = 0.0):
    """(diagram, plant, scene_graph, added model instances) of the file alone
    in a fresh plant, parser warnings silenced."""
    from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
    from systems.framework import DiagramBuilder

    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
    parser = Parser(plant)
    add_packages(parser)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        added = parser.AddModels(str(path))
    plant.Finalize()
    return builder.Build(), plant, scene_graph, added
