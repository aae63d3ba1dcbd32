"""One ProximityScene per geometry state makes every pair query one call of
one compiled entry,
pair_queries.query, and the modules around it import no circle."""
from __future__ import annotations

import ast
import math
import pathlib

import numpy as np

from scenegraph import _jit
from scenegraph.proximity.compiled import pair_queries
from tests.scenegraph.proximity.controller_scene import ControllerScene

PROXIMITY = pathlib.Path(pair_queries.__file__).resolve().parents[1]


def _imported_modules(path: pathlib.Path) -> set:
    """Every module a file imports, at any level (functions included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_queries_around_the_scene_never_import_the_engine():
    # engine.py imports batched_queries.py and raycast.py; they take the
    # scene (scene.py), so nothing leads back to the engine.
    for name in ("batched_queries.py", "raycast.py", "scene.py", "broadphase.py",
                 "contact_manifold.py"):
        imported = _imported_modules(PROXIMITY / name)
        assert "scenegraph.proximity.engine" not in imported, name
    assert "scenegraph.proximity.engine" not in _imported_modules(
        PROXIMITY.parent / "hydroelastic" / "contact_query.py")


def test_every_pair_query_is_one_call_of_one_compiled_entry(monkeypatch):
    """Penetration, pairwise (bounded and not), one pair, HasCollisions,
    candidates, given pairs and Jacobians on a mixed scene (every shape
    kind, anchored rows, a filtered pair): the only compiled entry of the proximity
    kernels taken is pair_queries.query (once per scene), and each query
    calls it once (the Jacobians twice: candidates, then their answers)."""
    taken = []
    real_entry_point = _jit.entry_point

    def recorded(dispatcher, args):
        entry = real_entry_point(dispatcher, args)
        if not dispatcher.py_func.__module__.startswith("scenegraph.proximity"):
            return entry            # poses, rotations: not the proximity's kernels
        calls = []
        taken.append((dispatcher, calls))

        def counted(*a):
            calls.append(a[3])          # the mode
            return entry(*a)

        return counted

    monkeypatch.setattr(_jit, "entry_point", recorded)
    scene = ControllerScene(n=14, seed=3)
    query = scene.query()
    ids = scene.ids

    def modes(run):
        before = sum(len(c) for _, c in taken)
        run()
        return [m & 7 for _, c in taken for m in c][before:]

    from scenegraph.proximity.compiled import layout as L
    assert modes(query.ComputePointPairPenetration) == [L.QUERY_SELECT]
    assert modes(lambda: query.ComputeSignedDistancePairwiseClosestPoints(0.1)) == [
        L.QUERY_SELECT]
    assert modes(query.ComputeSignedDistancePairwiseClosestPoints) == [L.QUERY_SELECT_ROWS]
    assert modes(lambda: query.ComputeSignedDistancePairClosestPoints(ids[0], ids[3])) == [
        L.QUERY_SELECT_ROWS]
    scene.move()
    query = scene.query()
    assert modes(query.HasCollisions) == [L.QUERY_FIRST_HIT]
    assert modes(query.FindCollisionCandidates) == [L.QUERY_CANDIDATES]
    assert modes(lambda: query.compute_signed_distance_pairs([(ids[0], ids[1])], math.inf)) == [
        L.QUERY_SOLVE]
    assert modes(lambda: query.compute_signed_distance_jacobians(0.2)) == [
        L.QUERY_CANDIDATES, L.QUERY_SOLVE]
    assert [d for d, _ in taken] == [pair_queries.query]
    # The answers are the ones the public results carry.
    first = query.HasCollisions()
    assert first == bool(query.ComputePointPairPenetration())
    assert np.isfinite([p.depth for p in query.ComputePointPairPenetration()]).all()
