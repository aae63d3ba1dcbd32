"""Hydroelastic contact-surface timing against Drake's `hydroelastic` benchmark.

Rebuilds the scene of tests/reference_data/drake_benchmarks.json (a compliant
sphere r = 0.1 m, E = 1e6 Pa, resolution_hint 0.01 m pressed 1 cm into an
anchored rigid box 1 × 1 × 0.1 m) at the numeric level: each geometry's
hydroelastic representation from its proximity record, then the per-pair
calculator with the recorded world poses. Prints the median time per
contact-surface computation for kTriangle and kPolygon with face counts and
the force, next to Drake's. Never asserts timing.

    .venv/bin/python benchmarks/bench_hydroelastic.py [--repeats N]
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

from scenegraph.hydroelastic.calculator import compute_contact_surface  # noqa: E402
from scenegraph.hydroelastic.contact_surface import HydroelasticContactRepresentation  # noqa: E402
from scenegraph.hydroelastic.representation import (make_compliant_representation,  # noqa: E402
                                                    make_rigid_representation)
from scenegraph.shapes import Box, Sphere  # noqa: E402


def _shape(rec):
    if rec["type"] == "Sphere":
        return Sphere(rec["radius"])
    return Box(rec["width"], rec["depth"], rec["height"])


def _representation(geometry):
    hydro = geometry["proximity"]["hydroelastic"]
    shape = _shape(geometry["shape"])
    if hydro["compliance"] == "rigid":
        return make_rigid_representation(shape, hydro.get("resolution_hint"))
    return make_compliant_representation(shape, hydro["hydroelastic_modulus"],
                                         hydro.get("resolution_hint"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    bench = json.loads((ROOT / "tests/reference_data/drake_benchmarks.json").read_text())["hydroelastic"]
    geometries = bench["scene"]["geometries"]
    t0 = time.perf_counter()
    reps = [_representation(g) for g in geometries]
    build_s = time.perf_counter() - t0
    poses = [(np.array(g["X_WG"]["rotation"]), np.array(g["X_WG"]["translation"])) for g in geometries]
    print(f"representations built in {build_s * 1e3:.1f} ms (Drake: {bench['results']['build_s'] * 1e3:.1f} ms "
          "for its whole scene set-up); meshes:",
          ", ".join(f"{g['name']} {r.hydroelastic_mesh()!r}" for g, r in zip(geometries, reps)))
    print(f"{'representation':15s} {'median ms':>9s} {'min ms':>7s} {'Drake ms':>8s} {'ratio':>6s} "
          f"{'faces':>5s} {'Drake':>5s} {'Fz [N]':>12s} {'Drake Fz':>12s} {'rel. err':>9s}")
    for name in ("kTriangle", "kPolygon"):
        rep = HydroelasticContactRepresentation[name]
        drake = bench["results"][name]
        times = []
        for _ in range(args.repeats):
            t = time.perf_counter()
            result, surface = compute_contact_surface(0, reps[0], poses[0], 1, reps[1], poses[1], rep)
            times.append(time.perf_counter() - t)
        med, best = statistics.median(times) * 1e3, min(times) * 1e3
        drake_ms = drake["ComputeContactSurfaces_s"] * 1e3
        F = surface.calc_force_W()
        Fd = drake["surfaces"][0]["F"][2]
        print(f"{name:15s} {med:9.3f} {best:7.3f} {drake_ms:8.3f} {med / drake_ms:6.2f} "
              f"{surface.num_faces():5d} {drake['surfaces'][0]['num_faces']:5d} {F[2]:12.6f} {Fd:12.6f} "
              f"{abs(F[2] - Fd) / abs(Fd):9.1e}")


if __name__ == "__main__":
    main()
