"""Times pydrake on the proximity benchmark's scenes (benchmarks/proximity_scenes.py).

Runs with the scratch pydrake virtualenv, never with the project's:

    /work/drake-venv/bin/python tools/drake_bench_proximity.py --out FILE [selection]

The selection options (--only, --n, --pairs, --convex, --mesh, --budget) are
those of benchmarks/bench_proximity.py. The scenes, the pose sequence, the
thresholds and the timing loop are the ones the benchmark uses (the shared
SceneGraphRunner/run_jobs in proximity_scenes.py); only the classes come from
pydrake.geometry and pydrake.math instead of this library. Writes
{"tool", "pydrake_version", "machine", "command", "rows"} as JSON to FILE
(the benchmark's ratio table reads such a file; tools/proximity_side_by_side.py
merges several interleaved runs into benchmarks/drake_proximity_times.json).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import proximity_scenes as ps  # noqa: E402  (numpy only)


def pydrake_api() -> dict:
    import pydrake.geometry as geometry
    import pydrake.math as drake_math
    names = ("SceneGraph", "GeometryFrame", "GeometryInstance", "ProximityProperties",
             "FramePoseVector", "Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid",
             "HalfSpace", "Convex", "Mesh")
    api = {name: getattr(geometry, name) for name in names}
    api["RigidTransform"] = drake_math.RigidTransform
    api["RotationMatrix"] = drake_math.RotationMatrix
    return api


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ps.add_selection_arguments(parser)
    parser.add_argument("--out", required=True, help="JSON file to write")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    from importlib import metadata

    def log(key, record):
        if not args.quiet:
            print(f"{key:70s} {json.dumps(record)}", flush=True)

    rows = ps.run_jobs(ps.SceneGraphRunner(pydrake_api()), ps.jobs_from_args(args),
                       budget_s=args.budget, log=log)
    out = {"tool": "tools/drake_bench_proximity.py",
           "pydrake_version": metadata.version("drake"),
           "machine": ps.machine_info(), "command": " ".join(sys.argv), "rows": rows}
    pathlib.Path(args.out).write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
