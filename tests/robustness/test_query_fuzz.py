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
import json
import math
import os
import time
import traceback
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings

from scenegraph import Convex, Mesh
from tests.robustness.fuzz_pairs import _Pair, PAIRS, placements


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
