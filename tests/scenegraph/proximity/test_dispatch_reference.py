"""Pair kernels against Drake's reference answers and an independent oracle.

Each two-geometry case of signed_distance_pair.json (its `result` and its
`point_pair_penetration`) and every pair of point_pair_penetration.json is fed
to the dispatch directly from the geometries' X_WG (no SceneGraph).

* Pairs Drake computes exactly (closed forms, and GJK/SAT on polytopes): every
  field within 1e-9 of Drake's. Exception, recorded below: where Drake's
  penetration witnesses come from FCL's contact point they are not on the
  surfaces (Ellipsoid–HalfSpace, and Box/Convex–Convex); there depth and
  normal must match and our witnesses must satisfy the invariants.
* Pairs Drake solves iteratively: the answer must agree with the independent
  oracle (test_pair_oracle.py) within 1e-9 (target 1e-6), and with Drake only
  within Drake's own error, which the oracle measures. DRAKE_ERROR_SEEN lists
  that error per pair family on these cases; ours is below 1e-9 everywhere.
  Separated pairs are certified: the oracle's gap along our normal (a lower
  bound) equals the distance between our witnesses (an upper bound, the
  witnesses being checked on the surfaces).
* Where Drake throws (HalfSpace in signed distance), the oracle's closed form.
"""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph.proximity import dispatch
from scenegraph.proximity.shape_data import shape_data_from_reference
from tests.reference_loader import as_float, geometry_by_name, pose_arrays, reference_cases
from tests.scenegraph.proximity.pair_oracle import (OracleBody, halfspace_oracle,
                                                   oracle_signed_distance, phi)

EXACT = 1e-9      # closed forms against Drake
TARGET = 1e-9     # iterative pairs against the oracle (the issue asks 1e-6)

# Pair families (sorted type names) that Drake answers exactly.
DRAKE_EXACT_DISTANCE = {
    ("Sphere", "Sphere"), ("Box", "Sphere"), ("Capsule", "Sphere"), ("Cylinder", "Sphere"),
    ("HalfSpace", "Sphere"), ("Box", "Box"), ("Box", "Convex"), ("Convex", "Convex"),
}
# Box–Convex and Convex–Convex penetration go through FCL's EPA in Drake: exact
# for the shallow pair cases, but not minimal for the deep pairs of the
# multi-geometry scenes, so they are checked like the iterative families.
DRAKE_EXACT_PENETRATION = (DRAKE_EXACT_DISTANCE - {("Box", "Convex"), ("Convex", "Convex")}) | {
    ("Box", "HalfSpace"), ("Capsule", "HalfSpace"), ("Convex", "HalfSpace"),
    ("Cylinder", "HalfSpace"), ("Ellipsoid", "HalfSpace"),
}
# Drake's penetration witnesses from FCL's contact point, off the surfaces.
DRAKE_WITNESS_OFF_SURFACE = {("Ellipsoid", "HalfSpace")}

# Drake's signed-distance error on these cases, measured with the oracle
# (|Drake − truth|, m), per family; ours is < 1e-9 on every case. Penetration
# depths of these families in Drake are not minimum-translation depths: they
# exceed the true depth by up to DRAKE_DEPTH_EXCESS_SEEN (relative).
DRAKE_ERROR_SEEN = {
    ("Box", "Capsule"): 2e-7, ("Box", "Cylinder"): 1.4e-6, ("Box", "Ellipsoid"): 7.8e-5,
    ("Capsule", "Capsule"): 3e-6, ("Capsule", "Convex"): 2.2e-6,
    ("Capsule", "Cylinder"): 2.8e-6, ("Capsule", "Ellipsoid"): 1.6e-6,
    ("Convex", "Cylinder"): 8e-7, ("Convex", "Ellipsoid"): 9.2e-7,
    ("Convex", "Sphere"): 1.4e-6, ("Cylinder", "Cylinder"): 7.8e-7,
    ("Cylinder", "Ellipsoid"): 3.5e-6, ("Ellipsoid", "Ellipsoid"): 1.4e-6,
    ("Ellipsoid", "Sphere"): 6.8e-7,
}
DRAKE_DEPTH_EXCESS_SEEN = 0.35


def _family(a: str, b: str) -> tuple:
    return tuple(sorted((a, b)))


class Geo:
    """One reference geometry: library data, pose and oracle body."""

    def __init__(self, scene, name):
        g = geometry_by_name(scene, name)
        self.name = name
        self.shape = g["shape"]
        self.kind = g["shape"]["type"]
        self.data = shape_data_from_reference(g["shape"])
        self.R, self.p = pose_arrays(g["X_WG"])
        self.body = OracleBody(g["shape"], self.R, self.p)


def _query(A: Geo, B: Geo, penetration=False):
    f = dispatch.penetration_pairs if penetration else dispatch.signed_distance_pairs
    r = f([A.data], [A.R], [A.p], [B.data], [B.R], [B.p])
    return float(r.distance[0]), r.p_WCa[0], r.p_WCb[0], r.nhat_BA_W[0]


def _check_invariants(A, B, phi_, pa, pb, n, tol=1e-9):
    assert abs(np.linalg.norm(n) - 1.0) < 1e-12
    assert np.abs((pa - pb) - phi_ * n).max() < 1e-12
    if A.kind != "HalfSpace":
        assert abs(A.body.residual(pa)[0]) < tol, "Ca not on ∂A"
    if B.kind != "HalfSpace":
        assert abs(B.body.residual(pb)[0]) < tol, "Cb not on ∂B"


def _truth(A: Geo, B: Geo, phi_, pa, pb, n):
    """The true signed distance, certified or from the oracle (asserting ours
    agrees), for iterative families."""
    if A.kind == "HalfSpace" or B.kind == "HalfSpace":
        if B.kind == "HalfSpace":
            t, nh = halfspace_oracle(A.body, B.body)
        else:
            t, nh = halfspace_oracle(B.body, A.body)
            nh = -nh
        assert np.allclose(n, nh, atol=1e-12)
        return t
    along = phi(A.body, B.body, n[None, :])[0]  # lower bound, along our normal
    if phi_ > 0.0:
        upper = np.linalg.norm(pa - pb)  # witnesses checked on the surfaces
        assert along <= phi_ + 1e-12 and upper - along <= TARGET
        return along
    # Overlap: our depth is realised along our normal; the oracle searches all.
    assert abs(along - phi_) <= 1e-12
    t = _oracle(A, B)
    assert abs(t - phi_) <= TARGET, f"oracle {t!r} vs ours {phi_!r}"
    return max(t, phi_)


_ORACLE_CACHE: dict = {}


def _oracle(A: Geo, B: Geo) -> float:
    """oracle_signed_distance, cached per geometry pair (several tests ask)."""
    key = (A.name, B.name, A.p.tobytes(), B.p.tobytes())
    if key not in _ORACLE_CACHE:
        _ORACLE_CACHE[key] = oracle_signed_distance(A.body, B.body)[0]
    return _ORACLE_CACHE[key]


SD_CASES = reference_cases("signed_distance_pair")


@pytest.mark.parametrize("case", SD_CASES, ids=[c["case_id"] for c in SD_CASES])
def test_signed_distance_pair_case(case):
    scene = case["scene"]
    ref = case["result"]
    fam = _family(*case["shape_types"])
    if "throws" in ref:
        A = Geo(scene, case["query"]["geometry_id_A"])
        B = Geo(scene, case["query"]["geometry_id_B"])
    else:
        A, B = Geo(scene, ref["id_A"]), Geo(scene, ref["id_B"])
    phi_, pa, pb, n = _query(A, B)
    if A.kind == "HalfSpace" and B.kind == "HalfSpace":
        nA, nB = A.R[:, 2], B.R[:, 2]
        assert nA @ nB > -1.0 + 1e-9  # the stored case is not anti-parallel
        assert phi_ == -np.inf and abs(np.linalg.norm(n) - 1.0) < 1e-12
        return
    _check_invariants(A, B, phi_, pa, pb, n)
    if "throws" in ref:
        assert "HalfSpace" in case["shape_types"]
        _truth(A, B, phi_, pa, pb, n)
        return
    p_ACa = A.R.T @ (pa - A.p)
    p_BCb = B.R.T @ (pb - B.p)
    if fam in DRAKE_EXACT_DISTANCE:
        assert abs(phi_ - ref["distance"]) < EXACT
        assert np.abs(p_ACa - ref["p_ACa"]).max() < EXACT
        assert np.abs(p_BCb - ref["p_BCb"]).max() < EXACT
        assert np.abs(n - ref["nhat_BA_W"]).max() < EXACT
    else:
        truth = _truth(A, B, phi_, pa, pb, n)
        ours_err = abs(phi_ - truth)
        drake_err = abs(ref["distance"] - truth)
        assert ours_err <= TARGET
        assert drake_err <= DRAKE_ERROR_SEEN[fam]
        assert abs(phi_ - ref["distance"]) <= drake_err + TARGET


def _check_penetration(A, B, rec, scene_label):
    fam = _family(A.kind, B.kind)
    phi_, pa, pb, n = _query(A, B, penetration=True)
    assert phi_ <= 0.0, f"{scene_label}: Drake reports {A.name}/{B.name}, we do not"
    depth = -phi_
    _check_invariants(A, B, phi_, pa, pb, n)
    if fam in DRAKE_EXACT_PENETRATION:
        assert abs(depth - rec["depth"]) < EXACT
        assert np.abs(n - rec["nhat_BA_W"]).max() < EXACT
        if fam not in DRAKE_WITNESS_OFF_SURFACE:
            assert np.abs(pa - rec["p_WCa"]).max() < EXACT
            assert np.abs(pb - rec["p_WCb"]).max() < EXACT
    else:
        truth = _truth(A, B, phi_, pa, pb, n)
        assert abs(phi_ - truth) <= TARGET
        # Drake's depth is a valid but not always minimal separating translation.
        assert depth <= rec["depth"] + TARGET
        assert rec["depth"] - depth <= DRAKE_DEPTH_EXCESS_SEEN * rec["depth"] + TARGET


@pytest.mark.parametrize("case", SD_CASES, ids=[c["case_id"] for c in SD_CASES])
def test_point_pair_penetration_of_pair_case(case):
    scene = case["scene"]
    recs = case["point_pair_penetration"]
    names = [g["name"] for g in scene["geometries"]]
    if isinstance(recs, dict):  # Drake throws: two half spaces
        A, B = Geo(scene, names[0]), Geo(scene, names[1])
        with pytest.raises(RuntimeError, match="Halfspace' and 'Halfspace"):
            _query(A, B, penetration=True)
        return
    if not recs:
        A, B = Geo(scene, names[0]), Geo(scene, names[1])
        assert _query(A, B, penetration=True)[0] > 0.0
        return
    (rec,) = recs
    A, B = Geo(scene, rec["id_A"]), Geo(scene, rec["id_B"])
    _check_penetration(A, B, rec, case["case_id"])
    if case["config"] == "edge_touching":
        assert rec["depth"] == 0.0 and _query(A, B, penetration=True)[0] == 0.0


PEN_CASES = reference_cases("point_pair_penetration")


@pytest.mark.parametrize("case", PEN_CASES, ids=[c["case_id"] for c in PEN_CASES])
def test_point_pair_penetration_scene(case):
    scene = case["scene"]
    geos = [Geo(scene, g["name"]) for g in scene["geometries"]]
    index = {g.name: k for k, g in enumerate(geos)}
    filtered = {tuple(p) for p in case["filtered_pairs"]}
    I, J = [], []
    for i in range(len(geos)):
        for j in range(i + 1, len(geos)):
            if (geos[i].name, geos[j].name) not in filtered:
                I.append(i)
                J.append(j)
    table = dispatch.ShapeTable([g.data for g in geos])
    R = np.array([g.R for g in geos])
    p = np.array([g.p for g in geos])
    res = dispatch.penetration_pairs_indexed(table, R, p, I, J)
    ours = {frozenset((geos[i].name, geos[j].name))
            for i, j, d in zip(I, J, res.distance) if d <= 0.0}
    drake = {frozenset((r["id_A"], r["id_B"])) for r in case["result"]}
    assert ours == drake
    for rec in case["result"]:
        A, B = geos[index[rec["id_A"]]], geos[index[rec["id_B"]]]
        _check_penetration(A, B, rec, case["case_id"])
    assert all(as_float(r["depth"]) >= 0.0 for r in case["result"])
