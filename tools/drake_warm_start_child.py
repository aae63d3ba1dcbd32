"""pydrake's side of benchmarks/bench_warm_start.py: a new process's import,
registration of the 25-geometry mixed scene and first query of each kind
(benchmarks/warm_start_child.measure_queries with pydrake's classes).

    /work/drake-venv/bin/python tools/drake_warm_start_child.py

Prints one JSON line, as benchmarks/warm_start_child.py does.
"""
from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

import warm_start_child  # noqa: E402  (starts the clock; numpy only)


def main() -> int:
    from drake_bench_proximity import pydrake_api
    steps = warm_start_child.measure_queries(pydrake_api)
    print(json.dumps({"library": "pydrake", "what": "queries", "steps": steps}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
