"""Loads Drake's reference answers (tests/reference_data, copied from the
project's shared reference set; see tests/reference_data/README.md for the
format and Drake's conventions).

These files are test data only: library code never reads them.
"""
from __future__ import annotations

import functools
import json
import pathlib

import numpy as np

REFERENCE_DIR = pathlib.Path(__file__).resolve().parent / "reference_data"


@functools.lru_cache(maxsize=None)
def _load(name: str) -> dict:
    with open(REFERENCE_DIR / f"{name}.json") as f:
        return json.load(f, parse_constant=_reject_constant)


def _reject_constant(token: str):
    raise ValueError(f"unexpected JSON constant {token!r} in reference data")


def load_reference(name: str) -> dict:
    """The whole reference file `name` (without .json), e.g. "signed_distance_pair"."""
    return _load(name)


def reference_cases(name: str) -> list[dict]:
    """The list of cases in reference file `name`."""
    return _load(name)["cases"]


def as_float(value) -> float:
    """Converts a reference scalar: "inf" -> inf, None (NaN) -> nan."""
    if value is None:
        return float("nan")
    if isinstance(value, str):
        return float(value)
    return float(value)


def pose_arrays(pose: dict) -> tuple[np.ndarray, np.ndarray]:
    """(R, p): a (3, 3) rotation matrix and a (3,) translation from a reference pose."""
    return np.array(pose["rotation"], dtype=float), np.array(pose["translation"], dtype=float)


def geometry_by_name(scene: dict, name: str) -> dict:
    """The geometry record named `name` in a reference scene."""
    for g in scene["geometries"]:
        if g["name"] == name:
            return g
    raise KeyError(name)
