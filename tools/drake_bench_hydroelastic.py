"""Times pydrake and this library side by side on benchmarks/bench_hydroelastic.py's scenes.

Run with the scratch virtualenv that holds pydrake (never a dependency of the
library; only scripts under tools/ import it):

  /work/drake-venv/bin/python tools/drake_bench_hydroelastic.py [--repeats N]
      [--scene S] [--hint H] [--drake-only]

The project is imported from this checkout; its compiled dependencies (numba,
scipy, ...) come from the project's .venv (same Python and numpy versions as
the scratch venv). For each case both libraries build the same scene and get
the same pose sequence; calls alternate Drake / project, each after fixing a
new FramePoseVector, and the medians are printed with the face counts and the
force on M. The first lines printed are the docstring table rows of
benchmarks/bench_hydroelastic.py (Drake's faces, Fz and median ms).
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import types

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(next((ROOT / ".venv" / "lib").glob("python3*")) / "site-packages"))

import pydrake.geometry as drake_geometry  # noqa: E402
import pydrake.math as drake_math  # noqa: E402

from benchmarks.bench_hydroelastic import (Harness, cases, project_api, repeats_for,  # noqa: E402
                                           surface_summary, timed_call)


def drake_api():
    api = types.SimpleNamespace(**{n: getattr(drake_geometry, n) for n in dir(drake_geometry)
                                   if not n.startswith("_")})
    api.RigidTransform, api.RotationMatrix = drake_math.RigidTransform, drake_math.RotationMatrix
    return api


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--scene")
    parser.add_argument("--hint", type=float)
    parser.add_argument("--drake-only", action="store_true")
    args = parser.parse_args(argv)
    drake, mine = drake_api(), project_api()
    rows, table = [], []
    for spec, hint, rep in cases(args.scene, args.hint):
        repeats = repeats_for(hint, args.repeats)
        hd = Harness(drake, spec, hint, repeats + 1)
        hp = None if args.drake_only else Harness(mine, spec, hint, repeats + 1)
        hd.set_pose(0)
        d_faces, d_Fz = surface_summary(hd.query(rep), rep)
        if hp is not None:
            hp.set_pose(0)
            p_faces, p_Fz = surface_summary(hp.query(rep), rep)
        td, tp = [], []
        for k in range(1, repeats + 1):
            td.append(timed_call(hd, rep, k))
            if hp is not None:
                tp.append(timed_call(hp, rep, k))
        d_ms = statistics.median(td) * 1e3
        table.append(f"  {spec.name:22}{hint:<9}{rep:11}{d_faces:<8d}{d_Fz:<15.2f}{d_ms:.3f}")
        if hp is not None:
            p_ms = statistics.median(tp) * 1e3
            rows.append(f"{spec.name:22}{hint:8.5f} {rep:10} faces {d_faces:6d} / {p_faces:6d}  "
                        f"Fz {d_Fz:11.3f} / {p_Fz:11.3f}  ms {d_ms:9.3f} / {p_ms:9.3f}  "
                        f"ratio {p_ms / d_ms:6.2f}")
            print(rows[-1], flush=True)
        else:
            print(table[-1], flush=True)
    print("\nDocstring rows (Drake):")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
