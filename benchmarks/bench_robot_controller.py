"""One controller step on real robots against pydrake's MultibodyPlant.

Target (issue 29, part 5): one controller step — SetPositions, one body pose
(EvalBodyPoseInWorld), one spatial Jacobian (CalcJacobianSpatialVelocity)
and ComputeSignedDistancePairwiseClosestPoints(0.05) — in at most pydrake's
time, for an arm (Panda, UR5), a hand (Allegro), a quadruped (Go2) and a
mobile manipulator (TIAGo), on the same OBJ copies of example-robot-data's
URDFs (benchmarks/robot_models.py; pydrake refuses STL/DAE collision meshes).

Every measurement is a fresh process (``--one KEY``) running `measure`
below with one library's classes (tools/drake_bench_robot_controller.py runs
it with pydrake's). Untimed: load the robot as its URDF has it (a root link
not welded to the world gets a floating joint, in both libraries),
Finalize, Build, CreateDefaultContext. Then, for CONFIGURATIONS positions
(seeded: every coordinate with finite limits uniform in the middle 80 % of
its range, the others at their defaults), the step

    plant.SetPositions(plant_context, q)                     # set
    plant.EvalBodyPoseInWorld(plant_context, body)           # pose
    plant.CalcJacobianSpatialVelocity(plant_context, kV, body.body_frame(),
                                      p_BQ, world, world)    # jacobian
    scene_graph.get_query_output_port().Eval(sg_context) \\
        .ComputeSignedDistancePairwiseClosestPoints(0.05)    # distance

with q changing at every call (cycling through the configurations): WARMUP
untimed passes, then ROUNDS timed passes. `body` is the body farthest from
the world (most joints on its path; the first by index on a tie: Panda's
right finger, UR5's tool0, ...), p_BQ = (0.02, 0.01, 0.05) m. The record
holds the median seconds per step and per part (each part timed on its own
clock reads, so the parts add up to about the step), and counts (nq, nv,
bodies, proximity geometries, distance pairs at the first configuration).

Per robot the figure is the median over ``--repeats`` fresh processes. The
processes run with the bytecode cache on (benchmarks/bench_robots.process_env)
and a warm numba cache (an untimed process per robot first).

Clocks: ``--clock perf`` (default) times wall-clock (time.perf_counter);
``--clock process`` times the process's CPU time (time.process_time: a
system call per read, ~0.3 µs, paid by both libraries alike), which a
machine shared with other work inflates much less — on 2 cores at load 4-6
the wall-clock figures of a multi-millisecond step (TIAGo) vary by 3x from
one process to the next.

The pair counts can differ where pydrake's distance is off. At Panda's
first configuration this library reports 18 pairs within 0.05 m and pydrake
17: the pair panda_leftfinger/Box – panda_rightfinger/Box (the fingers'
first collision boxes) is 0.047295062572358 m apart by the closed form over
the two boxes' features (each vertex against the other box, every edge
pair), which this library gives to 4e-17 m; pydrake (FCL) reports
0.055864 m. pydrake also overestimates three more finger box pairs by
4.4–7.4 mm (all within 0.05 m either way) and panda_link7's hull against
panda_rightfinger/Box by 3.1 µm (0.059593581455308 m by a vertex–triangle
and edge–edge enumeration of the hull; 2026-11-29, pydrake 1.51.1).

pydrake's figures: benchmarks/drake_robot_controller_times.json, per robot
the median over rounds of fresh processes interleaved with ours, written by

    .venv/bin/python tools/robot_controller_side_by_side.py --rounds 3 --write

Run:  .venv/bin/python benchmarks/bench_robot_controller.py [--robots panda ...]
      [--repeats 3] [--json FILE]
      .venv/bin/python benchmarks/bench_robot_controller.py --one panda   (one JSON line)
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
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_robots  # noqa: E402  (imports neither library at module level)
import robot_models  # noqa: E402
import robot_timing  # noqa: E402

ROBOTS = ("panda", "ur5", "allegro", "go2", "tiago")
DISTANCE_M = 0.05
CONFIGURATIONS = 50
WARMUP = 2
ROUNDS = 20
P_BQ = (0.02, 0.01, 0.05)
CLOCKS = {"perf": time.perf_counter, "process": time.process_time}
DRAKE_TIMES = ROOT / "benchmarks" / "drake_robot_controller_times.json"
PARTS = ("set_s", "pose_s", "jacobian_s", "distance_s")
TIMED_FIELDS = ("step_s",) + PARTS


def library_api() -> dict:
    """This library's classes under pydrake's names."""
    from scenegraph import Role
    from scenegraph.multibody import (AddMultibodyPlantSceneGraph, BodyIndex,
                                      JacobianWrtVariable, Parser)
    from systems.framework import DiagramBuilder
    return {"DiagramBuilder": DiagramBuilder, "Parser": Parser, "Role": Role,
            "AddMultibodyPlantSceneGraph": AddMultibodyPlantSceneGraph,
            "JacobianWrtVariable": JacobianWrtVariable, "BodyIndex": BodyIndex}


def farthest_body(plant, api):
    """The body with the most joints between it and the world (the first
    by index on a tie), from the plant's joints (same answer in both
    libraries: the trees are the same)."""
    parent_of = {}
    for j in plant.GetJointIndices():
        joint = plant.get_joint(j)
        parent_of[int(joint.child_body().index())] = int(joint.parent_body().index())
    best, best_depth = 0, -1
    for b in range(1, plant.num_bodies()):
        depth, at = 0, b
        while at in parent_of:
            at = parent_of[at]
            depth += 1
        if depth > best_depth:
            best, best_depth = b, depth
    return plant.get_body(api["BodyIndex"](best))


def configurations(plant, plant_context, count: int) -> list:
    """`count` seeded positions: coordinates with finite limits uniform in
    the middle 80 % of their range, the others at their defaults."""
    import numpy as np
    rng = np.random.default_rng(2024)
    lower, upper = plant.GetPositionLowerLimits(), plant.GetPositionUpperLimits()
    q0 = np.array(plant.GetPositions(plant_context), dtype=float)
    finite = np.isfinite(lower) & np.isfinite(upper)
    out = []
    for _ in range(count):
        q = q0.copy()
        f = rng.uniform(0.1, 0.9, int(finite.sum()))
        q[finite] = lower[finite] + f * (upper[finite] - lower[finite])
        out.append(q)
    return out


def measure(import_api, urdf: str, package_map: dict, clock_name: str = "perf") -> dict:
    """The controller step on one robot (module docstring); never raises (a
    failure is recorded as "error" with the failing "step")."""
    record: dict = {"urdf": urdf, "clock": clock_name}
    step = "import"
    try:
        api = import_api()
        step = "load"
        import numpy as np
        builder = api["DiagramBuilder"]()
        plant, scene_graph = api["AddMultibodyPlantSceneGraph"](builder, 0.0)
        parser = api["Parser"](plant)
        for name, folder in package_map.items():
            parser.package_map().Add(name, folder)
        parser.AddModels(urdf)
        plant.Finalize()
        diagram = builder.Build()
        context = diagram.CreateDefaultContext()
        plant_context = plant.GetMyMutableContextFromRoot(context)
        sg_context = scene_graph.GetMyContextFromRoot(context)
        body = farthest_body(plant, api)
        frame, world = body.body_frame(), plant.world_frame()
        kV = api["JacobianWrtVariable"].kV
        p_BQ = np.array(P_BQ)
        query_port = scene_graph.get_query_output_port()
        qs = configurations(plant, plant_context, CONFIGURATIONS)

        step = "first"
        plant.SetPositions(plant_context, qs[0])
        query = query_port.Eval(sg_context)
        record["counts"] = {
            "nq": int(plant.num_positions()), "nv": int(plant.num_velocities()),
            "bodies": int(plant.num_bodies()),
            "proximity_geometries": int(query.inspector().NumGeometriesWithRole(
                api["Role"].kProximity)),
            "distance_pairs": len(query.ComputeSignedDistancePairwiseClosestPoints(
                max_distance=DISTANCE_M))}
        record["body"] = body.name()

        step = "steps"
        clock = CLOCKS[clock_name]
        steps, parts = [], {name: [] for name in PARTS}
        for r in range(WARMUP + ROUNDS):
            for q in qs:
                t0 = clock()
                plant.SetPositions(plant_context, q)
                t1 = clock()
                plant.EvalBodyPoseInWorld(plant_context, body)
                t2 = clock()
                plant.CalcJacobianSpatialVelocity(plant_context, kV, frame, p_BQ, world, world)
                t3 = clock()
                query_port.Eval(sg_context).ComputeSignedDistancePairwiseClosestPoints(
                    max_distance=DISTANCE_M)
                t4 = clock()
                if r >= WARMUP:
                    steps.append(t4 - t0)
                    for name, dt in zip(PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                        parts[name].append(dt)
        record["step_s"] = statistics.median(steps)
        for name in PARTS:
            record[name] = statistics.median(parts[name])
        record["samples"] = len(steps)
    except Exception as error:  # noqa: BLE001  recorded, the caller reports it
        record["failed_step"] = step
        record["error"] = robot_timing._first_line(error)
    return record


def measure_one(key: str, import_api, clock_name: str = "perf") -> dict:
    """One measurement of robot `key` in this (fresh) process."""
    urdf = robot_models.obj_copy(key)
    record = measure(import_api, str(urdf), robot_models.package_map(
        urdf, robot_models.cache_root()), clock_name)
    record["robot"] = key
    return record


def merge(records: list) -> dict:
    """Median of every timed field over the records that did not fail."""
    ok = [r for r in records if "error" not in r]
    if 2 * len(ok) <= len(records):
        failed = [r for r in records if "error" in r]
        return {**failed[0], "runs": len(records), "runs_ok": len(ok)}
    out = {k: v for k, v in ok[0].items() if k not in TIMED_FIELDS}
    for field in TIMED_FIELDS:
        out[field] = statistics.median(r[field] for r in ok)
    out["runs_step_s"] = [r["step_s"] for r in ok]
    out["runs"] = len(records)
    return out


def _us(record, field) -> str:
    if not record:
        return "—"
    if "error" in record:
        return "fails"
    value = record.get(field)
    return "—" if value is None else f"{value * 1e6:.1f}"


def report(ours: dict, drake: dict, title: str, out=print) -> None:
    """The table: per robot ours/pydrake µs per step and the ratio, then
    the parts."""
    out(f"\n{title}")
    out(f"  {'robot':10s} {'nq':>3s} {'bodies':>6s} {'pairs':>5s} {'ours us':>9s} "
        f"{'pydrake us':>10s} {'ratio':>6s}   parts ours/pydrake us: set, pose, jacobian, "
        f"distance")
    for key, o in ours.items():
        d = drake.get(key)
        counts = o.get("counts") or (d or {}).get("counts") or {}
        ratio = ""
        if d and "error" not in d and "error" not in o:
            ratio = f"{o['step_s'] / d['step_s']:.2f}x"
        parts = ", ".join(f"{_us(o, p)}/{_us(d, p)}" for p in PARTS)
        out(f"  {key:10s} {counts.get('nq', '—')!s:>3s} {counts.get('bodies', '—')!s:>6s} "
            f"{counts.get('distance_pairs', '—')!s:>5s} {_us(o, 'step_s'):>9s} "
            f"{_us(d, 'step_s'):>10s} {ratio:>6s}   {parts}")
        for side, record in (("ours", o), ("pydrake", d)):
            if record and "error" in record:
                out(f"      {side} failed at {record.get('failed_step')}: {record['error']}")


def rows_key(clock_name: str) -> str:
    """Where the stored JSON keeps pydrake's figures for a clock."""
    return "rows" if clock_name == "perf" else f"rows_{clock_name}_clock"


def load_drake(path: pathlib.Path = DRAKE_TIMES, clock_name: str = "perf") -> dict:
    if not path.exists():
        print(f"(no pydrake figures: {path} missing; run "
              f"tools/robot_controller_side_by_side.py --write)")
        return {}
    return json.loads(path.read_text()).get(rows_key(clock_name), {})


def our_command(key: str, clock_name: str = "perf") -> list:
    return [sys.executable, str(ROOT / "benchmarks" / "bench_robot_controller.py"),
            "--one", key, "--clock", clock_name]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--robots", nargs="+", default=list(ROBOTS))
    parser.add_argument("--repeats", type=int, default=3, help="fresh processes per robot")
    parser.add_argument("--json", default=None, help="write the merged records here")
    parser.add_argument("--drake", default=str(DRAKE_TIMES))
    parser.add_argument("--one", default=None, metavar="KEY",
                        help="measure KEY in this process and print one JSON line")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="perf",
                        help="wall-clock (perf, default) or process CPU time")
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure_one(args.one, library_api, args.clock)), flush=True)
        return 0
    for key in args.robots:
        robot_models.obj_copy(key)
        bench_robots.run_process(our_command(key, args.clock))          # warm-up, untimed
    merged = {}
    for key in args.robots:
        merged[key] = merge([bench_robots.run_process(our_command(key, args.clock))
                             for _ in range(args.repeats)])
        print(f"  .. {key}: {_us(merged[key], 'step_s')} us per step", file=sys.stderr,
              flush=True)
    report(merged, load_drake(pathlib.Path(args.drake), args.clock),
           f"[{args.clock} clock] Controller step (SetPositions + EvalBodyPoseInWorld + CalcJacobianSpatialVelocity "
           f"+ ComputeSignedDistancePairwiseClosestPoints({DISTANCE_M})), median us over "
           f"{args.repeats} fresh processes x {ROUNDS} rounds x {CONFIGURATIONS} "
           f"configurations")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"tool": "benchmarks/bench_robot_controller.py", "machine": bench_robots.machine_info(),
             "command": " ".join(sys.argv), "rows": merged}, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
