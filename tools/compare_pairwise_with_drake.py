"""Compares ComputeSignedDistancePairwiseClosestPoints here and in Drake on a
benchmark mixed scene, pair by pair, and checks the largest disagreements
against an independent convex program.

    .venv/bin/python tools/compare_pairwise_with_drake.py [--n 3000] [--pose 0]
        [--max-distance 0.05] [--check 5]

Drake runs in the scratch virtualenv (/work/drake-venv, never a dependency)
on the same seeded scene (benchmarks/proximity_scenes.py), in a subprocess of
this script. Printed: pairs only one side returns and the `--check` pairs with
the largest distance difference, each with our distance, Drake's and the
minimum of |x − y|² over x in A, y in B from scipy's SLSQP (Convex hulls as
convex combinations of their vertices; primitives by their inequalities),
restarted from both centres and from points between them and our witnesses
(the program is convex: any converged answer is the minimum).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

import proximity_scenes as ps  # noqa: E402

DRAKE_PYTHON = "/work/drake-venv/bin/python"


def pair_list(api: dict, n: int, pose: int, max_distance: float) -> tuple:
    """(runner handle, {(name A, name B): distance}) for one scene and pose."""
    runner = ps.SceneGraphRunner(api)
    handle = runner.build(ps.mixed_scene(n))
    runner.set_pose(handle, pose)
    names = {v: k for k, v in handle["ids"].items()}
    out = {}
    for r in runner.query(handle, ps.pairwise(max_distance)):
        a, b = names[r.id_A], names[r.id_B]
        out[(a, b) if a < b else (b, a)] = r.distance
    return handle, out


def _drake_main(n: int, pose: int, max_distance: float, path: str) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    from drake_bench_proximity import pydrake_api
    _, pairs = pair_list(pydrake_api(), n, pose, max_distance)
    with open(path, "w") as f:
        json.dump([[a, b, d] for (a, b), d in pairs.items()], f)


def _body(query_object, geometry_id, offset: int):
    """(SLSQP inequality constraints on w[offset:offset+3] (a point of the
    geometry, in W), centre p_WG) for a primitive; for a Convex, None and
    its hull's vertices in W."""
    from scipy.spatial import ConvexHull
    inspector = query_object.inspector()
    shape = inspector.GetShape(geometry_id)
    X = query_object.GetPoseInWorld(geometry_id)
    R, p = X.rotation().matrix(), X.translation()
    kind = type(shape).__name__

    def local(w):
        return R.T @ (w[offset:offset + 3] - p)

    if kind == "Convex":
        V = np.asarray(shape.GetConvexHull().vertices(), float) @ R.T + p
        return None, V[ConvexHull(V).vertices]
    if kind == "Box":
        h = np.array([shape.width(), shape.depth(), shape.height()]) / 2
        return [{"type": "ineq", "fun": (lambda w, i=i, s=s: h[i] - s * local(w)[i])}
                for i in range(3) for s in (1.0, -1.0)], p
    if kind == "Sphere":
        r = shape.radius()
        return [{"type": "ineq", "fun": lambda w: r * r - local(w) @ local(w)}], p
    if kind == "Cylinder":
        r, half = shape.radius(), shape.length() / 2
        return [{"type": "ineq", "fun": lambda w: r * r - local(w)[0] ** 2 - local(w)[1] ** 2},
                {"type": "ineq", "fun": lambda w: half - local(w)[2]},
                {"type": "ineq", "fun": lambda w: half + local(w)[2]}], p
    if kind == "Capsule":
        r, half = shape.radius(), shape.length() / 2

        def inside(w):
            q = local(w)
            z = np.clip(q[2], -half, half)
            return r * r - (q[0] ** 2 + q[1] ** 2 + (q[2] - z) ** 2)
        return [{"type": "ineq", "fun": inside}], p
    if kind == "Ellipsoid":
        axes = np.array([shape.a(), shape.b(), shape.c()])
        return [{"type": "ineq", "fun": lambda w: 1.0 - np.sum((local(w) / axes) ** 2)}], p
    raise ValueError(f"no convex program for {kind}")


def program_distance(query_object, id_A, id_B, starts) -> float:
    """min |x − y| over x in A, y in B (SLSQP, several starts), or nan."""
    from scipy.optimize import minimize
    cons_A, data_A = _body(query_object, id_A, 0)
    cons_B, data_B = _body(query_object, id_B, 3)
    if cons_A is None and cons_B is None:  # two hulls: convex combinations
        A, B = data_A, data_B
        nA = len(A)

        def f(w):
            d = w[:nA] @ A - w[nA:] @ B
            return d @ d

        def grad(w):
            d = w[:nA] @ A - w[nA:] @ B
            return np.concatenate([2 * A @ d, -2 * B @ d])
        w0 = np.concatenate([np.full(nA, 1 / nA), np.full(len(B), 1 / len(B))])
        res = minimize(f, w0, jac=grad, bounds=[(0, 1)] * len(w0), method="SLSQP",
                       constraints=[{"type": "eq", "fun": lambda w: w[:nA].sum() - 1},
                                    {"type": "eq", "fun": lambda w: w[nA:].sum() - 1}],
                       options={"ftol": 1e-18, "maxiter": 2000})
        return float(np.sqrt(res.fun)) if res.success else float("nan")
    if cons_A is None or cons_B is None:
        return float("nan")  # Convex against a primitive: not needed so far
    best = np.inf
    for w0 in starts:
        res = minimize(lambda w: np.sum((w[:3] - w[3:]) ** 2), w0, method="SLSQP",
                       constraints=cons_A + cons_B, options={"ftol": 1e-18, "maxiter": 2000})
        if res.success:
            best = min(best, float(np.sqrt(res.fun)))
    return best if np.isfinite(best) else float("nan")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--pose", type=int, default=0)
    parser.add_argument("--max-distance", type=float, default=0.05)
    parser.add_argument("--check", type=int, default=5)
    parser.add_argument("--drake-out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.drake_out:
        _drake_main(args.n, args.pose, args.max_distance, args.drake_out)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        path = str(pathlib.Path(tmp) / "drake.json")
        subprocess.run([DRAKE_PYTHON, __file__, "--n", str(args.n), "--pose", str(args.pose),
                        "--max-distance", str(args.max_distance), "--drake-out", path],
                       check=True, stderr=subprocess.DEVNULL)
        drake = {(a, b): d for a, b, d in json.load(open(path))}
    from bench_proximity import library_api
    handle, ours = pair_list(library_api(), args.n, args.pose, args.max_distance)
    print(f"N = {args.n}, pose {args.pose}, max_distance {args.max_distance}: "
          f"{len(ours)} pairs here, {len(drake)} in Drake")
    query_object = handle["query_port"].Eval(handle["context"])
    ids = handle["ids"]

    def report(pair, label):
        a, b = ids[pair[0]], ids[pair[1]]
        r = query_object.ComputeSignedDistancePairClosestPoints(a, b)
        X_A, X_B = query_object.GetPoseInWorld(a), query_object.GetPoseInWorld(b)
        c_A = X_A.rotation().matrix() @ r.p_ACa + X_A.translation()
        c_B = X_B.rotation().matrix() @ r.p_BCb + X_B.translation()
        rng = np.random.default_rng(0)
        centres = np.concatenate([X_A.translation(), X_B.translation()])
        starts = [centres] + [0.5 * (centres + np.concatenate([c_A, c_B]))
                              + rng.normal(scale=1e-3, size=6) for _ in range(5)]
        program = program_distance(query_object, a, b, starts)
        drake_d = drake.get(pair)
        print(f"  {label} {pair[0]}–{pair[1]}: here {r.distance:.12g}, Drake "
              f"{'-' if drake_d is None else format(drake_d, '.12g')}, program {program:.12g}")

    for pair in sorted(set(ours) ^ set(drake)):
        report(pair, "only here " if pair in ours else "only Drake")
    common = sorted(set(ours) & set(drake), key=lambda k: -abs(ours[k] - drake[k]))
    for pair in common[:args.check]:
        report(pair, f"Δ {abs(ours[pair] - drake[pair]):.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
