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


def _half_spaces_and_a_ball(with_wall: bool):
    """An anchored floor (half space z <= 0), a ball on a frame sinking 0.1 m
    into it and, with_wall, a tilted half space on a frame too (a half-space
    pair among the candidates). Returns (scene, its rows' poses)."""
    from scenegraph import (FramePoseVector, GeometryFrame, GeometryInstance, HalfSpace,
                            ProximityProperties, SceneGraph, Sphere)
    from scenegraph.math import RigidTransform, RollPitchYaw
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    frame = sg.RegisterFrame(source, GeometryFrame("f"))
    shapes = [("floor", None, RigidTransform(), HalfSpace()),
              ("ball", frame, RigidTransform([0.0, 0.0, 0.1]), Sphere(0.2))]
    if with_wall:
        shapes.append(("wall", frame, RigidTransform(RollPitchYaw(1.2, 0.0, 0.0), [0, 0, 0]),
                       HalfSpace()))
    for name, parent, X, shape in shapes:
        instance = GeometryInstance(X, shape, name)
        gid = (sg.RegisterAnchoredGeometry(source, instance) if parent is None
               else sg.RegisterGeometry(source, parent, instance))
        sg.AssignRole(source, gid, ProximityProperties())
    context = sg.CreateDefaultContext()
    sg.get_source_pose_port(source).FixValue(context, FramePoseVector({frame: RigidTransform()}))
    query = sg.get_query_output_port().Eval(context)
    engine = sg._eval_proximity_engine(context)
    R, p, _ = engine.scene.poses(query._poses())
    return engine.scene, R, p


def test_a_selection_code_says_whether_its_stats_flag_anything():
    # QUERY_SELECT's code is 1 exactly when the stats must be read back.
    from scenegraph.proximity.broadphase import NO_PAIRS
    from scenegraph.proximity.compiled import layout

    def select(scene, flags, R, p):
        state, entry = scene.compiled
        stats = np.empty(layout.NUM_STATS, dtype=np.int64)
        code, rows, _ = entry(state, R, p, layout.QUERY_SELECT | flags, 0.0, 0.0, NO_PAIRS,
                              stats)
        return code, stats, rows

    penetration = layout.FLAG_NEGATE | layout.FLAG_REFUSE_HALFSPACE_PAIRS
    scene, R, p = _half_spaces_and_a_ball(with_wall=False)
    code, stats, rows = select(scene, penetration, R, p)     # the ball in the floor
    assert code == 0 and len(rows) == 1
    R_bad, p_bad = R.copy(), p.copy()
    p_bad[1, 0] = math.nan
    code, stats, rows = select(scene, penetration, R_bad, p_bad)
    assert code == 1 and stats[layout.STAT_BAD_ROW] == 1
    scene, R, p = _half_spaces_and_a_ball(with_wall=True)
    code, stats, rows = select(scene, penetration, R, p)
    assert code == 1 and stats[layout.STAT_HALFSPACE_PAIR] == 1
