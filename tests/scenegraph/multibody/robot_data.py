"""Shared helpers for the multibody tests: where example-robot-data's robots
are, and pydrake 1.51.1's recorded answers on them
(tests/reference_data/robots, written by tools/robots_drake_reference.py; see
the README there for the format).

example-robot-data (pip) installs its robots below
``<site-packages>/cmeel.prefix/share/example-robot-data/robots``; that folder's
parent is the package ``example-robot-data`` that the URDFs name in
``package://example-robot-data/robots/...``. It has no package.xml, so a
parser is told where it is with
``parser.package_map().Add(PACKAGE, str(package_root()))``.

These files are test data only: library code never reads them.
"""
from __future__ import annotations

import functools
import importlib.metadata
import json
import pathlib

import numpy as np

PACKAGE = "example-robot-data"
REFERENCE_DIR = pathlib.Path(__file__).resolve().parents[2] / "reference_data" / "robots"


class RobotDataMissing(RuntimeError):
    """example-robot-data is not installed (it is part of the [test] extra)."""


@functools.lru_cache(maxsize=None)
def package_root() -> pathlib.Path:
    """The folder that is the package ``example-robot-data``.

    Raises RobotDataMissing, saying how to install it, when the distribution
    or its robots folder is absent."""
    try:
        dist = importlib.metadata.distribution(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        raise RobotDataMissing(
            f"the pip package {PACKAGE!r} is not installed; it is part of the test "
            f"extra: pip install -e '.[test]' (or pip install {PACKAGE})") from None
    root = pathlib.Path(dist.locate_file(f"cmeel.prefix/share/{PACKAGE}"))
    if not (root / "robots").is_dir():
        raise RobotDataMissing(f"{PACKAGE} {dist.version} is installed but has no robots "
                               f"folder at {root / 'robots'}")
    return root


def urdf_path(urdf: str) -> pathlib.Path:
    """Absolute path of a URDF given relative to the package's robots folder."""
    return package_root() / "robots" / urdf


@functools.lru_cache(maxsize=None)
def reference_index() -> dict:
    """tests/reference_data/robots/index.json: every robot the tool tried,
    with ``loaded`` true (and its file) or false (and pydrake's error)."""
    return json.loads((REFERENCE_DIR / "index.json").read_text(),
                      parse_constant=_reject_constant)


def recorded_robots() -> list[str]:
    """Keys of the robots pydrake loaded, in the tool's order."""
    return [k for k, v in reference_index()["robots"].items() if v["loaded"]]


def refused_robots() -> list[str]:
    """Keys of the robots pydrake refused to load."""
    return [k for k, v in reference_index()["robots"].items() if not v["loaded"]]


@functools.lru_cache(maxsize=None)
def reference(key: str) -> dict:
    """pydrake's recorded answers for robot `key` (the whole JSON file)."""
    entry = reference_index()["robots"][key]
    return json.loads((REFERENCE_DIR / entry["file"]).read_text(),
                      parse_constant=_reject_constant)


def _reject_constant(token: str):
    raise ValueError(f"unexpected JSON constant {token!r} in reference data")


def as_float(value) -> float:
    """A recorded scalar as a float: "inf"/"-inf" -> ±inf, None (NaN) -> nan."""
    if value is None:
        return float("nan")
    return float(value)


def as_array(values) -> np.ndarray:
    """A recorded (nested) list of scalars as a float array, "inf"/"-inf"
    and null converted as by as_float."""
    def convert(v):
        return [convert(x) for x in v] if isinstance(v, list) else as_float(v)
    return np.array(convert(values), dtype=float)
