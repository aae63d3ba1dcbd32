"""Property-based fuzzing of every shape pair through the QueryObject's
distance and penetration queries (hypothesis), as a user would call them:
shapes registered in a SceneGraph, poses on frame inputs.

For each random pair (sizes 1 mm .. 10 m, thin shapes included, random
rotations, separated / touching / penetrating placements):

* nothing is NaN for finite input; normals are unit vectors;
* ComputeSignedDistancePairClosestPoints: |p_WCa − p_WCb| = |φ| and
  p_WCa − p_WCb = φ·nhat_BA_W; the same answer with the arguments swapped
  (ids, witnesses and the normal exchanged) and with the registration order
  reversed; ComputeSignedDistancePairwiseClosestPoints reports the same φ;
* ComputeSignedDistanceToPoint from each witness point to its own geometry
  is ≈ 0 (the witnesses lie on the surfaces);
* penetration and signed distance agree: ComputePointPairPenetration lists
  the pair iff φ < 0 (up to a rounding band), with depth = −φ, and
  HasCollisions agrees.

Tolerances follow docs/proximity.md: certified answers to 1e-9 of the
pair's size; an answer the engine warns is "not certified" (its coarse
GJK/EPA estimate) to the documented 1e-6 of the pair's size.

Profiles: the default (CI) runs FUZZ_EXAMPLES (12) examples per pair; the
long profile (``pytest --fuzz-long tests/robustness/test_query_fuzz.py`` or
``FUZZ_LONG=1``) runs 2,000 per pair. A failure prints the falsifying example
in full (vertices and poses included), ready to paste into a reproduction.
With ``FUZZ_SURVEY=<file>`` every example runs even after failures, and one
JSON line per pair (examples run, examples the engine warned were not
certified, wall seconds, failures per invariant -- an example counts under
its first failing invariant, keyed by that assert's source line or by the
exception type, prefixed "(uncertified)" when the engine warned -- and the
first failing example of each) is appended to <file>: failure rates instead
of the first failure. The test still fails if any example failed.
"""
from __future__ import annotations

import collections
import itertools
import json
import math
import os
import time
import traceback
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from scenegraph import (Box, Capsule, Convex, Cylinder, Ellipsoid, FramePoseVector,
                        GeometryFrame, GeometryInstance, HalfSpace, Mesh,
                        ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix

KINDS = ("Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "HalfSpace", "Convex", "Mesh")
PAIRS = [(a, b) for a, b in itertools.combinations_with_replacement(KINDS, 2)
         if (a, b) != ("HalfSpace", "HalfSpace")]

LONG = os.environ.get("FUZZ_LONG", "") not in ("", "0")
EXAMPLES = 2000 if LONG else int(os.environ.get("FUZZ_EXAMPLES", "12"))
SURVEY = os.environ.get("FUZZ_SURVEY") or None
with open(__file__, encoding="utf-8") as _f:
    _SOURCE = _f.read().splitlines()

# Tolerances relative to the pair's scale (largest extent): certified
# answers are exact to rounding level (docs/proximity.md), these leave room
# for the composition with world poses; uncertified ones are documented to
# about 1e-6 of the pair's size.
REL = 1e-9
REL_UNCERTIFIED = 1e-6

sizes = st.floats(min_value=-3.0, max_value=1.0).map(lambda e: 10.0 ** e)  # 1 mm .. 10 m


def _hull_mesh(points):
    """(vertices (3, N), outward-oriented faces (M, 3)) of the convex hull."""
    from scipy.spatial import ConvexHull
    hull = ConvexHull(points)
    used = np.unique(hull.simplices)
    index = {int(v): i for i, v in enumerate(used)}
    V = points[used]
    centre = V.mean(axis=0)
    faces = []
    for a, b, c in hull.simplices:
        tri = [index[int(a)], index[int(b)], index[int(c)]]
        n = np.cross(V[tri[1]] - V[tri[0]], V[tri[2]] - V[tri[0]])
        if n @ (V[tri[0]] - centre) < 0:
            tri[1], tri[2] = tri[2], tri[1]
        faces.append(tri)
    return V.T.copy(), np.array(faces, dtype=np.int64)


@st.composite
def shapes(draw, kind):
    """(Shape, size [m]) of `kind`; one dimension may be 1e-3..1e-4 of the others."""
    s = [draw(sizes) for _ in range(3)]
    if draw(st.booleans()) and draw(st.booleans()):
        s[draw(st.integers(0, 2))] = max(s) * draw(st.floats(1e-4, 1e-3))
    if kind == "Sphere":
        return Sphere(s[0]), s[0]
    if kind == "Box":
        return Box(*s), max(s)
    if kind == "Capsule":
        return Capsule(s[0], s[1]), s[0] + s[1] / 2
    if kind == "Cylinder":
        return Cylinder(s[0], s[1]), max(s[0], s[1] / 2)
    if kind == "Ellipsoid":
        return Ellipsoid(*s), max(s)
    if kind == "HalfSpace":
        return HalfSpace(), 0.0
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    points = rng.normal(size=(draw(st.integers(6, 16)), 3)) * np.array(s)
    size = float(np.abs(points).max())
    if kind == "Convex":
        return Convex(points.T.copy()), size
    V, F = _hull_mesh(points)
    return Mesh(V, faces=F, label="hull"), size


@st.composite
def rotations(draw):
    q = np.array([draw(st.floats(-1.0, 1.0)) for _ in range(4)])
    assume(np.linalg.norm(q) > 1e-3)
    w, x, y, z = q / np.linalg.norm(q)
    return RotationMatrix(np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]))


@st.composite
def placements(draw, kind_a, kind_b):
    A, size_a = draw(shapes(kind_a))
    B, size_b = draw(shapes(kind_b))
    X_WA = RigidTransform(draw(rotations()),
                          np.array([draw(st.floats(-10.0, 10.0)) for _ in range(3)]))
    d = np.array([draw(st.floats(-1.0, 1.0)) for _ in range(3)])
    assume(np.linalg.norm(d) > 1e-3)
    reach = size_a + size_b
    p_WB = X_WA.translation() + d / np.linalg.norm(d) * reach * draw(st.floats(0.0, 1.5))
    X_WB = RigidTransform(draw(rotations()), p_WB)
    return A, X_WA, B, X_WB, max(size_a, size_b, 1e-3)


class _Pair:
    """A SceneGraph with geometry A on frame fa and B on frame fb (registered
    in that order, or reversed), posed by the frames' inputs."""

    def __init__(self, A, X_WA, B, X_WB, reverse=False):
        sg = SceneGraph()
        source = sg.RegisterSource("fuzz")
        order = [("b", B, X_WB), ("a", A, X_WA)] if reverse else [("a", A, X_WA),
                                                                   ("b", B, X_WB)]
        frames, self.ids = {}, {}
        for name, shape, _ in order:
            frames[name] = sg.RegisterFrame(source, GeometryFrame(name))
            self.ids[name] = sg.RegisterGeometry(source, frames[name], GeometryInstance(
                RigidTransform(), shape, name))
            sg.AssignRole(source, self.ids[name], ProximityProperties())
        context = sg.CreateDefaultContext()
        poses = {frames[name]: X for name, _, X in order}
        sg.get_source_pose_port(source).FixValue(context, FramePoseVector(poses))
        self.query = sg.get_query_output_port().Eval(context)
        self.X = {"a": X_WA, "b": X_WB}

    def pair(self, first, second):
        """(φ, p_WC_first, p_WC_second, nhat pointing from second into first)."""
        r = self.query.ComputeSignedDistancePairClosestPoints(self.ids[first],
                                                              self.ids[second])
        p_first = self.X[first].multiply(r.p_ACa)
        p_second = self.X[second].multiply(r.p_BCb)
        if r.id_A == self.ids[first]:
            return r.distance, p_first, p_second, np.asarray(r.nhat_BA_W)
        # The result is in the engine's canonical order: swap back.
        p_first = self.X[first].multiply(r.p_BCb)
        p_second = self.X[second].multiply(r.p_ACa)
        return r.distance, p_first, p_second, -np.asarray(r.nhat_BA_W)


def _close(x, y, tol):
    return np.all(np.abs(np.asarray(x) - np.asarray(y)) <= tol)


def describe(shape, X) -> dict:
    """A shape and its pose as plain data (enough to rebuild both)."""
    record = {"shape": repr(shape), "R": X.rotation().matrix().tolist(),
              "p": X.translation().tolist()}
    if isinstance(shape, (Convex, Mesh)):
        record["vertices"] = shape.mesh_vertices().tolist()
        if shape.mesh_faces() is not None:
            record["faces"] = shape.mesh_faces().tolist()
    return record


def _check(A, X_WA, B, X_WB, scale, status=None) -> None:
    """Checks every invariant of one example; status["certified"] (if given)
    says whether the engine certified its answers (no "not certified"
    warning), also when an invariant fails."""
    note(f"A = {describe(A, X_WA)!r}")
    note(f"B = {describe(B, X_WB)!r}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            _check_answers(A, X_WA, B, X_WB, scale, caught)
        finally:
            if status is not None:
                status["certified"] = _certified(caught)


def _certified(caught) -> bool:
    return not any("not certified" in str(w.message) for w in caught)


def _check_answers(A, X_WA, B, X_WB, scale, caught):
    scene = _Pair(A, X_WA, B, X_WB)
    phi, p_a, p_b, n = scene.pair("a", "b")
    tol = (REL if _certified(caught) else REL_UNCERTIFIED) * scale
    # No NaN for finite input; unit normal; the witnesses realise φ.
    assert math.isfinite(phi) and np.isfinite(p_a).all() and np.isfinite(p_b).all()
    assert np.isfinite(n).all() and abs(np.linalg.norm(n) - 1.0) <= 1e-12
    assert abs(np.linalg.norm(p_a - p_b) - abs(phi)) <= tol
    assert _close(p_a - p_b, phi * n, tol)
    # Swapping the ids gives the same answer, exchanged.
    phi2, q_b, q_a, m = scene.pair("b", "a")
    assert abs(phi2 - phi) <= tol
    assert _close(q_a, p_a, tol) and _close(q_b, p_b, tol) and _close(m, -n, 1e-9)
    # Registration order does not change the answer.
    reverse = _Pair(A, X_WA, B, X_WB, reverse=True)
    phi3, r_a, r_b, k = reverse.pair("a", "b")
    tol = (REL if _certified(caught) else REL_UNCERTIFIED) * scale
    assert abs(phi3 - phi) <= tol, (phi, phi3)
    # The all-pairs query reports the same φ.
    [pairwise] = scene.query.ComputeSignedDistancePairwiseClosestPoints()
    assert abs(pairwise.distance - phi) <= tol
    # The witnesses lie on their own surfaces (point query back to each).
    for name, p_WC in (("a", p_a), ("b", p_b)):
        distances = {d.id_G: d.distance
                     for d in scene.query.ComputeSignedDistanceToPoint(p_WC)}
        on_surface = distances[scene.ids[name]]
        assert math.isfinite(on_surface) and abs(on_surface) <= 10 * tol, (name, on_surface)
    # Penetration agrees with the sign of φ (up to a rounding band).
    penetrations = scene.query.ComputePointPairPenetration()
    band = 1e-10 * scale
    if phi < -band:
        [pen] = penetrations
        assert abs(pen.depth + phi) <= tol
        assert math.isfinite(pen.depth) and np.isfinite(pen.p_WCa).all()
        assert abs(np.linalg.norm(pen.nhat_BA_W) - 1.0) <= 1e-12
        assert scene.query.HasCollisions()
    elif phi > band:
        assert penetrations == []
        assert not scene.query.HasCollisions()


@pytest.mark.parametrize("kinds", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_query_object_pair_invariants(kinds):
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                     HealthCheck.data_too_large])
    @given(placements(*kinds))
    def run(case):
        if SURVEY is None:
            _check(*case)
            return
        survey["examples"] += 1
        status = {"certified": True}
        try:
            _check(*case, status=status)
        except Exception as error:  # noqa: BLE001 -- the survey counts every failure
            if isinstance(error, AssertionError):
                # The failing invariant: the source line of its assert, as this
                # module was when imported (editing the file during a long
                # run must not relabel the counts).
                key = _SOURCE[traceback.extract_tb(error.__traceback__)[-1].lineno - 1].strip()
            else:
                key = f"{type(error).__name__} raised"
            if not status["certified"]:
                key = f"(uncertified) {key}"
            failures[key] += 1
            first.setdefault(key, {"error": str(error).split("\n")[0][:300],
                                   "A": describe(case[0], case[1]),
                                   "B": describe(case[2], case[3])})
        finally:
            survey["uncertified"] += not status["certified"]

    survey, failures, first = collections.Counter(), collections.Counter(), {}
    start = time.perf_counter()
    run()
    if SURVEY is not None:
        with open(SURVEY, "a") as f:
            f.write(json.dumps({"pair": "-".join(kinds), "examples": survey["examples"],
                                "uncertified": survey["uncertified"],
                                "seconds": round(time.perf_counter() - start, 2),
                                "failures": dict(failures), "first": first}) + "\n")
        assert not failures, (f"{sum(failures.values())} of {survey['examples']} examples "
                              f"failed: {dict(failures)}")
