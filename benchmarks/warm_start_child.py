"""One new process's first answers, for benchmarks/bench_warm_start.py.

    <python> benchmarks/warm_start_child.py ours|pydrake queries|initialize

Prints one JSON line. "queries": wall and CPU seconds of the library's
import, then registering the 25-geometry mixed scene of
proximity_scenes.py (context, pose 0 fixed), then the first call of each
query kind, in WARM_QUERIES' order (each after its own fresh pose, so no
call reuses another's results). "initialize" (this library only: the
quick-start demo's RigidBodies system has no pydrake counterpart):
examples/quickstart.py's diagram built without a viewer, Simulator(diagram),
Initialize(), then the first AdvanceTo(0.01) (5 steps) and a later
AdvanceTo(0.02), so that a cost moved out of Initialize shows up in the first
steps. The clock starts before the library's import (the interpreter's own
start-up is left out, equal for both). The pydrake side runs from
tools/drake_warm_start_child.py (only tools/ may import pydrake), which
calls measure_queries with pydrake's classes.
"""
from __future__ import annotations

import json
import pathlib
import sys
import time

T_START, C_START = time.perf_counter(), time.process_time()

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import proximity_scenes as ps  # noqa: E402  (numpy only)

#: The first query of each kind, in this order.
WARM_QUERIES = (ps.PENETRATION, ps.pairwise(ps.DISTANCE_THRESHOLD_M), ps.HAS_COLLISIONS,
                ps.one_point(ps.POINT_THRESHOLD_M), ps.CANDIDATES,
                ps.pairwise(float("inf")))


def _clocks():
    return time.perf_counter(), time.process_time()


def measure_queries(load_api) -> dict:
    """{"import", "register", <query label>..., "total"}: (wall s, CPU s) of
    each step since the previous one; load_api() imports the library and
    returns SceneGraphRunner's class map."""
    steps = {}
    last = (T_START, C_START)

    def lap(name):
        nonlocal last
        now = _clocks()
        steps[name] = (now[0] - last[0], now[1] - last[1])
        last = now

    api = load_api()
    lap("import")
    runner = ps.SceneGraphRunner(api)
    handle = runner.build(ps.mixed_scene(25))
    lap("register")
    for k, spec in enumerate(WARM_QUERIES, start=1):
        runner.set_pose(handle, k)
        last = _clocks()          # the pose change is not the query's
        runner.query(handle, spec)
        lap(ps.spec_label(spec))
    end = _clocks()
    steps["total"] = (end[0] - T_START, end[1] - C_START)
    return steps


def measure_initialize() -> dict:
    """Quick-start diagram: build, Simulator, Initialize, first steps."""
    steps = {}
    last = _clocks()

    def lap(name):
        nonlocal last
        now = _clocks()
        steps[name] = (now[0] - last[0], now[1] - last[1])
        last = now

    from examples import quickstart
    from systems.analysis.simulator import Simulator
    lap("import")
    diagram, _, _ = quickstart.build(None)
    simulator = Simulator(diagram)
    lap("build + Simulator")
    simulator.Initialize()
    lap("Initialize")
    simulator.AdvanceTo(0.01)
    lap("first AdvanceTo(0.01)")
    simulator.AdvanceTo(0.02)
    lap("next AdvanceTo(0.02)")
    return steps


def main(argv=None) -> int:
    which, what = (argv or sys.argv[1:])[:2]
    if which != "ours":
        raise SystemExit("this script measures this library; pydrake's side is "
                         "tools/drake_warm_start_child.py")
    if what == "initialize":
        steps = measure_initialize()
    else:
        import bench_proximity
        steps = measure_queries(bench_proximity.library_api)
    print(json.dumps({"library": which, "what": what, "steps": steps}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
