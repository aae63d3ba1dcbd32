"""Hydroelastic contact surfaces on Drake's `hydroelastic` benchmark scene.

Rebuilds the scene stored in tests/reference_data/drake_benchmarks.json (a
compliant sphere r = 0.1 m, E = 1e6 Pa, resolution_hint 0.01 m -> 2048 tets,
pressed 1 cm into an anchored rigid box 1 x 1 x 0.1 m) through SceneGraph,
and prints the median time per QueryObject.ComputeContactSurfaces for
kTriangle and kPolygon, with face counts and the force F = Σ p·A·n on M,
next to Drake's. Each call runs the whole query (broadphase, BVH traversal,
clipping, field interpolation); the representations were built once, at
AssignRole. Never asserts timing.

Run: .venv/bin/python benchmarks/bench_hydroelastic.py [--repeats N]
"""
from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from examples.hydroelastic_contact import force_on_M  # noqa: E402
from scenegraph import HydroelasticContactRepresentation  # noqa: E402
from tests.scenegraph.reference_scene import build  # noqa: E402

REFERENCE = ROOT / "tests" / "reference_data" / "drake_benchmarks.json"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args(argv)
    reference = json.loads(REFERENCE.read_text())["hydroelastic"]
    start = time.perf_counter()
    scene = build(reference["scene"])
    query = scene.query()
    build_s = time.perf_counter() - start
    print(f"scene built (representations included) in {build_s * 1e3:.1f} ms "
          f"(Drake {reference['results']['build_s'] * 1e3:.1f} ms)")
    ok = True
    for name in ("kTriangle", "kPolygon"):
        representation = getattr(HydroelasticContactRepresentation, name)
        drake = reference["results"][name]
        surfaces = query.ComputeContactSurfaces(representation)
        times = []
        for _ in range(args.repeats):
            t = time.perf_counter()
            query.ComputeContactSurfaces(representation)
            times.append(time.perf_counter() - t)
        median = statistics.median(times)
        surface = surfaces[0]
        F = force_on_M(surface)
        F_drake = np.array(drake["surfaces"][0]["F"])
        error = np.linalg.norm(F - F_drake) / np.linalg.norm(F_drake)
        ok &= error < 0.01
        print(f"{name}: {median * 1e3:.3f} ms per ComputeContactSurfaces (min "
              f"{min(times) * 1e3:.3f}) vs Drake {drake['ComputeContactSurfaces_s'] * 1e3:.3f}"
              f" ms -> {median / drake['ComputeContactSurfaces_s']:.2f}x; faces "
              f"{surface.num_faces()} (Drake {drake['surfaces'][0]['num_faces']}); "
              f"Fz {F[2]:.6f} N (Drake {F_drake[2]:.6f} N, relative error {error:.1e})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
