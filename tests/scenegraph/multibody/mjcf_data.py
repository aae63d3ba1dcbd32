"""Shared helpers for the MJCF tests: where dm_control's suite models are,
the project's own small models, and the recorded answers of pydrake 1.51.1
and MuJoCo on them (tests/reference_data/mjcf, written by
tools/mjcf_drake_reference.py and tools/mjcf_mujoco_reference.py).

dm-control is part of the [test] extra. Its suite folder is found with
``importlib.util.find_spec("dm_control")`` — which locates the package
without importing it (nor mujoco): the tests only read its XML and meshes.
"""
from __future__ import annotations

import functools
import importlib.util
import json
import pathlib
import warnings

REFERENCE_DIR = pathlib.Path(__file__).resolve().parents[2] / "reference_data" / "mjcf"
OWN_MODELS = pathlib.Path(__file__).resolve().parent / "models" / "mjcf"


class SuiteMissing(RuntimeError):
    """dm-control is not installed (it is part of the [test] extra)."""


@functools.lru_cache(maxsize=None)
def suite_dir() -> pathlib.Path:
    """dm_control's suite folder (its *.xml models and dog_assets/)."""
    spec = importlib.util.find_spec("dm_control")
    if spec is None or not spec.submodule_search_locations:
        raise SuiteMissing("the pip package 'dm-control' is not installed; it is part of the "
                           "test extra: pip install -e '.[test]' (or pip install dm-control)")
    folder = pathlib.Path(list(spec.submodule_search_locations)[0]) / "suite"
    if not (folder / "cartpole.xml").is_file():
        raise SuiteMissing(f"dm_control is installed but {folder} has no suite models")
    return folder


@functools.lru_cache(maxsize=None)
def reference_index() -> dict:
    return json.loads((REFERENCE_DIR / "index.json").read_text())


@functools.lru_cache(maxsize=None)
def reference(key: str) -> dict:
    return json.loads((REFERENCE_DIR / f"{key}.json").read_text())


def recorded_models() -> list:
    return sorted(k for k, v in reference_index()["models"].items() if not v["refused"])


def model_path(key: str) -> pathlib.Path:
    entry = reference_index()["models"][key]
    if entry["source"] == "dm_control suite":
        return suite_dir() / entry["file"]
    return OWN_MODELS / entry["file"]


def load(path, time_step: float = 0.0):
    """(diagram, plant, scene_graph) of the model alone in a fresh plant,
    parser warnings silenced."""
    from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
    from systems.framework import DiagramBuilder

    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        Parser(plant).AddModels(str(path))
    plant.Finalize()
    return builder.Build(), plant, scene_graph
