"""benchmarks/bench_cold_start.py's probe on pydrake: import pydrake, register
the same 31-geometry scene, then one query of every kind, each timed from the
process's start. Runs with the scratch pydrake virtualenv, never with the
project's:

    /work/drake-venv/bin/python tools/drake_cold_start.py --out FILE

(benchmarks/bench_cold_start.py runs it next to this library's probe.)
"""
from __future__ import annotations

import time

T0 = time.perf_counter()

import argparse  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))


def pydrake_api() -> dict:
    """pydrake's classes under the probe's names (imported now)."""
    import pydrake.geometry as geometry
    import pydrake.math as drake_math

    import bench_cold_start as bench
    api = {name: getattr(geometry, name) for name in bench.NAMES}
    api["RigidTransform"] = drake_math.RigidTransform
    api["RotationMatrix"] = drake_math.RotationMatrix
    return api


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    import bench_cold_start as bench
    bench.T0 = T0
    sys.exit(bench.probe(args.out, load_api=pydrake_api, name="pydrake"))
