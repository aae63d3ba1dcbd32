"""Seeded proximity benchmark scenes and the timing protocol, as plain data.

This module imports only numpy and the standard library, so the very same
scenes are built by ``benchmarks/bench_proximity.py`` (this library) and by
``tools/drake_bench_proximity.py`` (pydrake), each with its own SceneGraph
builder. A scene is a dict in the format of ``tests/reference_data/README.md``
("Scene"), with numpy arrays allowed in place of lists:

    {"name": str, "seed": int,
     "frames": [{"name", "X_WF": {"rotation": (3, 3), "translation": (3,)}}],
     "geometries": [{"name", "shape": {"type", ...Drake parameter names...},
                     "anchored": bool, "frame": frame name or None,
                     "X_FG": pose (X_WG for anchored geometries)}],
     "motion": {"translation_m": σ_p, "rotation_rad": σ_θ},
     ...scene-specific extras (points, ids of the timed pair)}

Shapes: Sphere{radius}, Box{width, depth, height}, Capsule/Cylinder{radius,
length}, Ellipsoid{a, b, c}, HalfSpace{} (z <= 0 in G), Convex{vertices (V, 3),
label}, and Mesh{vertices (V, 3), faces (F, 3), label}, a closed triangle mesh
the builders write to a temporary OBJ file (``obj_text``). All lengths in m.

Frame motion: ``frame_poses(scene, k)`` is the k-th set of frame poses X_WF
(seeded by the scene's seed and k, independent of any earlier k): each frame's
base pose moved by a random translation (normal, σ_p per axis) and a random
rotation about its origin (rotation vector normal, σ_θ per axis). Pose 0 is
the warm-up pose at which result counts are compared; timed calls use poses
1, 2, ... so the poses change before every timed call.

Timing protocol (``time_fresh_calls``): the caller fixes pose k on the pose
port outside the timed region, then times one call (evaluating the query port
and calling the query); repeats adapt to the cost of a call (at least
MIN_REPEATS, up to MAX_REPEATS, until TARGET_S of timed work or the row's
budget is spent). Medians are reported.
"""
from __future__ import annotations

import json
import math
import pathlib
import statistics
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
DRAKE_BENCH_SCENES = ROOT / "tests" / "reference_data" / "drake_benchmarks.json"

#: Edge of the cube cell that holds one geometry on average in mixed scenes [m].
CELL_EDGE_M = 0.2
#: Geometry types of mixed scenes, assigned round robin (geometry i: i mod 6).
MIXED_TYPES = ("Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "Convex")
MIXED_SIZES = (25, 100, 1000, 3000)
ANCHORED_FRACTION = 0.1
GEOMETRIES_PER_FRAME = 10
CONVEX_VERTICES_MIXED = 24
#: max_distance of ComputeSignedDistancePairwiseClosestPoints in mixed and
#: pair scenes [m].
DISTANCE_THRESHOLD_M = 0.05
#: threshold of ComputeSignedDistanceToPoint in mixed scenes [m] (finite, so
#: geometries whose bounding box is farther than this are skipped, as Drake
#: does; Mesh rows use an infinite threshold: every call answers).
POINT_THRESHOLD_M = 0.05
NUM_POINTS = 1000

#: The seven shape types of the per-type-pair table; sorted pairs of them
#: (28) in this order.
PAIR_TYPES = ("Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "HalfSpace", "Convex")
PAIRS_PER_SCENE = 40          # half penetrating, half separated-but-near
PAIR_SPACING_M = 0.6          # distance between neighbouring pairs' sites

CONVEX_VERTEX_COUNTS = (100, 200, 400, 642, 1000)
MESH_SUBDIVISIONS = (3, 4, 5)   # icosphere: 1280, 5120, 20480 triangles

# Timing protocol.
MIN_REPEATS = 5
MAX_REPEATS = 300
TARGET_S = 1.0

_SMALL_MOTION = {"translation_m": 0.005, "rotation_rad": 0.005}
# Pair scenes keep every pair in its class (2 mm minimum depth or gap).
_TINY_MOTION = {"translation_m": 0.0002, "rotation_rad": 0.0001}


# ---------------------------------------------------------------------------
# Small geometry helpers (numpy only).

def _pose(R: np.ndarray, p: np.ndarray) -> dict:
    return {"rotation": np.array(R, dtype=float), "translation": np.array(p, dtype=float)}


def random_rotations(rng: np.random.Generator, n: int) -> np.ndarray:
    """(n, 3, 3) rotation matrices, uniformly distributed (normalised
    Gaussian quaternions)."""
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], axis=1)


def rotation_vectors_to_matrices(w: np.ndarray) -> np.ndarray:
    """(n, 3) rotation vectors [rad] -> (n, 3, 3) rotation matrices (Rodrigues)."""
    w = np.asarray(w, dtype=float).reshape(-1, 3)
    theta = np.linalg.norm(w, axis=1)
    k = np.divide(w, theta[:, None], out=np.zeros_like(w), where=theta[:, None] > 0)
    K = np.zeros((len(w), 3, 3))
    K[:, 0, 1], K[:, 0, 2], K[:, 1, 2] = -k[:, 2], k[:, 1], -k[:, 0]
    K[:, 1, 0], K[:, 2, 0], K[:, 2, 1] = k[:, 2], -k[:, 1], k[:, 0]
    s, c = np.sin(theta)[:, None, None], np.cos(theta)[:, None, None]
    return np.eye(3) + s * K + (1 - c) * (K @ K)


def sphere_points(n: int) -> np.ndarray:
    """(n, 3) points of the Fibonacci lattice on the unit sphere (every one a
    vertex of their convex hull)."""
    i = np.arange(n) + 0.5
    z = 1 - 2 * i / n
    r = np.sqrt(1 - z * z)
    phi = math.pi * (3 - math.sqrt(5)) * i
    return np.stack([r * np.cos(phi), r * np.sin(phi), z], axis=1)


def icosphere(subdivisions: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit icosphere as trimesh builds it: (V, 3) vertices, (F, 3) outward
    triangles; 10·4^s + 2 vertices and 20·4^s triangles."""
    t = (1 + math.sqrt(5)) / 2
    V = np.array([[-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0], [0, -1, t], [0, 1, t],
                  [0, -1, -t], [0, 1, -t], [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1]],
                 dtype=float)
    F = np.array([[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9],
                  [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8], [3, 9, 4], [3, 4, 2],
                  [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10],
                  [8, 6, 7], [9, 8, 1]], dtype=np.int64)
    V /= np.linalg.norm(V, axis=1, keepdims=True)
    for _ in range(subdivisions):
        edges = np.sort(np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]]), axis=1)
        unique, inverse = np.unique(edges, axis=0, return_inverse=True)
        mid = V[unique].mean(axis=1)
        mid /= np.linalg.norm(mid, axis=1, keepdims=True)
        m = inverse.reshape(3, -1) + len(V)          # midpoints of edges 01, 12, 20
        a, b, c = F.T
        F = np.concatenate([np.stack([a, m[0], m[2]], 1), np.stack([b, m[1], m[0]], 1),
                            np.stack([c, m[2], m[1]], 1), np.stack([m[0], m[1], m[2]], 1)])
        V = np.concatenate([V, mid])
    return V, F


def obj_text(vertices: np.ndarray, faces: np.ndarray) -> str:
    """Wavefront OBJ text of a triangle mesh (1-based indices, full precision)."""
    lines = ["v %.17g %.17g %.17g" % tuple(v) for v in np.asarray(vertices, dtype=float).tolist()]
    lines += ["f %d %d %d" % (a + 1, b + 1, c + 1) for a, b, c in np.asarray(faces).tolist()]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Shapes and their support functions (used to place pairs at exact gaps).

def random_shape(kind: str, rng: np.random.Generator) -> dict:
    """A shape record of type `kind` with seeded random dimensions: every
    shape is 0.08–0.2 m across (similar to Drake's accuracy tables' ~0.2 m)."""
    u = rng.uniform
    if kind == "Sphere":
        return {"type": "Sphere", "radius": u(0.04, 0.08)}
    if kind == "Box":
        w, d, h = u(0.06, 0.16, 3)
        return {"type": "Box", "width": w, "depth": d, "height": h}
    if kind == "Capsule":
        return {"type": "Capsule", "radius": u(0.025, 0.05), "length": u(0.05, 0.12)}
    if kind == "Cylinder":
        return {"type": "Cylinder", "radius": u(0.03, 0.07), "length": u(0.05, 0.15)}
    if kind == "Ellipsoid":
        a, b, c = u(0.03, 0.09, 3)
        return {"type": "Ellipsoid", "a": a, "b": b, "c": c}
    if kind == "Convex":
        n = CONVEX_VERTICES_MIXED
        d = rng.normal(size=(n, 3))
        d /= np.linalg.norm(d, axis=1, keepdims=True)
        points = d * (u(0.045, 0.08) * u(0.75, 1.0, n))[:, None]
        return {"type": "Convex", "vertices": points, "label": "random24"}
    if kind == "HalfSpace":
        return {"type": "HalfSpace"}
    raise ValueError(f"unknown shape type {kind!r}")


def support_point(shape: dict, v_G: np.ndarray) -> np.ndarray:
    """A point of `shape` (in its frame G) farthest along direction v_G (3,)
    [m]; `v_G` must not be parallel to a flat feature's normal (random
    directions never are)."""
    kind = shape["type"]
    v = np.asarray(v_G, dtype=float)
    v = v / np.linalg.norm(v)
    if kind == "Sphere":
        return shape["radius"] * v
    if kind == "Box":
        half = 0.5 * np.array([shape["width"], shape["depth"], shape["height"]])
        return np.sign(v) * half
    if kind == "Capsule":
        return np.array([0, 0, math.copysign(0.5 * shape["length"], v[2])]) + shape["radius"] * v
    if kind == "Cylinder":
        radial = np.array([v[0], v[1], 0.0])
        radial *= shape["radius"] / np.linalg.norm(radial)
        radial[2] = math.copysign(0.5 * shape["length"], v[2])
        return radial
    if kind == "Ellipsoid":
        d2 = np.array([shape["a"], shape["b"], shape["c"]]) ** 2
        return d2 * v / math.sqrt(float(d2 @ (v * v)))
    if kind in ("Convex", "Mesh"):
        P = np.asarray(shape["vertices"], dtype=float)
        return P[int(np.argmax(P @ v))]
    raise ValueError(f"no bounded support for {kind!r}")


def _world_support(shape: dict, R_WG: np.ndarray, u_W: np.ndarray) -> np.ndarray:
    """Support point of the shape along u_W, measured from G's origin, in W."""
    return R_WG @ support_point(shape, R_WG.T @ u_W)


# ---------------------------------------------------------------------------
# Frames.

def _attach_to_frames(geometries: list, X_WG: list, dynamic: list, per_frame: int,
                      rng: np.random.Generator, prefix: str = "F") -> list:
    """Puts the geometries listed in `dynamic` (indices, in that order) on
    frames of `per_frame` geometries each; a frame's base pose is a random
    rotation at its geometries' centroid. Fills each geometry's frame/X_FG
    and returns the frame records."""
    frames = []
    groups = [dynamic[i:i + per_frame] for i in range(0, len(dynamic), per_frame)]
    rotations = random_rotations(rng, len(groups))
    for f, group in enumerate(groups):
        name = f"{prefix}{f:04d}"
        p_WF = np.mean([X_WG[i][1] for i in group], axis=0)
        R_WF = rotations[f]
        frames.append({"name": name, "X_WF": _pose(R_WF, p_WF)})
        for i in group:
            R_WG, p_WG = X_WG[i]
            geometries[i]["frame"] = name
            geometries[i]["X_FG"] = _pose(R_WF.T @ R_WG, R_WF.T @ (p_WG - p_WF))
    return frames


def _geometry(name: str, shape: dict, R: np.ndarray, p: np.ndarray, anchored: bool) -> dict:
    return {"name": name, "shape": shape, "anchored": bool(anchored), "frame": None,
            "X_FG": _pose(R, p), "proximity": {}}


def frame_poses(scene: dict, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k-th frame pose set: (F, 3, 3) R_WF and (F, 3) p_WF, in the order
    of scene["frames"]; deterministic in (scene seed, k)."""
    frames = scene["frames"]
    R0 = np.array([f["X_WF"]["rotation"] for f in frames], dtype=float).reshape(-1, 3, 3)
    p0 = np.array([f["X_WF"]["translation"] for f in frames], dtype=float).reshape(-1, 3)
    motion = scene.get("motion", _SMALL_MOTION)
    rng = np.random.default_rng([int(scene["seed"]), 7919, int(k)])
    w = rng.normal(scale=motion["rotation_rad"], size=(len(frames), 3))
    dp = rng.normal(scale=motion["translation_m"], size=(len(frames), 3))
    return rotation_vectors_to_matrices(w) @ R0, p0 + dp


# ---------------------------------------------------------------------------
# Scenes.

def mixed_scene(n: int, seed: int = 0) -> dict:
    """n geometries, one per 0.2 m cube cell on average: centres uniform in a
    cube of edge 0.2·n^(1/3) m centred at the origin, uniformly random
    orientations, types round robin over MIXED_TYPES, round(0.1 n) anchored
    (chosen at random), the others shuffled onto frames of 10. Also carries
    "points": NUM_POINTS query points uniform in the cube."""
    rng = np.random.default_rng([int(seed), 1, int(n)])
    edge = CELL_EDGE_M * n ** (1.0 / 3.0)
    centres = rng.uniform(-edge / 2, edge / 2, size=(n, 3))
    rotations = random_rotations(rng, n)
    geometries, X_WG = [], []
    anchored = set(rng.choice(n, size=int(round(ANCHORED_FRACTION * n)), replace=False).tolist())
    for i in range(n):
        kind = MIXED_TYPES[i % len(MIXED_TYPES)]
        geometries.append(_geometry(f"g{i:05d}_{kind}", random_shape(kind, rng),
                                    rotations[i], centres[i], i in anchored))
        X_WG.append((rotations[i], centres[i]))
    dynamic = [int(i) for i in rng.permutation(n) if int(i) not in anchored]
    frames = _attach_to_frames(geometries, X_WG, dynamic, GEOMETRIES_PER_FRAME, rng)
    points = rng.uniform(-edge / 2, edge / 2, size=(NUM_POINTS, 3))
    return {"name": f"mixed{n}", "seed": int(seed) * 100003 + n, "frames": frames,
            "geometries": geometries, "motion": dict(_SMALL_MOTION), "points": points,
            "cube_edge_m": edge}


def type_pairs() -> list[tuple[str, str]]:
    """The 28 sorted shape-type pairs (a, b) with a before or equal to b in
    PAIR_TYPES."""
    return [(a, b) for i, a in enumerate(PAIR_TYPES) for b in PAIR_TYPES[i:]]


def pair_scene(kind_a: str, kind_b: str, num_pairs: int = PAIRS_PER_SCENE, seed: int = 0) -> dict:
    """`num_pairs` isolated pairs of one shape-type pair, each at its own site
    PAIR_SPACING_M from the next: even-numbered pairs penetrate by a depth
    U(2 mm, 40 mm) along a random direction, odd-numbered ones are separated by
    a gap U(2 mm, 40 mm) (< DISTANCE_THRESHOLD_M). The gap is exact (the two
    support points are gap apart along the separating direction); the depth
    is the overlap of the two shapes' extents along that direction.

    A's are put on frames of 10, B's on other frames of 10. With a HalfSpace
    the single half space (z <= 0, anchored) is A and the other shapes sit on
    its boundary plane; HalfSpace–HalfSpace is one pair of exactly
    anti-parallel half spaces 10 mm apart (the only isolated arrangement),
    moved by translations only."""
    ia, ib = PAIR_TYPES.index(kind_a), PAIR_TYPES.index(kind_b)
    rng = np.random.default_rng([int(seed), 2, ia, ib])
    name = f"pairs_{kind_a}-{kind_b}"
    base = {"name": name, "seed": int(seed) * 1009 + 37 * ia + ib,
            "motion": dict(_TINY_MOTION), "pair_types": (kind_a, kind_b)}
    if kind_a == kind_b == "HalfSpace":
        # Exactly anti-parallel and kept so (no rotation: any tilt makes two
        # half spaces intersect).
        R_flip = np.diag([1.0, -1.0, -1.0])           # solid z >= 0.01 in W
        h1 = _geometry("h1_HalfSpace", {"type": "HalfSpace"}, R_flip,
                       np.array([0.0, 0.0, 0.01]), False)
        h1["frame"] = "F0000"
        geometries = [_geometry("h0_HalfSpace", {"type": "HalfSpace"}, np.eye(3), np.zeros(3),
                                True), h1]
        frames = [{"name": "F0000", "X_WF": _pose(np.eye(3), np.zeros(3))}]
        return {**base, "frames": frames, "geometries": geometries,
                "motion": {"translation_m": 0.0002, "rotation_rad": 0.0}}
    if "HalfSpace" in (kind_a, kind_b):
        other = kind_b if kind_a == "HalfSpace" else kind_a
        side = int(math.ceil(math.sqrt(num_pairs)))
        geometries = [_geometry("h_HalfSpace", {"type": "HalfSpace"}, np.eye(3), np.zeros(3), True)]
        X_WG = [(np.eye(3), np.zeros(3))]
        rotations = random_rotations(rng, num_pairs)
        up = np.array([0.0, 0.0, 1.0])
        for j in range(num_pairs):
            shape = random_shape(other, rng)
            R = rotations[j]
            low = _world_support(shape, R, -up)      # lowest point, relative to centre
            offset = -rng.uniform(0.002, 0.04) if j % 2 == 0 else rng.uniform(0.002, 0.04)
            site = PAIR_SPACING_M * np.array([j % side - (side - 1) / 2,
                                              j // side - (side - 1) / 2, 0.0])
            p = site + np.array([0, 0, offset - low[2]])
            geometries.append(_geometry(f"b{j:03d}_{other}", shape, R, p, False))
            X_WG.append((R, p))
        frames = _attach_to_frames(geometries, X_WG, list(range(1, num_pairs + 1)),
                                   GEOMETRIES_PER_FRAME, rng)
        return {**base, "frames": frames, "geometries": geometries}
    side = int(math.ceil(num_pairs ** (1.0 / 3.0)))
    geometries, X_WG = [], []
    rotations = random_rotations(rng, 2 * num_pairs)
    directions = rng.normal(size=(num_pairs, 3))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    for j in range(num_pairs):
        shape_a, shape_b = random_shape(kind_a, rng), random_shape(kind_b, rng)
        R_a, R_b, u = rotations[2 * j], rotations[2 * j + 1], directions[j]
        site = PAIR_SPACING_M * (np.array([j % side, (j // side) % side, j // (side * side)])
                                 - (side - 1) / 2)
        offset = -rng.uniform(0.002, 0.04) if j % 2 == 0 else rng.uniform(0.002, 0.04)
        p_a = site
        p_b = site + _world_support(shape_a, R_a, u) + offset * u - _world_support(shape_b, R_b, -u)
        geometries.append(_geometry(f"a{j:03d}_{kind_a}", shape_a, R_a, p_a, False))
        geometries.append(_geometry(f"b{j:03d}_{kind_b}", shape_b, R_b, p_b, False))
        X_WG += [(R_a, p_a), (R_b, p_b)]
    frames = (_attach_to_frames(geometries, X_WG, list(range(0, 2 * num_pairs, 2)),
                                GEOMETRIES_PER_FRAME, rng, prefix="FA")
              + _attach_to_frames(geometries, X_WG, list(range(1, 2 * num_pairs, 2)),
                                  GEOMETRIES_PER_FRAME, rng, prefix="FB"))
    return {**base, "frames": frames, "geometries": geometries}


def convex_points(num_vertices: int) -> np.ndarray:
    """(V, 3) unit-sphere points, every one a hull vertex: the icosphere's
    642 vertices for V = 642 (as trimesh.creation.icosphere(3)), else the
    Fibonacci lattice."""
    if num_vertices == 642:
        return icosphere(3)[0]
    return sphere_points(num_vertices)


def convex_build_scene(num_vertices: int, seed: int = 0) -> dict:
    """One Convex of `num_vertices` vertices on a 0.1 m sphere (dynamic, on
    its own frame) and an anchored 0.1 m Box cube 10 mm beyond it: the timed
    query is ComputeSignedDistancePairwiseClosestPoints() (one pair)."""
    rng = np.random.default_rng([int(seed), 3, int(num_vertices)])
    shape = {"type": "Convex", "vertices": 0.1 * convex_points(num_vertices),
             "label": f"sphere{num_vertices}"}
    R = random_rotations(rng, 1)[0]
    geometries = [_geometry(f"convex{num_vertices}", shape, R, np.zeros(3), False),
                  _geometry("box", {"type": "Box", "width": 0.1, "depth": 0.1, "height": 0.1},
                            np.eye(3), np.array([0.16, 0.0, 0.0]), True)]
    frames = _attach_to_frames(geometries, [(R, np.zeros(3)), None], [0], 1, rng)
    return {"name": f"convex{num_vertices}", "seed": 5000 + num_vertices,
            "frames": frames, "geometries": geometries, "motion": dict(_SMALL_MOTION)}


def convex_many_scene(count: int = 20, num_vertices: int = 100, seed: int = 0) -> dict:
    """`count` Convex of `num_vertices` vertices (Fibonacci points on an
    ellipsoid of semi-axes 0.03–0.08 m, random orientation), centres uniform
    in a 0.5 m cube, each on its own frame: ComputeSignedDistancePairwise-
    ClosestPoints() answers all count·(count−1)/2 pairs."""
    rng = np.random.default_rng([int(seed), 4, int(count), int(num_vertices)])
    unit = sphere_points(num_vertices)
    geometries, X_WG = [], []
    rotations = random_rotations(rng, count)
    for i in range(count):
        shape = {"type": "Convex", "vertices": unit * rng.uniform(0.03, 0.08, 3),
                 "label": f"convex{i}"}
        p = rng.uniform(-0.25, 0.25, 3)
        geometries.append(_geometry(f"c{i:02d}_Convex", shape, rotations[i], p, False))
        X_WG.append((rotations[i], p))
    frames = _attach_to_frames(geometries, X_WG, list(range(count)), 1, rng)
    return {"name": f"convex_many{count}x{num_vertices}", "seed": 6000 + count,
            "frames": frames, "geometries": geometries, "motion": dict(_SMALL_MOTION)}


def convex_pair_scene(num_vertices: int = 200, gap: float = 0.01, seed: int = 0) -> dict:
    """Two Convex of `num_vertices` vertices (0.1 m spheres, random
    orientations) separated by exactly `gap` [m] along a random direction,
    each on its own frame; timed with ComputeSignedDistancePairClosestPoints."""
    rng = np.random.default_rng([int(seed), 5, int(num_vertices)])
    R_a, R_b = random_rotations(rng, 2)
    u = rng.normal(size=3)
    u /= np.linalg.norm(u)
    shape_a = {"type": "Convex", "vertices": 0.1 * sphere_points(num_vertices), "label": "A"}
    shape_b = {"type": "Convex", "vertices": 0.1 * sphere_points(num_vertices), "label": "B"}
    p_b = _world_support(shape_a, R_a, u) + gap * u - _world_support(shape_b, R_b, -u)
    geometries = [_geometry("convexA", shape_a, R_a, np.zeros(3), False),
                  _geometry("convexB", shape_b, R_b, p_b, False)]
    frames = _attach_to_frames(geometries, [(R_a, np.zeros(3)), (R_b, p_b)], [0, 1], 1, rng)
    return {"name": f"convex_pair{num_vertices}", "seed": 7000 + num_vertices, "gap": gap,
            "frames": frames, "geometries": geometries, "motion": {"translation_m": 0.0005,
                                                                    "rotation_rad": 0.0005}}


def mesh_scene(subdivisions: int, radius: float = 0.1, seed: int = 0) -> dict:
    """One closed triangle Mesh (icosphere of `radius` m, 20·4^s triangles)
    on a frame, and NUM_POINTS query points uniform in the cube of edge
    3·radius around it (15% of them inside the mesh); the pose and the
    points do not depend on `subdivisions`."""
    rng = np.random.default_rng([int(seed), 6])      # same pose and points for every size
    V, F = icosphere(subdivisions)
    shape = {"type": "Mesh", "vertices": radius * V, "faces": F,
             "label": f"icosphere{subdivisions}"}
    R = random_rotations(rng, 1)[0]
    geometries = [_geometry(f"mesh{len(F)}", shape, R, np.zeros(3), False)]
    frames = _attach_to_frames(geometries, [(R, np.zeros(3))], [0], 1, rng)
    points = rng.uniform(-1.5 * radius, 1.5 * radius, size=(NUM_POINTS, 3))
    return {"name": f"mesh{len(F)}", "seed": 8000, "frames": frames,
            "geometries": geometries, "motion": dict(_SMALL_MOTION), "points": points,
            "num_faces": len(F)}


def drake_bench_scene(n: int = 50) -> dict:
    """Drake's own benchmark scene of n geometries (Sphere/Box/Capsule in a
    0.82 m cube) from tests/reference_data/drake_benchmarks.json, with the
    small-motion pose sequence added."""
    data = json.loads(DRAKE_BENCH_SCENES.read_text())["proximity"]
    scene = dict(data["scenes"][str(n)])
    scene.update({"name": f"drake{n}", "seed": 9000 + n, "motion": dict(_SMALL_MOTION)})
    return scene


def drake_bench_reference(n: int = 50) -> dict:
    """Drake's stored figures for its bench scene n (repeat calls on an
    unchanged context; results at the stored poses)."""
    return json.loads(DRAKE_BENCH_SCENES.read_text())["proximity"]["results"][str(n)]


# ---------------------------------------------------------------------------
# Timing protocol.

def time_fresh_calls(call, set_pose, *, budget_s: float, start_k: int = 1,
                     min_repeats: int = MIN_REPEATS, max_repeats: int = MAX_REPEATS,
                     target_s: float = TARGET_S, clock=time.perf_counter) -> dict:
    """Times `call()` after `set_pose(k)` (untimed) for k = start_k, start_k+1,
    ...: at least one call; more while fewer than `min_repeats` or less than
    `target_s` of timed work, stopping at `max_repeats` or once `budget_s`
    (wall time, pose setting included) is spent. Returns {"median_s",
    "min_s", "repeats"}."""
    times = []
    begin = clock()
    k = start_k
    while True:
        set_pose(k)
        k += 1
        t0 = clock()
        call()
        times.append(clock() - t0)
        spent = clock() - begin
        if len(times) >= max_repeats or spent >= budget_s:
            break
        if len(times) >= min_repeats and sum(times) >= target_s:
            break
    return {"median_s": statistics.median(times), "min_s": min(times), "repeats": len(times)}


# ---------------------------------------------------------------------------
# One driver for both implementations.
#
# `SceneGraphRunner(api)` builds scenes and runs queries through the public
# SceneGraph API of whichever module set `api` names (this library's
# scenegraph/scenegraph.math, or pydrake.geometry/pydrake.math: the names are
# the same), so the two measurements share every line except the imports.

PENETRATION = ("ComputePointPairPenetration",)
HAS_COLLISIONS = ("HasCollisions",)
CANDIDATES = ("FindCollisionCandidates",)


def pairwise(max_distance: float) -> tuple:
    return ("ComputeSignedDistancePairwiseClosestPoints", float(max_distance))


def points(threshold: float) -> tuple:
    """All of the scene's NUM_POINTS points, one ComputeSignedDistanceToPoint
    call each, on one QueryObject."""
    return ("ComputeSignedDistanceToPoint", float(threshold), "all")


def one_point(threshold: float) -> tuple:
    """The scene's first point, one ComputeSignedDistanceToPoint call."""
    return ("ComputeSignedDistanceToPoint", float(threshold), "first")


def pair(name_a: str, name_b: str) -> tuple:
    return ("ComputeSignedDistancePairClosestPoints", name_a, name_b)


def spec_label(spec: tuple) -> str:
    """Row label of a query spec, e.g. 'ComputeSignedDistancePairwiseClosestPoints(0.05)'."""
    name = spec[0]
    if name == "ComputeSignedDistancePairwiseClosestPoints":
        return f"{name}({spec[1]:g})"
    if name == "ComputeSignedDistanceToPoint":
        count = NUM_POINTS if spec[2] == "all" else 1
        return f"{name}({spec[1]:g}) x{count}"
    return name


class SceneGraphRunner:
    """Builds scene dicts with a pydrake-compatible API and runs query specs.

    `api` maps the public names SceneGraph, GeometryFrame, GeometryInstance,
    ProximityProperties, FramePoseVector, RigidTransform, RotationMatrix,
    Sphere, Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Convex, Mesh to
    classes. Mesh shapes need shape["path"] (an OBJ file, see
    ``write_meshes``)."""

    def __init__(self, api: dict):
        self.api = api

    def _shape(self, record: dict):
        a, kind = self.api, record["type"]
        if kind == "Sphere":
            return a["Sphere"](record["radius"])
        if kind == "Box":
            return a["Box"](record["width"], record["depth"], record["height"])
        if kind in ("Capsule", "Cylinder"):
            return a[kind](record["radius"], record["length"])
        if kind == "Ellipsoid":
            return a["Ellipsoid"](record["a"], record["b"], record["c"])
        if kind == "HalfSpace":
            return a["HalfSpace"]()
        if kind == "Convex":
            return a["Convex"](np.ascontiguousarray(np.asarray(record["vertices"], float).T),
                               record.get("label", "convex"))
        if kind == "Mesh":
            return a["Mesh"](record["path"])
        raise ValueError(kind)

    def _transform(self, R, p):
        a = self.api
        return a["RigidTransform"](a["RotationMatrix"](np.asarray(R, dtype=float)),
                                   np.asarray(p, dtype=float))

    def build(self, scene: dict) -> dict:
        """Registers frames, then geometries (list order), creates the
        context and fixes frame pose 0. Returns the handle used below."""
        a = self.api
        scene_graph = a["SceneGraph"]()
        source = scene_graph.RegisterSource("bench")
        frames = {f["name"]: scene_graph.RegisterFrame(source, a["GeometryFrame"](f["name"]))
                  for f in scene["frames"]}
        ids = {}
        for g in scene["geometries"]:
            X = g["X_FG"]
            instance = a["GeometryInstance"](self._transform(X["rotation"], X["translation"]),
                                             self._shape(g["shape"]), g["name"])
            if g["anchored"]:
                gid = scene_graph.RegisterAnchoredGeometry(source, instance)
            else:
                gid = scene_graph.RegisterGeometry(source, frames[g["frame"]], instance)
            scene_graph.AssignRole(source, gid, a["ProximityProperties"]())
            ids[g["name"]] = gid
        context = scene_graph.CreateDefaultContext()
        handle = {"scene": scene, "scene_graph": scene_graph, "context": context,
                  "frame_ids": [frames[f["name"]] for f in scene["frames"]], "ids": ids,
                  "pose_port": scene_graph.get_source_pose_port(source),
                  "query_port": scene_graph.get_query_output_port()}
        self.set_pose(handle, 0)
        return handle

    def set_pose(self, handle: dict, k: int) -> None:
        """Fixes a new FramePoseVector holding frame pose set k on the pose port."""
        R, p = frame_poses(handle["scene"], k)
        poses = self.api["FramePoseVector"]()
        for frame_id, R_WF, p_WF in zip(handle["frame_ids"], R, p):
            poses.set_value(frame_id, self._transform(R_WF, p_WF))
        handle["pose_port"].FixValue(handle["context"], poses)

    def query(self, handle: dict, spec: tuple):
        """Evaluates the query port and runs one query spec; returns its raw result."""
        query_object = handle["query_port"].Eval(handle["context"])
        name = spec[0]
        if name == "ComputeSignedDistanceToPoint":
            pts = handle["scene"]["points"]
            if spec[2] == "first":
                return [query_object.ComputeSignedDistanceToPoint(pts[0], spec[1])]
            method = query_object.ComputeSignedDistanceToPoint
            threshold = spec[1]
            return [method(p, threshold) for p in pts]
        if name == "ComputeSignedDistancePairClosestPoints":
            return query_object.ComputeSignedDistancePairClosestPoints(
                handle["ids"][spec[1]], handle["ids"][spec[2]])
        return getattr(query_object, name)(*spec[1:])

    @staticmethod
    def summarize(spec: tuple, result) -> tuple:
        """(count, value) of a raw result: number of results (pairs, point
        answers; 1/0 for HasCollisions) and the sum of depths or distances
        [m] (None where there is none)."""
        name = spec[0]
        if name == "HasCollisions":
            return int(bool(result)), None
        if name == "FindCollisionCandidates":
            return len(result), None
        if name == "ComputePointPairPenetration":
            return len(result), float(sum(r.depth for r in result))
        if name == "ComputeSignedDistancePairClosestPoints":
            return 1, float(result.distance)
        if name == "ComputeSignedDistanceToPoint":
            answers = [r for per_point in result for r in per_point]
            return len(answers), float(sum(r.distance for r in answers))
        return len(result), float(sum(r.distance for r in result))


def write_meshes(scene: dict, directory) -> None:
    """Writes every Mesh shape of the scene to an OBJ file in `directory`
    and records its path in the shape (untimed preparation)."""
    for g in scene["geometries"]:
        shape = g["shape"]
        if shape["type"] == "Mesh" and "path" not in shape:
            path = pathlib.Path(directory) / f"{scene['name']}_{g['name']}.obj"
            path.write_text(obj_text(shape["vertices"], shape["faces"]))
            shape["path"] = str(path)


# ---------------------------------------------------------------------------
# The benchmark plan: jobs (one scene each) and their rows.

SECTIONS = ("mixed", "pairs", "drake50", "drakedense", "convex", "mesh")
#: Sizes of Drake's dense bench scenes in the "drakedense" section.
DRAKE_DENSE_SIZES = (200, 1000)


def jobs(sections=SECTIONS, mixed_sizes=MIXED_SIZES, pair_names=None,
         convex_counts=CONVEX_VERTEX_COUNTS, mesh_subdivisions=MESH_SUBDIVISIONS) -> list:
    """The benchmark's jobs in run order. A job is {"key", "make" (scene
    factory), "first" (the query spec whose first call ends the build),
    "queries" [(row key, spec)]}; rows are keyed "<job key>/<label>", the
    build row "<job key>/build".

    The first two jobs, "process/first" (a small mixed scene) and
    "process/mesh" (a 20-triangle Mesh), are the process's first queries:
    their build rows include loading the compiled kernels (numba's cache,
    once per process), and their "warm" specs are called once each after
    the build (time in the build row's "warm_s"), so that the later build
    rows (registering geometries and their first query) no longer carry
    that load (the first Convex build measured 45–580 ms, of which ~40–575
    ms was loading, depending on which sections had run before it)."""
    out = [{"key": "process/first", "make": (lambda: mixed_scene(25)),
            "first": PENETRATION, "queries": [],
            "warm": [pairwise(math.inf), pairwise(DISTANCE_THRESHOLD_M), HAS_COLLISIONS,
                     points(POINT_THRESHOLD_M)]},
           {"key": "process/mesh", "make": (lambda: mesh_scene(0)),
            "first": one_point(math.inf), "queries": [], "warm": [points(math.inf)]}]
    if "mixed" in sections:
        for n in mixed_sizes:
            specs = [PENETRATION, pairwise(DISTANCE_THRESHOLD_M), HAS_COLLISIONS, CANDIDATES,
                     points(POINT_THRESHOLD_M)]
            out.append({"key": f"mixed/{n}", "make": (lambda n=n: mixed_scene(n)),
                        "first": PENETRATION, "queries": specs})
    if "pairs" in sections:
        for a, b in type_pairs():
            if pair_names and f"{a}-{b}" not in pair_names:
                continue
            out.append({"key": f"pairs/{a}-{b}", "make": (lambda a=a, b=b: pair_scene(a, b)),
                        "first": PENETRATION,
                        "queries": [PENETRATION, pairwise(DISTANCE_THRESHOLD_M)]})
    if "drake50" in sections:
        out.append({"key": "drake50/50", "make": (lambda: drake_bench_scene(50)),
                    "first": PENETRATION,
                    "queries": [PENETRATION, pairwise(0.1), HAS_COLLISIONS, CANDIDATES]})
    if "drakedense" in sections:
        # Drake's bench scenes N = 200 and 1000 (dense: ~5 % of all pairs
        # penetrate), HasCollisions only (a motion planner's query).
        for n in DRAKE_DENSE_SIZES:
            out.append({"key": f"drakedense/{n}", "make": (lambda n=n: drake_bench_scene(n)),
                        "first": HAS_COLLISIONS, "queries": [HAS_COLLISIONS]})
    if "convex" in sections:
        for v in convex_counts:
            out.append({"key": f"convex/{v}", "make": (lambda v=v: convex_build_scene(v)),
                        "first": pairwise(math.inf), "queries": [pairwise(math.inf)]})
        out.append({"key": "convex/20x100", "make": (lambda: convex_many_scene(20, 100)),
                    "first": pairwise(math.inf), "queries": [pairwise(math.inf)]})
        spec = pair("convexA", "convexB")
        out.append({"key": "convex/pair200", "make": (lambda: convex_pair_scene(200)),
                    "first": spec, "queries": [spec]})
    if "mesh" in sections:
        for s in mesh_subdivisions:
            out.append({"key": f"mesh/{20 * 4 ** s}", "make": (lambda s=s: mesh_scene(s)),
                        "first": one_point(math.inf),
                        "queries": [one_point(math.inf), points(math.inf)]})
    return out


def row_order(section: str) -> list:
    """Row labels of a section's jobs in run order ("build" first)."""
    order = ["build"]
    for job in jobs(sections=(section,), mixed_sizes=(25,), pair_names=["Sphere-Sphere"],
                    convex_counts=(100,), mesh_subdivisions=(0,)):
        order += [spec_label(spec) for spec in job["queries"] if spec_label(spec) not in order]
    return order


class CallCapped(BaseException):
    """Raised (by SIGALRM) inside a call that ran longer than its cap. A
    BaseException, so no `except Exception` in the measured code swallows it."""


class _Alarm:
    """Per-call cap by SIGALRM in the main thread. The handler is installed
    once (``with _Alarm(cap_s) as alarm``); ``arm()`` and ``disarm()`` are
    called outside the timed regions. A cap of None disables it."""

    def __init__(self, seconds):
        self.seconds = seconds

    def __enter__(self):
        if self.seconds is not None:
            import signal

            def _raise(signum, frame):
                raise CallCapped()
            self._old = signal.signal(signal.SIGALRM, _raise)
        return self

    def arm(self) -> None:
        if self.seconds is not None:
            import signal
            signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def disarm(self) -> None:
        if self.seconds is not None:
            import signal
            signal.setitimer(signal.ITIMER_REAL, 0)

    def __exit__(self, *exc):
        if self.seconds is not None:
            import signal
            self.disarm()
            signal.signal(signal.SIGALRM, self._old)
        return False


def _error(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0]


def run_jobs(runner: SceneGraphRunner, job_list: list, *, budget_s: float, cap_s=None,
             log=None) -> dict:
    """Runs every job: build (timed up to the end of the first query at pose
    0), then per query row a warm-up call at pose 0 (counts) and fresh calls
    (``time_fresh_calls``). A call longer than `cap_s` is aborted and its row
    recorded as {"capped_s"}; later rows of that scene rebuild it (rows of a
    scene whose build was capped are skipped). A query that raises is
    recorded as {"error"}. Returns {row key: record}."""
    import tempfile

    rows = {}
    with tempfile.TemporaryDirectory() as tmp, _Alarm(cap_s) as alarm:
        for job in job_list:
            scene = job["make"]()
            write_meshes(scene, tmp)
            key = job["key"]
            handle = None
            try:
                alarm.arm()
                t0 = time.perf_counter()
                handle = runner.build(scene)
                t1 = time.perf_counter()
                result = runner.query(handle, job["first"])
                t2 = time.perf_counter()
                alarm.disarm()
                count, value = runner.summarize(job["first"], result)
                build = {"build_s": t2 - t0, "first_query_s": t2 - t1,
                         "query": spec_label(job["first"]), "count": count, "value": value}
                warm = {}
                for spec in job.get("warm", ()):
                    alarm.arm()
                    t3 = time.perf_counter()
                    runner.query(handle, spec)
                    warm[spec_label(spec)] = time.perf_counter() - t3
                    alarm.disarm()
                if warm:
                    build["warm_s"] = warm
            except CallCapped:
                build, handle = {"capped_s": cap_s, "query": spec_label(job["first"])}, None
            except Exception as exc:  # a query refused (Drake throws) or a library bug
                alarm.disarm()
                build = {"error": _error(exc)}
            rows[f"{key}/build"] = build
            if log:
                log(key + "/build", build)
            for spec in job["queries"]:
                row_key = f"{key}/{spec_label(spec)}"
                if "capped_s" in build:
                    rows[row_key] = {"skipped": "build capped"}
                else:
                    rows[row_key], handle = _run_row(runner, scene, handle, spec, budget_s,
                                                     alarm)
                if log:
                    log(row_key, rows[row_key])
    return rows


def _run_row(runner, scene, handle, spec, budget_s, alarm) -> tuple:
    """One query row; returns (record, handle to reuse or None after a cap)."""
    record = {}
    try:
        alarm.arm()
        if handle is None:
            handle = runner.build(scene)
        runner.set_pose(handle, 0)
        t0 = time.perf_counter()
        result = runner.query(handle, spec)
        first = time.perf_counter() - t0
        alarm.disarm()
        count, value = runner.summarize(spec, result)
        record.update({"first_s": first, "count": count, "value": value})

        def set_pose(k):
            runner.set_pose(handle, k)
            alarm.arm()          # restarts the countdown for the next call

        record.update(time_fresh_calls(lambda: runner.query(handle, spec), set_pose,
                                       budget_s=budget_s))
        alarm.disarm()
    except CallCapped:
        # The scene's caches may be half-built: the next row rebuilds it.
        return {"capped_s": alarm.seconds, **record}, None
    except Exception as exc:  # Drake refuses the pair, or a library bug
        alarm.disarm()
        return {"error": _error(exc), **record}, handle
    return record, handle


def add_selection_arguments(parser, extra_sections: tuple = ()) -> None:
    """Command-line selection shared by the benchmark and the Drake tool."""
    parser.add_argument("--only", nargs="+", choices=SECTIONS + tuple(extra_sections),
                        default=None, metavar="SECTION",
                        help=f"sections to run (default: all of {', '.join(SECTIONS)})")
    parser.add_argument("--n", nargs="+", type=int, default=list(MIXED_SIZES),
                        help="mixed scene sizes (default: %(default)s)")
    parser.add_argument("--pairs", nargs="+", default=None, metavar="A-B",
                        help="type pairs of the per-pair table, e.g. Box-Cylinder "
                             "(default: all 28)")
    parser.add_argument("--convex", nargs="+", type=int, default=list(CONVEX_VERTEX_COUNTS),
                        help="Convex vertex counts (default: %(default)s)")
    parser.add_argument("--mesh", nargs="+", type=int, default=list(MESH_SUBDIVISIONS),
                        help="icosphere subdivisions of the Mesh rows (default: %(default)s)")
    parser.add_argument("--budget", type=float, default=10.0,
                        help="wall-time budget per row in s (fresh repeats stop there; "
                             "default %(default)s)")


def jobs_from_args(args) -> list:
    return jobs(args.only or SECTIONS, args.n, args.pairs, args.convex, args.mesh)


def machine_info() -> dict:
    import os
    import platform
    return {"platform": platform.platform(), "python": platform.python_version(),
            "cpu_count": os.cpu_count(), "numpy": np.__version__}
