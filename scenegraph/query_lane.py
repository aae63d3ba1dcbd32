"""The pose-change lane: a QueryObject's query right after a pose change, in one pass.

A controller's step changes the poses, then asks a query: the world poses are
out of date, so the query reads the context's caches, refreshes the world
poses (SceneGraph._refresh_world_poses -> PoseComposer.compose_one), stores
them, and the proximity engine takes its scene's rows of them
(ProximityScene.poses) before its compiled call. Each of those layers
re-reads its own objects; in the benchmark's loop (a pose set generated with
numpy between calls, as a controller computes its next poses) those objects
and the compiled code are no longer in the caches, and the layers cost ~8 µs
of the mixed N = 25 penetration query's ~60 µs, about twice what they cost
when hot (notes in docs/speed.md).

`refreshed_rows` does the same work in one function, on the objects a lane
(`_Lane`, resolved once per engine and pose topology) holds: the same checks
in the same order, the same kernels, the same cache stores. Anything it does
not take returns None before it changes anything, and the caller takes the
general path, which handles (and reports) it:

* a QueryObject without a context (a baked copy), an engine out of date, or
  world poses already up to date (the general path reads them as they are);
* several pose sources, or the source's port connected rather than fixed;
* a pose vector that is not a FramePoseVector, misses a frame or holds an
  extra one, packed rows of another frame order, arrays that are not
  C-contiguous float64;
* a pose the compiled composition flags (non-finite, or beyond ±1.3e150 m).
"""
from __future__ import annotations

import numpy as np

from scenegraph.kinematics_vector import (_F64, _STRIDES_3, _STRIDES_33, FramePoseVector,
                                          WorldPoses, _concatenate)

__all__ = ["refreshed_rows"]

_empty = np.empty


class _Lane:
    """What one engine's pose-change lane reads, resolved once: the pose
    inputs it was resolved for (SceneGraph._pose_inputs: replaced when
    another topology is composed), the composer's kernel entry and arrays,
    and the scene rows' gather (None when the scene's rows are the
    topology's geometries in order)."""

    __slots__ = ("inputs", "topology", "fixed_index", "composer", "count", "getter", "entry",
                 "parent_index", "frame_index", "R_FG", "p_FG", "nG", "rows", "gather")

    def __init__(self, scene_graph, scene):
        inputs = scene_graph._pose_inputs
        composer = inputs[1]
        self.inputs, self.topology, self.fixed_index = inputs, inputs[0], inputs[3]
        self.composer = composer
        self.count, self.getter, self.entry = composer._count, composer._getter, composer._entry
        self.parent_index, self.frame_index, self.R_FG, self.p_FG = composer._arrays
        self.nG, self.rows = composer._nG, composer.rows
        self.gather = None if scene.identity_count == self.nG else scene.pose_index


def _lane_of(engine, scene_graph, context):
    """The engine's lane for the scene graph's current pose inputs, or None
    when there is none to take: not one source, the kernel not loaded, or
    inputs resolved for another topology than the context's (SceneGraph
    keeps one set of pose inputs for all its contexts). A lane is made only
    for inputs of its context's topology, and the engine stays valid only
    while that context's geometry state is unchanged: so while the scene
    graph's inputs are the lane's, they are the context's."""
    inputs = scene_graph._pose_inputs
    if inputs is None or inputs[3] < 0 or inputs[1]._entry is None or inputs[1]._count < 1:
        return None
    state = context._parameters._abstract[scene_graph._state_index]._value
    if state._topology is not inputs[0]:
        return None
    lane = engine._lane = _Lane(scene_graph, engine.scene)
    return lane


def refreshed_rows(query_object):
    """(engine, R (n, 3, 3), p (n, 3), memo) of the new poses: the world
    poses composed and stored in the context's cache, and the engine's scene
    rows of them (as ProximityScene.poses gives them) — or None, with nothing
    changed, when the lane does not take this call (module docstring).
    """
    context = query_object._context
    if context is None:
        return None
    scene_graph = query_object._scene_graph
    cache = context._cache
    held = cache[scene_graph._engine_index]
    if not held.valid:
        return None
    held_poses = cache[scene_graph._world_poses_index]
    if held_poses.valid:
        return None
    engine = held.value._value
    lane = engine._lane
    if lane is None or lane.inputs is not scene_graph._pose_inputs:
        # SceneGraph._refresh_world_poses' first condition (the inputs were
        # resolved for this context's topology) is checked here (_lane_of).
        lane = _lane_of(engine, scene_graph, context)
        if lane is None:
            return None
    # Its second: the source's pose port fixed.
    fixed = context._fixed_inputs[lane.fixed_index]
    if fixed is None:
        return None
    poses = fixed._payload._value
    if type(poses) is not FramePoseVector:
        return None
    # PoseComposer.compose_one, written out.
    packed = poses._packed
    if packed is not None:
        if packed[0] is not lane.composer._packed_keys[0]:
            return None
        R_in, p_in = packed[1], packed[2]
        if not (R_in.dtype is _F64 and R_in.strides == _STRIDES_33 and p_in.dtype is _F64
                and p_in.strides == _STRIDES_3):
            return None
    else:
        values = poses._dict
        if len(values) != lane.count:
            return None
        try:
            Xs = lane.getter(values)
        except KeyError:
            return None
        if lane.count == 1:
            R_in, p_in = Xs[0]._R, Xs[0]._p
            if not (R_in.dtype is _F64 and R_in.strides == _STRIDES_33 and p_in.dtype is _F64
                    and p_in.strides == _STRIDES_3):
                return None
        else:
            R_in = _concatenate([X._R for X in Xs])
            p_in = _concatenate([X._p for X in Xs])
            if not (R_in.dtype is _F64 and R_in.ndim == 2 and p_in.dtype is _F64
                    and p_in.ndim == 1):
                return None
    nG = lane.nG
    R_WG, p_WG = _empty((nG, 3, 3)), _empty((nG, 3))
    rows = lane.rows
    if lane.entry(lane.parent_index, R_in, p_in, rows, lane.frame_index, lane.R_FG, lane.p_FG,
                  True, R_WG, p_WG) != 0:
        return None     # flagged: the general path composes again and reports it
    world_poses = WorldPoses(lane.topology, (R_in, p_in, rows), None, None, R_WG, p_WG, True)
    scene_graph.num_world_pose_calcs += 1
    # fast_lane.store_value, written out.
    held_poses.value._value = world_poses
    held_poses.valid = True
    held_poses.serial_number += 1
    # ProximityScene.poses' first cases, written out.
    gather = lane.gather
    if gather is None:
        R, p = R_WG, p_WG
    else:
        R, p = R_WG.take(gather, axis=0), p_WG.take(gather, axis=0)
    memo = {}
    engine.scene.pose_state = (world_poses, R, p, memo)
    return engine, R, p, memo
