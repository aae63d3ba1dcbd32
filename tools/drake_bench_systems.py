"""Times pydrake 1.51 on the systems-framework scenarios of
benchmarks/systems_scenarios.py (the same Python systems this library runs in
benchmarks/bench_systems.py). Runs with the scratch pydrake virtualenv:

    /work/drake-venv/bin/python tools/drake_bench_systems.py [--rows ...] [--budget 2] [--out FILE]

tools/systems_side_by_side.py runs this and bench_systems.py in interleaved
fresh processes and stores pydrake's medians (--write).
"""
from __future__ import annotations

import pathlib
import sys
import types

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import systems_scenarios  # noqa: E402  (numpy only)

DRAKE_PYTHON = "/work/drake-venv/bin/python"


def pydrake_api():
    """pydrake's names in the namespace systems_scenarios expects."""
    from pydrake.common.eigen_geometry import Quaternion
    from pydrake.common.value import AbstractValue
    from pydrake.geometry import (CollisionFilterDeclaration, FramePoseVector,
                                  GeometryFrame, GeometryInstance, GeometrySet,
                                  ProximityProperties, QueryObject, SceneGraph, Sphere)
    from pydrake.math import RigidTransform, RollPitchYaw, RotationMatrix
    from pydrake.systems.analysis import ApplySimulatorConfig, Simulator, SimulatorConfig
    from pydrake.systems.framework import (DiagramBuilder, LeafSystem,
                                           UnrestrictedUpdateEvent,
                                           WitnessFunctionDirection)
    return types.SimpleNamespace(**{k: v for k, v in locals().items()})


def main(argv=None) -> int:
    from importlib import metadata
    return systems_scenarios.command_line(
        pydrake_api, argv, f"pydrake {metadata.version('drake')}")


if __name__ == "__main__":
    sys.exit(main())
