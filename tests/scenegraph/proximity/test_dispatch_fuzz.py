"""Hypothesis fuzzing of the pair kernels: random shapes (thin, tiny and very
large included), random poses, every kind pair. Checks invariants with the
independent oracle's support functions and implicit surfaces, and that
nothing crashes or hangs:

* φ finite, |nhat_BA_W| = 1, p_WCa − p_WCb = φ·nhat_BA_W;
* the witnesses lie on the surfaces (half spaces: on the plane);
* φ is the best separation: φ ≥ the oracle's gap along random directions,
  and the gap along our normal equals φ (it realises the answer);
* swapping A and B gives the same φ, exchanged witnesses, a negated normal;
* the penetration query agrees with the signed-distance query.

Every answer must be certified (closed form, or the refinement's
certificate: compiled/refinement.py). Tolerances are relative to the pair's
size: 1e-10, i.e. rounding plus the oracle's own accuracy on extreme shapes
(aspect ratios up to 1e4).
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scenegraph.proximity import dispatch
from scenegraph.proximity.shape_data import shape_data_from_reference
from tests.scenegraph.proximity.pair_oracle import OracleBody, phi

KINDS = ("Box", "Capsule", "Convex", "Cylinder", "Ellipsoid", "HalfSpace", "Sphere")

sizes = st.floats(min_value=-3.0, max_value=1.0).map(lambda e: 10.0 ** e)  # 1 mm .. 10 m


@st.composite
def shapes(draw, kind):
    thin = draw(st.booleans()) and draw(st.booleans())
    s = [draw(sizes) for _ in range(3)]
    if thin:  # one dimension 1e-3 .. 1e-4 of the others
        s[draw(st.integers(0, 2))] = max(s) * draw(st.floats(1e-4, 1e-3))
    if kind == "Sphere":
        return {"type": kind, "radius": s[0]}
    if kind == "Box":
        return {"type": kind, "width": s[0], "depth": s[1], "height": s[2]}
    if kind in ("Capsule", "Cylinder"):
        return {"type": kind, "radius": s[0], "length": s[1]}
    if kind == "Ellipsoid":
        return {"type": kind, "a": s[0], "b": s[1], "c": s[2]}
    if kind == "HalfSpace":
        return {"type": kind}
    seed = draw(st.integers(0, 2 ** 31))
    pts = np.random.default_rng(seed).normal(size=(draw(st.integers(6, 20)), 3)) * s
    return {"type": "Convex", "vertices": pts.tolist()}


@st.composite
def rotations(draw):
    q = np.array([draw(st.floats(-1.0, 1.0)) for _ in range(4)])
    assume(np.linalg.norm(q) > 1e-3)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _size(shape):
    return max([v for k, v in shape.items() if isinstance(v, float)] or
               [float(np.abs(np.asarray(shape.get("vertices", [[1.0]]))).max())])


@st.composite
def pairs(draw):
    ka = draw(st.sampled_from(KINDS))
    kb = draw(st.sampled_from(KINDS))
    assume(not (ka == "HalfSpace" and kb == "HalfSpace"))
    A, B = draw(shapes(ka)), draw(shapes(kb))
    RA, RB = draw(rotations()), draw(rotations())
    pA = np.array([draw(st.floats(-10.0, 10.0)) for _ in range(3)])
    d = np.array([draw(st.floats(-1.0, 1.0)) for _ in range(3)])
    assume(np.linalg.norm(d) > 1e-3)
    reach = (_size(A) if ka != "HalfSpace" else 0.0) + (_size(B) if kb != "HalfSpace" else 0.0)
    pB = pA + d / np.linalg.norm(d) * reach * draw(st.floats(0.0, 1.5))
    return A, RA, pA, B, RB, pB


def _tolerance(A, B):
    return 1e-10


def _scale(A, B):
    return max([_size(s) for s in (A, B) if s["type"] != "HalfSpace"] + [1.0])


def _run(A, RA, pA, B, RB, pB, pen=False):
    f = dispatch.penetration_pairs if pen else dispatch.signed_distance_pairs
    r = f([shape_data_from_reference(A)], [RA], [pA], [shape_data_from_reference(B)], [RB], [pB])
    assert r.status[0] != 1, "answer not certified"  # 0 exact, 2 beyond max_distance
    return float(r.distance[0]), r.p_WCa[0], r.p_WCb[0], r.nhat_BA_W[0]


@settings(max_examples=250, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(pairs(), st.integers(0, 2 ** 31))
def test_pair_invariants(case, seed):
    A, RA, pA, B, RB, pB = case
    scale = _scale(A, B)
    tol = _tolerance(A, B) * scale
    oA, oB = OracleBody(A, RA, pA), OracleBody(B, RB, pB)
    f, pa, pb, n = _run(A, RA, pA, B, RB, pB)
    assert np.isfinite(f) and np.isfinite(pa).all() and np.isfinite(pb).all()
    assert abs(np.linalg.norm(n) - 1.0) < 1e-12
    assert np.abs(pa - pb - f * n).max() <= 1e-10 * scale
    assert abs(oA.residual(pa)[0]) <= tol
    assert abs(oB.residual(pb)[0]) <= tol

    bounded = A["type"] != "HalfSpace" and B["type"] != "HalfSpace"
    if bounded:
        U = np.random.default_rng(seed).normal(size=(64, 3))
        assert phi(oA, oB, U).max() <= f + tol
        assert abs(phi(oA, oB, n[None])[0] - f) <= tol

    g, qa, qb, m = _run(B, RB, pB, A, RA, pA)
    assert abs(g - f) <= tol
    if bounded:
        assert abs(phi(oA, oB, -m[None])[0] - f) <= tol

    h = _run(A, RA, pA, B, RB, pB, pen=True)[0]
    assert (h <= 0.0) == (f <= 0.0) or abs(f) <= 1e-12 * scale
    if f <= 0.0:
        assert abs(h - f) <= 1e-12 * scale


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "HalfSpace"])
def test_coincident_centres_do_not_hang(kind):
    """Identical shapes at the same pose (the python-fcl hang surface, F2)."""
    shape = {"Sphere": {"type": "Sphere", "radius": 0.1},
             "Box": {"type": "Box", "width": 0.1, "depth": 0.2, "height": 0.3},
             "Capsule": {"type": "Capsule", "radius": 0.05, "length": 0.2},
             "Cylinder": {"type": "Cylinder", "radius": 0.05, "length": 0.2},
             "Ellipsoid": {"type": "Ellipsoid", "a": 0.1, "b": 0.2, "c": 0.3},
             "Convex": {"type": "Convex", "vertices": np.random.default_rng(0).normal(
                 size=(10, 3)).tolist()}}[kind]
    R = np.eye(3)
    p = np.zeros(3)
    f, pa, pb, n = _run(shape, R, p, shape, R, p)
    assert f < 0.0 and abs(np.linalg.norm(n) - 1.0) < 1e-12
    assert np.abs(pa - pb - f * n).max() < 1e-12
