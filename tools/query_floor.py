"""The straight-line floor of one Convex + Box distance query in CPython.

    .venv/bin/python tools/query_floor.py [--vertices 100 1000] [--calls 3000]

Builds the benchmark's Convex(V) + Box scene (benchmarks/proximity_scenes.py
convex_build_scene) and times, after every pose change (a new FramePoseVector
fixed on the pose port, as the benchmark does), three things interleaved:

  floor  the least Python a query can run: the frame's RigidTransform read
         from the fixed input, one call of the world-pose kernel, one call
         of the compiled pair query, one SignedDistancePair — the library's
         own objects and kernel entries, taken out of a warmed-up scene,
         with every check, cache and layer in between left out;
  port   the query port's Eval (the QueryObject every pydrake script asks for);
  query  the real query, query port included (what the benchmark times).

It prints the medians in µs. Drake's whole query on the same scene takes
6.5–8.3 µs (benchmarks/drake_proximity_times.json), so floor + port is the
least ratio this architecture (one port evaluation, a world-pose cache
entry, one compiled call, result objects) can reach for that row. It reads
private attributes of the library (a measurement, not an API): nothing
depends on it.
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from benchmarks import proximity_scenes as ps  # noqa: E402
from benchmarks.bench_proximity import library_api  # noqa: E402
from scenegraph.query_results import SignedDistancePair  # noqa: E402
from scenegraph.proximity.broadphase import NO_PAIRS  # noqa: E402
from scenegraph.proximity.compiled import layout  # noqa: E402


def _floor_call(handle):
    """A function running the straight-line query on the scene's context."""
    scene_graph, context = handle["scene_graph"], handle["context"]
    state = context._parameters._abstract[scene_graph._state_index]._value
    composer = state.pose_topology()._composer
    port_index = scene_graph._pose_inputs[3]
    engine = scene_graph._eval_proximity_engine(context)
    query_state, select = engine.scene.compiled   # pair_queries.query's entry
    compose = composer._entry
    nF, nG = composer._nF, composer._nG
    parent_index, frame_index, R_FG, p_FG = composer._arrays
    rows, getter, ids = composer.rows, composer._getter, engine._ids
    fixed_inputs = context._fixed_inputs

    def floor():
        X = getter(fixed_inputs[port_index]._payload._value._values)[0]
        R_WG, p_WG = np.empty((nG, 3, 3)), np.empty((nG, 3))
        compose(parent_index, X._R, X._p, rows, frame_index, R_FG, p_FG, True,
                np.empty((nF, 3, 3)), np.empty((nF, 3)), R_WG, p_WG)
        stats = np.empty(layout.NUM_STATS, np.int64)
        mode = layout.QUERY_SELECT | layout.FLAG_IN_FRAMES
        _, found, values = select(query_state, R_WG, p_WG, mode, 0.025, 0.05, NO_PAIRS, stats)
        return SignedDistancePair._rows_of(ids, found, values)

    return floor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertices", nargs="+", type=int, default=[100, 1000])
    parser.add_argument("--calls", type=int, default=3000)
    args = parser.parse_args()
    runner = ps.SceneGraphRunner(library_api())
    spec = ps.pairwise(0.05)
    for V in args.vertices:
        handle = runner.build(ps.convex_build_scene(V))
        runner.query(handle, spec)  # kernels loaded, engine and broadphase built
        floor, port = _floor_call(handle), handle["query_port"]
        times = {"floor": [], "port": [], "query": []}
        clock = time.perf_counter
        for i in range(args.calls):
            runner.set_pose(handle, i % 50)
            t0 = clock()
            mine = floor()
            times["floor"].append(clock() - t0)
            runner.set_pose(handle, i % 50)
            t0 = clock()
            port.Eval(handle["context"])
            times["port"].append(clock() - t0)
            runner.set_pose(handle, i % 50)
            t0 = clock()
            theirs = runner.query(handle, spec)
            times["query"].append(clock() - t0)
        assert len(mine) == len(theirs) == 1 and mine[0].distance == theirs[0].distance
        print(f"Convex({V} v.) + Box, µs: " + ", ".join(
            f"{k} {statistics.median(v) * 1e6:.1f}" for k, v in times.items()))


if __name__ == "__main__":
    main()
