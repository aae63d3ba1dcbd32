"""Explains face-count differences with Drake on benchmarks/bench_hydroelastic.py's scenes.

  /work/drake-venv/bin/python tools/drake_face_count_diff.py [--scene S] [--hint H]

For each case (first pose, kPolygon) both libraries compute the surface; each
polygon is paired with the other library's polygon whose area centroid is
nearest (within 1 nm; the area centroid does not move when a vertex is
inserted on an edge). Prints, for paired polygons whose vertex counts differ,
how far the extra vertex lies from the segment joining its neighbours and the
relative area difference, then the counts and the polygons left unpaired
(which differently tessellated meshes produce). kTriangle counts follow from
the polygons: one triangle per polygon vertex.
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(next((ROOT / ".venv" / "lib").glob("python3*")) / "site-packages"))

from benchmarks.bench_hydroelastic import Harness, SCENES, project_api  # noqa: E402
from tools.drake_bench_hydroelastic import drake_api  # noqa: E402


def polygons(surface) -> list:
    mesh = surface.poly_mesh_W()
    out = []
    for f in range(mesh.num_faces()):
        poly = mesh.element(f)
        out.append(np.array([mesh.vertex(poly.vertex(i)) for i in range(poly.num_vertices())]))
    return out


def polygon_area(P: np.ndarray) -> float:
    return float(np.linalg.norm(sum(np.cross(P[i] - P[0], P[i + 1] - P[0])
                                    for i in range(1, len(P) - 1))) / 2)


def area_centroid(P: np.ndarray) -> np.ndarray:
    """Area centroid (invariant to vertices inserted on an edge); vertex mean if degenerate."""
    w = [np.linalg.norm(np.cross(P[i] - P[0], P[i + 1] - P[0])) for i in range(1, len(P) - 1)]
    if sum(w) == 0:
        return P.mean(axis=0)
    return sum(wi * (P[0] + P[i] + P[i + 1]) / 3 for i, wi in zip(range(1, len(P) - 1), w)) / sum(w)


def straightest_vertex(P: np.ndarray) -> float:
    """Smallest distance of a vertex from the segment joining its two neighbours [m]:
    0 for a vertex inserted on an edge."""
    best = np.inf
    for i in range(len(P)):
        a, b, v = P[i - 1], P[(i + 1) % len(P)], P[i]
        t = np.clip((v - a) @ (b - a) / max((b - a) @ (b - a), 1e-300), 0.0, 1.0)
        best = min(best, float(np.linalg.norm(a + t * (b - a) - v)))
    return best


def shortest_edge(P: np.ndarray) -> float:
    return float(np.linalg.norm(P - np.roll(P, -1, axis=0), axis=1).min())


def compare(spec, hint) -> None:
    from scipy.spatial import cKDTree
    surfaces = []
    for api in (drake_api(), project_api()):
        h = Harness(api, spec, hint, 1)
        h.set_pose(0)
        surfaces.append(h.query("kPolygon")[0])
    drake, mine = (polygons(s) for s in surfaces)
    print(f"{spec.name} {hint}: {len(drake)} / {len(mine)} polygons, "
          f"{sum(map(len, drake))} / {sum(map(len, mine))} vertices (Drake / this library)")
    c_drake = np.array([area_centroid(P) for P in drake])
    c_mine = np.array([area_centroid(P) for P in mine])
    # Pair each polygon with the other library's nearest one (area centroids within 1 nm).
    distance, nearest = cKDTree(c_drake).query(c_mine)
    paired = distance < 1e-9
    counts = {"same": 0, "unpaired here": int((~paired).sum()),
              "unpaired in Drake": len(drake) - len(set(nearest[paired].tolist()))}
    for P, ok, k in zip(mine, paired, nearest):
        if not ok:
            continue
        Q = drake[k]
        if len(P) == len(Q):
            counts["same"] += 1
            continue
        more, who = (P, "here") if len(P) > len(Q) else (Q, "in Drake")
        print(f"  {len(Q)} (Drake) vs {len(P)} vertices, equal areas to "
              f"{abs(polygon_area(P) - polygon_area(Q)) / polygon_area(Q):.1g}: the polygon {who} "
              f"has a vertex {straightest_vertex(more):.1g} m off the segment joining its "
              f"neighbours, shortest edge {shortest_edge(more):.2g} m (span "
              f"{np.ptp(more, axis=0).max():.2g} m)")
    print(f"  {counts}")
    paired_drake = set(nearest[paired].tolist())
    for who, unpaired in (("here", [P for P, ok in zip(mine, paired) if not ok]),
                          ("in Drake", [Q for k, Q in enumerate(drake) if k not in paired_drake])):
        for P in unpaired:
            print(f"  unpaired {who}: {len(P)} vertices, area {polygon_area(P):.2g} m², span "
                  f"{np.ptp(P, axis=0).max():.2g} m, centroid {np.round(P.mean(axis=0), 5)}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene")
    parser.add_argument("--hint", type=float)
    args = parser.parse_args(argv)
    for spec in SCENES:
        if args.scene and spec.name != args.scene:
            continue
        for hint in spec.hints:
            if args.hint is None or np.isclose(hint, args.hint):
                compare(spec, hint)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
