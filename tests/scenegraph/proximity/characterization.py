"""The accuracy characterization of the pair answers with Drake's methodology (shapes about
20 cm, placed at a known 2 mm penetration and separation over random orientations; worst
error per pair): the shapes, the configurations, Drake's published errors and the table
of docs/proximity.md (python -m tests.scenegraph.proximity.characterization prints it)."""

from __future__ import annotations

import itertools

import numpy as np

from scenegraph.proximity import dispatch
from scenegraph.proximity.shape_data import shape_data_from_reference
from tests.scenegraph.proximity.random_poses import random_rotation
from tests.scenegraph.proximity.pair_oracle import OracleBody


DELTA = 0.002


KINDS = ("Box", "Capsule", "Convex", "Cylinder", "Ellipsoid", "HalfSpace", "Sphere")


# Drake's worst errors (PRECISION.md), keyed by the sorted pair; None: throws.
_P = {"Box": {"Box": 2e-15},
      "Capsule": {"Box": 3e-5, "Capsule": 2e-5},
      "Convex": {"Box": 2e-15, "Capsule": 3e-5, "Convex": 2e-15},
      "Cylinder": {"Box": 1e-3, "Capsule": 4e-5, "Convex": 1e-3, "Cylinder": 2e-3},
      "Ellipsoid": {"Box": 4e-4, "Capsule": 2e-4, "Convex": 4e-4, "Cylinder": 2e-3,
                    "Ellipsoid": 5e-4},
      "HalfSpace": {"Box": 6e-15, "Capsule": 4e-15, "Convex": 3e-15, "Cylinder": 4e-15,
                    "Ellipsoid": 3e-15, "HalfSpace": None},
      "Sphere": {"Box": 3e-15, "Capsule": 5e-15, "Convex": 3e-5, "Cylinder": 5e-15,
                 "Ellipsoid": 2e-4, "HalfSpace": 3e-15, "Sphere": 5e-15}}


_D = {"Box": {"Box": 4e-15},
      "Capsule": {"Box": 3e-6, "Capsule": 2e-5},
      "Convex": {"Box": 3e-15, "Capsule": 2e-5, "Convex": 3e-15},
      "Cylinder": {"Box": 6e-6, "Capsule": 1e-5, "Convex": 6e-6, "Cylinder": 2e-5},
      "Ellipsoid": {"Box": 9e-6, "Capsule": 5e-6, "Convex": 9e-6, "Cylinder": 5e-5,
                    "Ellipsoid": 2e-5},
      "HalfSpace": {k: None for k in KINDS},
      "Sphere": {"Box": 3e-15, "Capsule": 6e-15, "Convex": 3e-6, "Cylinder": 5e-15,
                 "Ellipsoid": 4e-5, "HalfSpace": 3e-15, "Sphere": 6e-15}}


def _drake(table, a, b):
    row = table.get(a, {})
    return row[b] if b in row else table[b][a]


DRAKE_PENETRATION = {p: _drake(_P, *p) for p in itertools.combinations_with_replacement(KINDS, 2)}


DRAKE_DISTANCE = {p: _drake(_D, *p) for p in itertools.combinations_with_replacement(KINDS, 2)}


TARGET = 1e-12


RANDOM_CONVEX = np.random.default_rng(7).normal(size=(14, 3))


RANDOM_CONVEX = 0.1 * RANDOM_CONVEX / np.abs(RANDOM_CONVEX).max()


SHAPES = {
    "Sphere": {"type": "Sphere", "radius": 0.1},
    "Box": {"type": "Box", "width": 0.2, "depth": 0.16, "height": 0.12},
    "Capsule": {"type": "Capsule", "radius": 0.06, "length": 0.14},
    "Cylinder": {"type": "Cylinder", "radius": 0.08, "length": 0.2},
    "Ellipsoid": {"type": "Ellipsoid", "a": 0.12, "b": 0.09, "c": 0.07},
    "Convex": {"type": "Convex", "vertices": RANDOM_CONVEX.tolist()},
    "HalfSpace": {"type": "HalfSpace"},
}


_rotation = random_rotation


def _unit(rng):
    v = rng.normal(size=3)
    return v / np.linalg.norm(v)


def contact_point(shape: dict, rng):
    """A surface point p_G (3,) with a unique outward normal n_G (3,)."""
    t = shape["type"]
    if t == "Sphere":
        n = _unit(rng)
        return shape["radius"] * n, n
    if t == "Ellipsoid":
        e = np.array([shape["a"], shape["b"], shape["c"]])
        p = e * _unit(rng)
        n = p / e ** 2
        return p, n / np.linalg.norm(n)
    if t == "Box":
        h = np.array([shape["width"], shape["depth"], shape["height"]]) / 2.0
        k, s = rng.integers(3), rng.choice([-1.0, 1.0])
        p = h * rng.uniform(-0.8, 0.8, size=3)
        p[k] = s * h[k]
        n = np.zeros(3)
        n[k] = s
        return p, n
    if t in ("Capsule", "Cylinder"):
        r, hl = shape["radius"], shape["length"] / 2.0
        a = rng.uniform(0.0, 2.0 * np.pi)
        radial = np.array([np.cos(a), np.sin(a), 0.0])
        mode = rng.integers(3)
        if t == "Capsule":
            if mode == 0:
                return r * radial + [0, 0, hl * rng.uniform(-0.8, 0.8)], radial
            n = _unit(rng)
            n[2] = abs(n[2]) * (1 if mode == 1 else -1)
            return n * r + [0, 0, hl * np.sign(n[2])], n
        if mode == 0:
            return r * radial + [0, 0, hl * rng.uniform(-0.8, 0.8)], radial
        s = 1.0 if rng.random() < 0.5 else -1.0
        if mode == 1:  # cap interior
            return r * rng.uniform(0.0, 0.8) * radial + [0, 0, s * hl], np.array([0, 0, s])
        b = rng.uniform(0.2, 1.3)  # rim: any normal between radial and axial
        n = np.cos(b) * radial + np.sin(b) * np.array([0, 0, s])
        return r * radial + [0, 0, s * hl], n / np.linalg.norm(n)
    if t == "Convex":
        from scipy.spatial import ConvexHull

        hull = ConvexHull(np.asarray(shape["vertices"], dtype=float))
        f = rng.integers(len(hull.simplices))
        w = rng.dirichlet([3.0, 3.0, 3.0])
        return w @ hull.points[hull.simplices[f]], hull.equations[f, :3]
    if t == "HalfSpace":
        return np.array([*rng.uniform(-0.1, 0.1, size=2), 0.0]), np.array([0.0, 0.0, 1.0])
    raise ValueError(t)


def _rotation_taking(n_from, n_to, rng):
    """A rotation R with R n_from = n_to, randomly spun about n_to."""
    def frame(n):
        a = np.eye(3)[np.argmin(np.abs(n))]
        t1 = np.cross(n, a)
        t1 /= np.linalg.norm(t1)
        return np.column_stack([t1, np.cross(n, t1), n])

    spin = rng.uniform(0.0, 2.0 * np.pi)
    c, s = np.cos(spin), np.sin(spin)
    Rz = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    return frame(n_to) @ Rz @ frame(n_from).T


def configurations(kind_A, kind_B, delta, count, rng):
    """`count` placements of (A, B) at signed distance delta: lists of
    (R_WA, p_WA, R_WB, p_WB) plus the exact normals nhat_BA (count, 3)."""
    RA, pA, RB, pB, nh = [], [], [], [], []
    for _ in range(count):
        R_WA = _rotation(rng)
        cA, nA = contact_point(SHAPES[kind_A], rng)
        cB, nB = contact_point(SHAPES[kind_B], rng)
        c_W, n_W = R_WA @ cA, R_WA @ nA
        R_WB = _rotation_taking(nB, -n_W, rng)
        RA.append(R_WA)
        pA.append(np.zeros(3))
        RB.append(R_WB)
        pB.append(c_W + delta * n_W - R_WB @ cB)
        nh.append(-n_W)
    return np.array(RA), np.array(pA), np.array(RB), np.array(pB), np.array(nh)


def characterize(num_orientations: int = 12, seed: int = 0) -> list[dict]:
    """Worst errors per shape pair; one row per sorted pair with keys:
    pair, penetration_error (depth, m), distance_error (signed distance at
    ±2 mm, m), witness_error (largest distance of a witness from its
    surface, m), normal_error (max |nhat − exact|), drake_penetration,
    drake_distance (None where Drake throws), target."""
    rng = np.random.default_rng(seed)
    rows = []
    for pair in itertools.combinations_with_replacement(KINDS, 2):
        a, b = pair
        dA = shape_data_from_reference(SHAPES[a])
        dB = shape_data_from_reference(SHAPES[b])
        row = {"pair": pair, "drake_penetration": DRAKE_PENETRATION[pair],
               "drake_distance": DRAKE_DISTANCE[pair], "target": TARGET}
        if pair == ("HalfSpace", "HalfSpace"):
            RA, pA = np.eye(3)[None], np.zeros((1, 3))
            RB = np.diag([1.0, -1.0, -1.0])[None]  # normal −z: anti-parallel
            pB = np.array([[0.0, 0.0, DELTA]])
            res = dispatch.signed_distance_pairs([dA], RA, pA, [dB], RB, pB)
            row.update(penetration_error=None, distance_error=abs(res.distance[0] - DELTA),
                       witness_error=0.0,
                       normal_error=float(np.abs(res.nhat_BA_W[0] - [0, 0, -1]).max()))
            rows.append(row)
            continue
        pen_err = dist_err = n_err = w_err = 0.0
        for delta in (DELTA, -DELTA):
            RA, pA, RB, pB, nh = configurations(a, b, delta, num_orientations, rng)
            n = len(RA)
            sd = dispatch.signed_distance_pairs([dA] * n, RA, pA, [dB] * n, RB, pB)
            dist_err = max(dist_err, float(np.abs(sd.distance - delta).max()))
            n_err = max(n_err, float(np.abs(sd.nhat_BA_W - nh).max()))
            w_err = max(w_err, _witness_error(a, b, RA, pA, RB, pB, sd))
            if delta < 0:
                pen = dispatch.penetration_pairs([dA] * n, RA, pA, [dB] * n, RB, pB)
                pen_err = max(pen_err, float(np.abs(-pen.distance + delta).max()))
                n_err = max(n_err, float(np.abs(pen.nhat_BA_W - nh).max()))
                w_err = max(w_err, _witness_error(a, b, RA, pA, RB, pB, pen))
        row.update(penetration_error=pen_err, distance_error=dist_err, witness_error=w_err,
                   normal_error=n_err)
        rows.append(row)
    return rows


def _witness_error(a, b, RA, pA, RB, pB, res) -> float:
    """Largest distance of the witnesses from their surfaces (half spaces:
    from their boundary planes) [m]."""
    worst = 0.0
    for k in range(len(RA)):
        for kind, R, p, w in ((a, RA[k], pA[k], res.p_WCa[k]), (b, RB[k], pB[k], res.p_WCb[k])):
            worst = max(worst, abs(float(OracleBody(SHAPES[kind], R, p).residual(w)[0])))
    return worst


def markdown_table(rows) -> str:
    """The characterization as a markdown table (ours next to Drake's)."""
    def f(x):
        return "throws" if x is None else f"{x:.0e}"

    lines = ["| pair | penetration: ours | Drake | signed distance: ours | Drake | witnesses "
             "| normal |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['pair'][0]}–{r['pair'][1]} | {f(r['penetration_error'])} | "
                     f"{f(r['drake_penetration'])} | {f(r['distance_error'])} | "
                     f"{f(r['drake_distance'])} | {f(r['witness_error'])} | "
                     f"{f(r['normal_error'])} |")
    return "\n".join(lines)


_ROWS = None


def _rows():
    global _ROWS
    if _ROWS is None:
        _ROWS = characterize()
    return _ROWS


if __name__ == "__main__":  # pragma: no cover
    print(markdown_table(characterize()))
