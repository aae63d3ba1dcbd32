"""What the scene does with the narrow phase's per-pair status: a pair the
refinement could not certify warns, naming both geometries; a non-finite
answer raises, naming both; HasCollisions agrees with the penetration query
whichever pair collides first."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from scenegraph import (Box, Cylinder, Ellipsoid, FramePoseVector, GeometryFrame,
                        GeometryInstance, ProximityProperties, SceneGraph)
from scenegraph.math import RigidTransform
from scenegraph.proximity.compiled import layout
from scenegraph.proximity.compiled.layout import EXACT, UNCERTIFIED
from scenegraph.proximity.pair_result import PairBatchResult


def _scene(positions):
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    shapes = [Box(0.2, 0.2, 0.2), Cylinder(0.1, 0.2), Ellipsoid(0.1, 0.12, 0.08)]
    frames, ids = [], []
    for k, (shape, p) in enumerate(zip(shapes, positions)):
        frame = sg.RegisterFrame(source, GeometryFrame(f"f{k}"))
        gid = sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform(), shape,
                                                                  f"g{k}"))
        sg.AssignRole(source, gid, ProximityProperties())
        frames.append(frame)
        ids.append(gid)
    context = sg.CreateDefaultContext()
    poses = FramePoseVector()
    for frame, p in zip(frames, positions):
        poses.set_value(frame, RigidTransform(np.asarray(p, float)))
    sg.get_source_pose_port(source).FixValue(context, poses)
    query = sg.get_query_output_port().Eval(context)
    return query, ids


def _result(distance, status):
    r = PairBatchResult.empty(len(distance))
    r.distance[:] = distance
    r.status = np.asarray(status, dtype=np.int64)
    return r


def test_an_uncertified_pair_warns_naming_both_geometries():
    query, ids = _scene([[0, 0, 0], [1, 0, 0], [2, 0, 0]])
    scene = query._engine().scene
    res = _result([0.1, 0.2], [EXACT, UNCERTIFIED])
    with pytest.warns(RuntimeWarning, match=f"geometries {ids[1]} and {ids[2]}"):
        scene.checked(res, np.array([0, 1]), np.array([1, 2]), "AQuery")


def test_certified_pairs_do_not_warn():
    query, ids = _scene([[0, 0, 0], [1, 0, 0], [2, 0, 0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        query._engine().scene.checked(_result([0.1], [EXACT]), np.array([0]), np.array([1]), "Q")
        query.ComputeSignedDistancePairwiseClosestPoints()


def test_a_non_finite_answer_raises_naming_both_geometries():
    query, ids = _scene([[0, 0, 0], [1, 0, 0], [2, 0, 0]])
    res = _result([0.1, np.nan], [EXACT, EXACT])
    with pytest.raises(RuntimeError, match=f"geometries {ids[0]} and {ids[2]}"):
        query._engine().scene.checked(res, np.array([0, 0]), np.array([1, 2]), "AQuery")


@pytest.mark.parametrize("positions,colliding", [
    ([[0, 0, 0], [1, 0, 0], [2, 0, 0]], False),
    ([[0, 0, 0], [1, 0, 0], [1.15, 0, 0]], True),   # only the Cylinder and the Ellipsoid
    ([[0, 0, 0], [0.19, 0, 0], [2, 0, 0]], True),   # only the Box and the Cylinder
])
def test_has_collisions_agrees_with_the_penetration_query(positions, colliding):
    query, _ = _scene(positions)
    assert query.HasCollisions() is colliding
    query2, _ = _scene(positions)
    assert bool(query2.ComputePointPairPenetration()) is colliding


def _reporting(query, **stats):
    """The query's scene with its compiled entry wrapped to write `stats`
    (layout.STAT_* names: values) after each call, as the kernel reports a
    pair it could not certify or compute (a selection's code set to 1, as
    the kernel does then)."""
    scene = query._engine().scene
    state, entry = scene.compiled

    def entry_reporting(*args):
        code, rows, values = entry(*args)
        for name, value in stats.items():
            args[-1][getattr(layout, name)] = value
        if args[3] & layout.QUERY_MODE_MASK == layout.QUERY_SELECT:
            code = 1        # a selection's code says its stats flag something
        return code, rows, values

    scene.__dict__["compiled"] = (state, entry_reporting)


def test_penetration_warns_naming_the_uncertified_pair_the_kernel_reports():
    query, ids = _scene([[0, 0, 0], [0.19, 0, 0], [2, 0, 0]])
    _reporting(query, STAT_UNCERTIFIED=2, STAT_UNCERTIFIED_A=0, STAT_UNCERTIFIED_B=1)
    with pytest.warns(RuntimeWarning, match=f"geometries {ids[0]} and {ids[1]} \\(and 1 other"):
        assert len(query.ComputePointPairPenetration()) == 1


def test_penetration_raises_naming_the_non_finite_pair_the_kernel_reports():
    query, ids = _scene([[0, 0, 0], [0.19, 0, 0], [2, 0, 0]])
    _reporting(query, STAT_NAN_A=1, STAT_NAN_B=2)
    with pytest.raises(RuntimeError, match=f"geometries {ids[1]} and {ids[2]}: the signed"):
        query.ComputePointPairPenetration()
