"""Drake's reference scenes rebuilt through the public API: world poses and
collision-filter state (CollisionFiltered) must match what Drake reported."""
import itertools

import numpy as np
import pytest

from scenegraph import (Box, Capsule, CollisionFilterDeclaration, Convex, Cylinder, Ellipsoid,
                        FramePoseVector, GeometryFrame, GeometryInstance, GeometrySet,
                        GeometryState, HalfSpace, ProximityProperties, SceneGraphInspector, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix
from tests.reference_loader import pose_arrays, reference_cases


def _pose(record):
    R, p = pose_arrays(record)
    return RigidTransform(RotationMatrix(R), p)


def _shape(s):
    t = s["type"]
    if t == "Sphere":
        return Sphere(s["radius"])
    if t == "Box":
        return Box(s["width"], s["depth"], s["height"])
    if t in ("Capsule", "Cylinder"):
        return {"Capsule": Capsule, "Cylinder": Cylinder}[t](s["radius"], s["length"])
    if t == "Ellipsoid":
        return Ellipsoid(s["a"], s["b"], s["c"])
    if t == "HalfSpace":
        return HalfSpace()
    if t == "Convex":
        return Convex(np.array(s["vertices"], dtype=float).T, s.get("label", ""))
    raise ValueError(t)


def build(scene):
    st = GeometryState()
    s = st.RegisterSource("reference")
    frames = {f["name"]: st.RegisterFrame(s, GeometryFrame(f["name"])) for f in scene["frames"]}
    ids = {}
    for g in scene["geometries"]:
        inst = GeometryInstance(_pose(g["X_FG"]), _shape(g["shape"]), g["name"])
        inst.set_proximity_properties(ProximityProperties())
        ids[g["name"]] = (st.RegisterAnchoredGeometry(s, inst) if g["anchored"]
                          else st.RegisterGeometry(s, frames[g["frame"]], inst))

    def gset(rec):
        return GeometrySet([ids[n] for n in rec["geometries"]], [frames[n] for n in rec["frames"]])

    decl = CollisionFilterDeclaration()
    for op in scene["collision_filters"]:
        if op["op"] == "ExcludeWithin":
            decl.ExcludeWithin(gset(op["set"]))
        else:
            decl.ExcludeBetween(gset(op["set_a"]), gset(op["set_b"]))
    st.collision_filter_manager().Apply(decl)
    poses = FramePoseVector({frames[f["name"]]: _pose(f["X_WF"]) for f in scene["frames"]})
    return st, s, frames, ids, poses


CASES = [(name, c) for name in ("point_pair_penetration", "signed_distance_pairwise",
                                "collision_candidates")
         for c in reference_cases(name)]


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[f"{n}-{c['case_id']}" for n, c in CASES])
def test_filtered_pairs_match_drake(case):
    st, s, frames, ids, poses = build(case["scene"])
    insp = SceneGraphInspector(st)
    names = [g["name"] for g in case["scene"]["geometries"]]
    filtered = {(a, b) for a, b in itertools.combinations(names, 2)
                if insp.CollisionFiltered(ids[a], ids[b])}
    assert filtered == {tuple(p) for p in case["filtered_pairs"]}


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[f"{n}-{c['case_id']}" for n, c in CASES])
def test_filtered_by_declarations_are_filtered_minus_invariants(case):
    st, s, frames, ids, poses = build(case["scene"])
    insp = SceneGraphInspector(st)
    geoms = {g["name"]: g for g in case["scene"]["geometries"]}

    def invariant(a, b):
        ga, gb = geoms[a], geoms[b]
        return (ga["anchored"] and gb["anchored"]) or (
            not ga["anchored"] and not gb["anchored"] and ga["frame"] == gb["frame"])

    got = {(a, b) for a, b in itertools.combinations(geoms, 2)
           if insp.CollisionFiltered(ids[a], ids[b]) and not invariant(a, b)}
    assert got == {tuple(p) for p in case["filtered_pairs_by_declarations"]}


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[f"{n}-{c['case_id']}" for n, c in CASES])
def test_world_poses_match_drake(case):
    st, s, frames, ids, poses = build(case["scene"])
    wp = st.CalcWorldPoses({s: poses})
    for g in case["scene"]["geometries"]:
        R, p = pose_arrays(g["X_WG"])
        X = wp.X_WG(ids[g["name"]])
        np.testing.assert_allclose(X.rotation().matrix(), R, rtol=0, atol=1e-15)
        np.testing.assert_allclose(X.translation(), p, rtol=0, atol=1e-15)
