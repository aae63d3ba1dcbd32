"""MonteCarloSimulation throughput: serial vs worker processes vs a Dask LocalCluster.

Two workloads (tests/systems/analysis/montecarlo_scenes.py), each N samples
simulated for 2 s with random initial conditions from a RandomGenerator:
  pendulum  the pendulum + PD controller diagram (~160 RK3 steps per sample);
  scene     a point robot steered around obstacles by a controller that reads
            SceneGraph's signed distances at every evaluation, plus a per-step
            monitor (a SceneGraph diagram with per-step queries).

For each: serial (num_parallel_executions=1) against num_parallel_executions=W
(`--workers`: W − 1 worker processes plus this process, which prepares every sample
and simulates some itself; the pool is started inside the timed call, as a user
gets it), then — once Dask's threads exist, which would make the processes start by
forkserver instead of fork — serial against a W-worker Dask LocalCluster of
processes (client.get_executor(); the cluster is started and warmed up once,
outside the timing). Rounds are interleaved (serial, parallel, serial, ...);
medians are printed with samples/s, speed-up over serial and parallel efficiency
(speed-up / W). Every mode must give bitwise the same outputs (checked).

Overhead per sample (pickle + dispatch + unpickle): the same runs with
final_time = 0, in CPU time of this process and its worker processes (rusage), minus
the serial CPU time — wall time is meaningless on a shared machine, CPU time is
not. The load average (os.getloadavg) is printed before and after each workload:
on a machine whose cores are busy with other work the parallel wall-time gains
shrink; the "projected" speed-up is what the measured CPU times give on W idle
cores: serial CPU / max(parent CPU, (parent + workers CPU) / W).

Run:  .venv/bin/python benchmarks/bench_montecarlo.py [--samples 200]
      [--scene-samples 200] [--rounds 3] [--scene-rounds 3] [--workers 2] [--no-dask]
"""
from __future__ import annotations

import argparse
import os
import pathlib
import resource
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from systems.analysis import MonteCarloSimulation  # noqa: E402
from systems.framework import RandomGenerator  # noqa: E402
from tests.systems.analysis.montecarlo_scenes import (  # noqa: E402
    make_pendulum_simulator, make_scene_simulator, pendulum_theta, scene_clearance)

FINAL_TIME = 2.0   # s


def _cpu() -> tuple:
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


def _load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def _run(make, output, final_time, samples, **kwargs):
    """(wall [s], parent CPU [s], children CPU [s], outputs)."""
    cpu0, child0 = _cpu()
    start = time.perf_counter()
    results = MonteCarloSimulation(make, output, final_time, samples, RandomGenerator(1),
                                   **kwargs)
    wall = time.perf_counter() - start
    cpu1, child1 = _cpu()
    return wall, cpu1 - cpu0, child1 - child0, [r.output for r in results]


def _table(walls: dict, samples: int, workers: int) -> None:
    serial = statistics.median(walls["serial"])
    print(f"  {'mode':<18}{'wall [s]':>10}{'samples/s':>11}{'speed-up':>10}"
          f"{'efficiency':>12}")
    for mode, values in walls.items():
        wall = statistics.median(values)
        speedup = serial / wall
        efficiency = speedup / (1 if mode == "serial" else workers)
        print(f"  {mode:<18}{wall:>10.2f}{samples / wall:>11.1f}{speedup:>9.2f}x"
              f"{efficiency:>11.0%}")


def _interleaved(name, make, output, samples, rounds, modes, reference):
    walls = {m: [] for m in modes}
    for _ in range(rounds):
        for mode, kwargs in modes.items():
            wall, _, _, outputs = _run(make, output, FINAL_TIME, samples, **kwargs)
            walls[mode].append(wall)
            if reference is None:
                reference = outputs
            elif outputs != reference:
                raise SystemExit(f"{name}: {mode} gave other outputs than serial")
    return walls, reference


def bench_processes(name, make, output, samples, rounds, workers):
    """Serial vs worker processes (fork: this process has no other threads yet)."""
    print(f"\n{name}: {samples} samples x {FINAL_TIME} s   ({_load()})")
    modes = {"serial": {}, f"{workers} executions": {"num_parallel_executions": workers}}
    walls, reference = _interleaved(name, make, output, samples, rounds, modes, None)
    _table(walls, samples, workers)
    # CPU accounting: fork workers are reaped by the pool, so RUSAGE_CHILDREN has them.
    n = samples
    _, cpu_s, _, _ = _run(make, output, FINAL_TIME, n)
    _, cpu_p, cpu_w, _ = _run(make, output, FINAL_TIME, n, num_parallel_executions=workers)
    projected = cpu_s / max(cpu_p, (cpu_p + cpu_w) / workers)
    _, zero_s, _, _ = _run(make, output, 0.0, n)
    _, zero_p, zero_w, _ = _run(make, output, 0.0, n, num_parallel_executions=workers)
    overhead = (zero_p + zero_w - zero_s) / n
    print(f"  CPU per sample: serial {1e3 * cpu_s / n:.2f} ms; {workers} executions: "
          f"this process {1e3 * cpu_p / n:.2f} ms + workers {1e3 * cpu_w / n:.2f} ms")
    print(f"  overhead per sample (pickle + dispatch + unpickle + pool start, CPU, "
          f"final_time 0): {1e3 * overhead:.2f} ms; of which in this process "
          f"{1e3 * (zero_p - zero_s) / n:.2f} ms")
    print(f"  projected speed-up on {workers} idle cores (from CPU times): "
          f"{projected:.2f}x   ({_load()})")
    return reference


def bench_dask(name, make, output, samples, rounds, workers, client, reference):
    """Serial vs the Dask cluster (started and warmed up outside the timings)."""
    MonteCarloSimulation(make, output, 0.1, 2 * workers, RandomGenerator(2),
                         executor=client.get_executor())
    print(f"\n{name} on Dask: {samples} samples x {FINAL_TIME} s   ({_load()})")
    modes = {"serial": {}, f"dask {workers} workers": {"executor": client.get_executor()}}
    walls, _ = _interleaved(name, make, output, samples, rounds, modes, reference)
    _table(walls, samples, workers)
    print(f"  ({_load()})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200, help="pendulum samples")
    parser.add_argument("--scene-samples", type=int, default=200, help="scene samples")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--scene-rounds", type=int, default=3,
                        help="interleaved rounds of the scene")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask cluster")
    args = parser.parse_args(argv)
    print(f"CPUs: {os.cpu_count()}   {_load()}")
    workloads = []
    if args.samples:
        workloads.append(("pendulum + PD", make_pendulum_simulator, pendulum_theta,
                          args.samples, args.rounds))
    if args.scene_samples:
        workloads.append(("scene (SceneGraph, per-step queries)", make_scene_simulator,
                          scene_clearance, args.scene_samples, args.scene_rounds))
    for _, make, output, _, _ in workloads:   # numba kernels loaded before the forks
        MonteCarloSimulation(make, output, FINAL_TIME, 3, RandomGenerator(3))
    references = [bench_processes(name, make, output, n, rounds, args.workers)
                  for name, make, output, n, rounds in workloads]
    if args.no_dask:
        return 0
    import distributed  # the `cluster` extra; its threads start here, after the forks
    start = time.perf_counter()
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                  processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        print(f"\nDask LocalCluster ({args.workers} worker processes) started in "
              f"{time.perf_counter() - start:.2f} s (not in the timings)")
        for (name, make, output, n, rounds), reference in zip(workloads, references):
            bench_dask(name, make, output, n, rounds, args.workers, client, reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
