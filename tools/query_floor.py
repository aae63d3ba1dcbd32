"""The straight-line floor of one small query in CPython, and what the
compiled call alone costs.

    .venv/bin/python tools/query_floor.py [--vertices 100 1000] [--mixed 25 100]
                                          [--calls 3000]

Two kinds of scene, each timed after every pose change (a new
FramePoseVector fixed on the pose port, as the benchmark does), the
measurements interleaved:

* the benchmark's Convex(V) + Box scene (benchmarks/proximity_scenes.py
  convex_build_scene), ComputeSignedDistancePairwiseClosestPoints(0.05);
* the benchmark's mixed scene of N geometries (mixed_scene),
  ComputePointPairPenetration and HasCollisions.

Per query it prints the medians in µs of:

  floor     the least Python a query can run: the frames' RigidTransforms
            read from the fixed input, one call of the world-pose kernel,
            one call of the compiled pair query, the result objects — the
            library's own objects and kernel entries, taken out of a
            warmed-up scene, with every check, cache and layer in between
            left out;
  compiled  the compiled pair query's call alone, on poses computed before
            the pose change (what the narrow phase and broadphase cost when
            the set-up between two calls has just run, as in the benchmark);
  port      the query port's Eval (the QueryObject every pydrake script
            asks for; Convex scene only);
  query     the real query, query port included (what the benchmark times),
            each measured on its own pose sets (a pose set just run trains
            the compiled call's branch predictors),

and pydrake's whole query on the same scene from
benchmarks/drake_proximity_times.json: floor / pydrake is the least ratio
this architecture (one port evaluation, a world-pose cache entry, one
compiled call, result objects) reaches for that row, compiled / pydrake
what the compiled layer alone costs. It reads private attributes of the
library (a measurement, not an API): nothing depends on it.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from benchmarks import proximity_scenes as ps  # noqa: E402
from benchmarks.bench_proximity import DRAKE_TIMES, library_api  # noqa: E402
from scenegraph.query_results import PenetrationAsPointPair, SignedDistancePair  # noqa: E402
from scenegraph.proximity.broadphase import NO_PAIRS  # noqa: E402
from scenegraph.proximity.compiled import layout  # noqa: E402
from scenegraph.proximity.engine import PENETRATION_FLAGS  # noqa: E402

#: Per query: the compiled mode, margin and max_distance, and how results are made.
MODES = {
    "ComputeSignedDistancePairwiseClosestPoints": (
        layout.QUERY_SELECT | layout.FLAG_IN_FRAMES, 0.025, 0.05, SignedDistancePair._rows_of),
    "ComputePointPairPenetration": (
        layout.QUERY_SELECT | PENETRATION_FLAGS, 0.0, 0.0, PenetrationAsPointPair._rows_of),
    "HasCollisions": (layout.QUERY_FIRST_HIT, 0.0, 0.0, None),
}


def _floor_call(handle, name):
    """(floor, compiled): functions running the straight-line query on the
    scene's context, and the compiled call alone on given poses."""
    scene_graph, context = handle["scene_graph"], handle["context"]
    state = context._parameters._abstract[scene_graph._state_index]._value
    composer = state.pose_topology()._composer
    port_index = scene_graph._pose_inputs[3]
    engine = scene_graph._eval_proximity_engine(context)
    query_state, entry = engine.scene.compiled   # pair_queries.query's entry
    compose = composer._entry
    nG = composer._nG
    parent_index, frame_index, R_FG, p_FG = composer._arrays
    rows, getter, ids = composer.rows, composer._getter, engine._ids
    fixed_inputs = context._fixed_inputs
    pose_index = engine.scene.pose_index
    gather = len(pose_index) != nG or not np.array_equal(pose_index, np.arange(nG))
    mode, margin, max_distance, make = MODES[name]

    def floor():
        Xs = getter(fixed_inputs[port_index]._payload._value._values)
        R_in = np.concatenate([X._R for X in Xs])
        p_in = np.concatenate([X._p for X in Xs])
        R_WG, p_WG = np.empty((nG, 3, 3)), np.empty((nG, 3))
        compose(parent_index, R_in, p_in, rows, frame_index, R_FG, p_FG, True, R_WG, p_WG)
        if gather:
            R_WG, p_WG = R_WG.take(pose_index, axis=0), p_WG.take(pose_index, axis=0)
        stats = np.empty(layout.NUM_STATS, np.int64)
        code, found, values = entry(query_state, R_WG, p_WG, mode, margin, max_distance,
                                    NO_PAIRS, stats)
        return code >= 0 if make is None else make(ids, found, values)

    def compiled(R, p):
        stats = np.empty(layout.NUM_STATS, np.int64)
        return entry(query_state, R, p, mode, margin, max_distance, NO_PAIRS, stats)

    return floor, compiled


def _measure(runner, handle, spec, calls, with_port):
    """Medians [s] of floor, compiled, (port,) query after pose changes."""
    name = spec[0]
    runner.query(handle, spec)  # kernels loaded, engine and broadphase built
    floor, compiled = _floor_call(handle, name)
    engine = handle["scene_graph"]._eval_proximity_engine(handle["context"])
    port, context = handle["query_port"], handle["context"]
    # Each measurement cycles through its own 50 pose sets (floor: 0..49,
    # compiled: 50..99, port: 100..149, query: 150..199): a pose set timed
    # right after another measurement ran on it would find the compiled
    # call's branch predictors trained on it (~4 µs at mixed N = 25).
    poses = {}
    for k in range(50, 100):
        runner.set_pose(handle, k)
        R, p, _ = engine.scene.poses(port.Eval(context)._engine_and_poses()[1])
        poses[k] = (R.copy(), p.copy())
    times = {"floor": [], "compiled": [], "query": []}
    if with_port:
        times["port"] = []
    clock = time.perf_counter
    for i in range(calls):
        k = i % 50
        runner.set_pose(handle, k)
        t0 = clock()
        floor()
        times["floor"].append(clock() - t0)
        runner.set_pose(handle, 50 + k)
        R, p = poses[50 + k]
        t0 = clock()
        compiled(R, p)
        times["compiled"].append(clock() - t0)
        if with_port:
            runner.set_pose(handle, 100 + k)
            t0 = clock()
            port.Eval(context)
            times["port"].append(clock() - t0)
        runner.set_pose(handle, 150 + k)
        t0 = clock()
        runner.query(handle, spec)
        times["query"].append(clock() - t0)
    # The floor's answer is the query's (checked once, untimed).
    runner.set_pose(handle, 200)
    mine = floor()
    theirs = runner.query(handle, spec)
    if name == "HasCollisions":
        assert mine == theirs
    else:
        assert [r.depth if hasattr(r, "depth") else r.distance for r in mine] == \
            [r.depth if hasattr(r, "depth") else r.distance for r in theirs]
    return {k: statistics.median(v) for k, v in times.items()}


def _print(label, medians, drake_s):
    line = f"{label}, µs: " + ", ".join(f"{k} {v * 1e6:.1f}" for k, v in medians.items())
    if drake_s:
        line += (f"; pydrake {drake_s * 1e6:.1f} (floor {medians['floor'] / drake_s:.2f}x, "
                 f"compiled {medians['compiled'] / drake_s:.2f}x, "
                 f"query {medians['query'] / drake_s:.2f}x)")
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertices", nargs="*", type=int, default=[100, 1000])
    parser.add_argument("--mixed", nargs="*", type=int, default=[25, 100])
    parser.add_argument("--calls", type=int, default=3000)
    args = parser.parse_args()
    drake = json.loads(DRAKE_TIMES.read_text())["rows"] if DRAKE_TIMES.exists() else {}
    runner = ps.SceneGraphRunner(library_api())
    for V in args.vertices:
        handle = runner.build(ps.convex_build_scene(V))
        medians = _measure(runner, handle, ps.pairwise(0.05), args.calls, True)
        # (pydrake's pairwise(0.05) on this scene is not in the stored table:
        # 6.5–8.3 µs when last measured.)
        _print(f"Convex({V} v.) + Box, pairwise(0.05)", medians, None)
    for n in args.mixed:
        handle = runner.build(ps.mixed_scene(n))
        for spec in (ps.PENETRATION, ps.HAS_COLLISIONS):
            medians = _measure(runner, handle, spec, args.calls, False)
            row = drake.get(f"mixed/{n}/{spec[0]}", {})
            _print(f"mixed N = {n}, {spec[0]}", medians, row.get("median_s"))


if __name__ == "__main__":
    main()
