"""Writes tests/reference_data/autodiff_witnesses.json: pydrake 1.51's SceneGraph_[AutoDiffXd]
answers (values and derivatives) for the pairs and point queries Drake supports in
AutoDiffXd — signed distance pairs sphere–sphere/box/halfspace, penetration
sphere–sphere/box/cylinder/capsule/halfspace, point query of sphere/box/capsule/halfspace —
so tests/scenegraph/test_autodiff_witnesses.py compares the library's witnesses, normals,
nearest points and gradients with their derivatives against Drake's. (pydrake cannot read
a PenetrationAsPointPair_[AutoDiffXd]'s vectors from Python: only its depth is recorded.)

Scene: frame A on W at X_WA(z[:6]), frame B on W at X_WB(z[6:]), with
X(z) = [Rz(z0) Ry(z1) Rx(z2) R0, p0 + z[3:6]] at z = 0 (12 derivatives); geometry A at
X_AGa, geometry B at X_BGb. Run with /work/drake-venv/bin/python tools/autodiff_witness_reference.py.
"""
from __future__ import annotations

import json
import os

import numpy as np
from pydrake.autodiffutils import AutoDiffXd, InitializeAutoDiff
from pydrake.geometry import (Box, Capsule, Cylinder, FramePoseVector_, GeometryFrame,
                              GeometryInstance, HalfSpace, ProximityProperties,
                              SceneGraph_, Sphere)
from pydrake.math import RigidTransform, RigidTransform_, RollPitchYaw, RotationMatrix_

T = AutoDiffXd
NZ = 12
OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "reference_data",
                   "autodiff_witnesses.json")

SHAPES = {"sphere": lambda p: Sphere(*p), "box": lambda p: Box(*p),
          "capsule": lambda p: Capsule(*p), "cylinder": lambda p: Cylinder(*p),
          "halfspace": lambda p: HalfSpace()}

# name: (query, shape A, params A, shape B, params B, (rpy, p) of X_WA base, X_WB base,
#        X_AGa, X_BGb; for "point": p_WQ)
CASES = {
    "distance sphere-sphere": ("distance", "sphere", [0.1], "sphere", [0.15],
                               ([0.1, 0.2, 0.3], [0.0, 0.0, 0.0]),
                               ([0.3, -0.2, 0.1], [0.3, 0.2, 0.1]),
                               ([0.0, 0.0, 0.0], [0.01, 0.0, 0.02]),
                               ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])),
    "distance sphere-box": ("distance", "sphere", [0.1], "box", [0.4, 0.3, 0.2],
                            ([0.0, 0.0, 0.0], [0.05, 0.05, 0.32]),
                            ([0.2, 0.4, -0.3], [0.0, 0.0, 0.0]),
                            ([0.1, 0.0, 0.2], [0.01, 0.0, 0.02]),
                            ([0.0, 0.1, 0.0], [0.02, 0.0, 0.0])),
    "distance box-sphere": ("distance", "box", [0.4, 0.3, 0.2], "sphere", [0.1],
                            ([0.2, 0.4, -0.3], [0.0, 0.0, 0.0]),
                            ([0.0, 0.0, 0.0], [0.33, 0.1, 0.3]),
                            ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
                            ([0.3, 0.0, 0.0], [0.0, 0.0, 0.0])),
    "distance sphere-box overlapping": ("distance", "sphere", [0.1], "box", [0.4, 0.3, 0.2],
                                        ([0.0, 0.0, 0.0], [0.1, 0.05, 0.12]),
                                        ([0.2, 0.4, -0.3], [0.0, 0.0, 0.0]),
                                        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
                                        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])),
    "distance sphere-halfspace": ("distance", "sphere", [0.1], "halfspace", [],
                                  ([0.3, 0.1, 0.0], [0.1, -0.2, 0.3]),
                                  ([0.1, -0.2, 0.05], [0.0, 0.0, 0.0]),
                                  ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
                                  ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])),
    "penetration sphere-box": ("penetration", "sphere", [0.1], "box", [0.4, 0.3, 0.2],
                               ([0.0, 0.0, 0.0], [0.1, 0.05, 0.12]),
                               ([0.2, 0.4, -0.3], [0.0, 0.0, 0.0]),
                               ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
                               ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])),
    "penetration sphere-cylinder": ("penetration", "sphere", [0.1], "cylinder", [0.08, 0.3],
                                    ([0.0, 0.0, 0.0], [0.12, 0.05, 0.05]),
                                    ([0.2, 0.4, -0.3], [0.0, 0.0, 0.0]),
                                    ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
                                    ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])),
    "penetration capsule-sphere": ("penetration", "capsule", [0.05, 0.4], "sphere", [0.1],
                                   ([0.2, 0.4, -0.3], [0.0, 0.0, 0.0]),
                                   ([0.0, 0.0, 0.0], [0.1, 0.04, 0.05]),
                                   ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
                                   ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])),
    "penetration sphere-sphere": ("penetration", "sphere", [0.1], "sphere", [0.15],
                                  ([0.1, 0.2, 0.3], [0.0, 0.0, 0.0]),
                                  ([0.3, -0.2, 0.1], [0.15, 0.1, 0.05]),
                                  ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
                                  ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])),
    "penetration halfspace-sphere": ("penetration", "halfspace", [], "sphere", [0.1],
                                     ([0.1, -0.2, 0.05], [0.0, 0.0, 0.0]),
                                     ([0.3, 0.1, 0.0], [0.1, -0.2, 0.05]),
                                     ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
                                     ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])),
}
for shape, params, p_WQ in (("sphere", [0.2], [0.18, 0.22, 0.26]),
                            ("sphere", [0.2], [0.05, -0.04, -0.06]),
                            ("box", [0.4, 0.3, 0.2], [0.18, 0.22, 0.26]),
                            ("box", [0.4, 0.3, 0.2], [0.05, -0.04, -0.06]),
                            ("capsule", [0.1, 0.4], [0.18, 0.22, 0.26]),
                            ("capsule", [0.1, 0.4], [0.05, -0.04, -0.06]),
                            ("halfspace", [], [0.18, 0.22, 0.26])):
    where = "outside" if p_WQ[0] > 0.1 else "inside"
    CASES[f"point {shape} {where}"] = (
        "point", "sphere", [0.01], shape, params,
        ([0.0, 0.0, 0.0], [5.0, 5.0, 5.0]), ([0.2, 0.4, -0.3], [0.02, -0.01, 0.03]),
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]), ([0.1, 0.0, 0.2], [0.0, 0.0, 0.0]), p_WQ)


def _pose(z, base):
    rpy, p0 = base
    Rot = RotationMatrix_[T]
    R0 = Rot(RollPitchYaw(rpy).ToRotationMatrix().matrix().astype(object) * T(1.0))
    R = Rot.MakeZRotation(z[0]) @ Rot.MakeYRotation(z[1]) @ Rot.MakeXRotation(z[2]) @ R0
    return RigidTransform_[T](R, np.asarray(p0, dtype=object) + z[3:6])


def _ad(v):
    return {"value": [float(x.value()) for x in v],
            "derivatives": [np.asarray(x.derivatives(), float).tolist() for x in v]}


def _scalar(x):
    return {"value": float(x.value()), "derivatives": np.asarray(x.derivatives(), float).tolist()}


def run(case):
    query_kind, sa, pa, sb, pb, base_a, base_b, X_AGa, X_BGb = case[:9]
    sg = SceneGraph_[T]()
    source = sg.RegisterSource("s")
    fa = sg.RegisterFrame(source, GeometryFrame("A"))
    fb = sg.RegisterFrame(source, GeometryFrame("B"))
    ids = []
    for frame, s, p, X in ((fa, sa, pa, X_AGa), (fb, sb, pb, X_BGb)):
        pose = RigidTransform(RollPitchYaw(X[0]), X[1])
        g = sg.RegisterGeometry(source, frame, GeometryInstance(pose, SHAPES[s](p), s))
        sg.AssignRole(source, g, ProximityProperties())
        ids.append(g)
    context = sg.CreateDefaultContext()
    z = InitializeAutoDiff(np.zeros(NZ)).reshape(-1)
    poses = FramePoseVector_[T]()
    poses.set_value(fa, _pose(z[:6], base_a))
    poses.set_value(fb, _pose(z[6:], base_b))
    sg.get_source_pose_port(source).FixValue(context, poses)
    query = sg.get_query_output_port().Eval(context)
    if query_kind == "distance":
        r = query.ComputeSignedDistancePairClosestPoints(ids[0], ids[1])
        return {"distance": _scalar(r.distance), "p_ACa": _ad(r.p_ACa), "p_BCb": _ad(r.p_BCb),
                "nhat_BA_W": _ad(r.nhat_BA_W), "id_A_is_first": bool(r.id_A == ids[0])}
    if query_kind == "penetration":
        r, = query.ComputePointPairPenetration()
        # pydrake 1.51 cannot read PenetrationAsPointPair_[AutoDiffXd]'s vectors from
        # Python ("dtype=object arrays must be copied, and cannot be referenced").
        return {"depth": _scalar(r.depth), "id_A_is_first": bool(r.id_A == ids[0])}
    p_WQ = np.array([T(x) for x in case[9]])
    r = next(x for x in query.ComputeSignedDistanceToPoint(p_WQ) if x.id_G == ids[1])
    return {"distance": _scalar(r.distance), "p_GN": _ad(r.p_GN), "grad_W": _ad(r.grad_W)}


def main():
    out = {"generator": "tools/autodiff_witness_reference.py", "pydrake": "1.51.1",
           "num_derivatives": NZ, "cases": {}}
    for name, case in CASES.items():
        out["cases"][name] = {"input": {
            "query": case[0], "shape_A": [case[1], case[2]], "shape_B": [case[3], case[4]],
            "X_WA_base": case[5], "X_WB_base": case[6], "X_AGa": case[7], "X_BGb": case[8],
            **({"p_WQ": case[9]} if case[0] == "point" else {})}, "result": run(case)}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
    print(f"wrote {len(CASES)} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
