"""A new process with a warm compile cache: import, registration and the first
query of each kind, this library next to pydrake; and the quick-start
diagram's Simulator.Initialize and first steps (issue 27 §2).

    .venv/bin/python benchmarks/bench_warm_start.py [--rounds 5] [--write]

Each round starts fresh processes, one after the other (the order alternates
between rounds): ``benchmarks/warm_start_child.py ours queries``,
``/work/drake-venv/bin/python tools/drake_warm_start_child.py`` (when that
interpreter exists) and ``benchmarks/warm_start_child.py ours initialize``.
Every step is timed in wall and CPU seconds from before the library's import
(see warm_start_child.py); the table prints per step the median over the
rounds, ours, pydrake's and the ratio, wall time first and CPU time (less
disturbed by a loaded machine) after it. Without the pydrake interpreter the
pydrake column comes from benchmarks/drake_warm_start_times.json, which
``--write`` refreshes with this run's pydrake medians. Run it once before
measuring if kernels changed (the first run then compiles them: that is the
cold start, not measured here). Asserts nothing about time.

``--baseline DIR`` adds DIR/benchmarks/warm_start_child.py ours queries
(another checkout of this repository, e.g. ``git worktree add DIR <commit>``,
run from DIR) to every round, interleaved with the others, and prints its
medians and this tree's ratio to them: a before/after comparison under the
same machine load.

Python's bytecode cache is warm for both libraries, as in a user's install:
the children run without PYTHONDONTWRITEBYTECODE and with PYTHONPYCACHEPREFIX
set to robot_models.pycache_prefix() (shared with benchmarks/bench_robots.py),
and one untimed round of each child runs first. (This sandbox sets
PYTHONDONTWRITEBYTECODE=1: without this, every one of this library's modules
was compiled from source in every child, ~0.3 s, while pydrake read its
installed .pyc files.) ``--as-is`` keeps the environment unchanged.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import robot_models  # noqa: E402  (standard library only)

DRAKE_PYTHON = "/work/drake-venv/bin/python"
STORED = ROOT / "benchmarks" / "drake_warm_start_times.json"


def child_env(as_is: bool = False) -> dict:
    """The children's environment: the bytecode cache on, in
    robot_models.pycache_prefix() (unless `as_is`)."""
    env = dict(os.environ)
    if not as_is:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(robot_models.pycache_prefix())
    return env


def _child(command: list, env: dict, cwd=ROOT) -> dict:
    out = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=True,
                         env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])["steps"]


def _medians(runs: list) -> dict:
    """{step: (median wall, median CPU)} over runs (step order of the first)."""
    return {step: (statistics.median(r[step][0] for r in runs),
                   statistics.median(r[step][1] for r in runs)) for step in runs[0]}


def _fmt(value) -> str:
    if value is None:
        return "—"
    return f"{value * 1e3:9.1f} ms" if value < 1.0 else f"{value:9.3f} s "


def _ratio(a, b) -> str:
    return f"{a / b:7.2f}×" if a is not None and b else "      —"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--write", action="store_true",
                        help=f"store pydrake's medians in {STORED.relative_to(ROOT)}")
    parser.add_argument("--drake-python", default=DRAKE_PYTHON)
    parser.add_argument("--as-is", action="store_true",
                        help="keep the environment (PYTHONDONTWRITEBYTECODE ...) unchanged")
    parser.add_argument("--baseline", default=None, metavar="DIR",
                        help="another checkout whose queries child runs interleaved too")
    args = parser.parse_args(argv)
    env = child_env(args.as_is)
    ours_cmd = [sys.executable, "benchmarks/warm_start_child.py", "ours", "queries"]
    init_cmd = [sys.executable, "benchmarks/warm_start_child.py", "ours", "initialize"]
    drake_cmd = [args.drake_python, "tools/drake_warm_start_child.py"]
    have_drake = pathlib.Path(args.drake_python).exists()
    base_dir = pathlib.Path(args.baseline).resolve() if args.baseline else None
    base_cmd = ([sys.executable, str(base_dir / "benchmarks" / "warm_start_child.py"), "ours",
                 "queries"] if base_dir else None)
    ours, drake, init, base = [], [], [], []
    warm_up = ([(ours_cmd, ROOT), (init_cmd, ROOT)] + ([(drake_cmd, ROOT)] if have_drake else [])
               + ([(base_cmd, base_dir)] if base_dir else []))
    for command, cwd in warm_up:    # untimed: bytecode, numba's and the OS's file caches
        _child(command, env, cwd)
    for r in range(args.rounds):
        order = [(ours_cmd, ours, ROOT), (init_cmd, init, ROOT)]
        if have_drake:
            order.append((drake_cmd, drake, ROOT))
        if base_dir:
            order.append((base_cmd, base, base_dir))
        for command, runs, cwd in (order if r % 2 == 0 else order[::-1]):
            runs.append(_child(command, env, cwd))
    ours_m, init_m = _medians(ours), _medians(init)
    if drake:
        drake_m = _medians(drake)
        source = f"measured now, {len(drake)} rounds interleaved"
    else:
        stored = json.loads(STORED.read_text())
        drake_m = {k: tuple(v) for k, v in stored["steps"].items()}
        source = f"stored {stored['date']} ({STORED.name})"
    load = os.getloadavg()
    print(f"New process, warm compile cache: medians of {args.rounds} rounds; pydrake {source}; "
          f"load average {load[0]:.1f} on {os.cpu_count()} CPUs; bytecode cache "
          f"{'as the environment has it' if args.as_is else 'warm'}")
    print(f"  {'step':50s} {'ours wall':>12s} {'pydrake':>12s} {'ratio':>8s}   "
          f"{'ours CPU':>12s} {'pydrake':>12s} {'ratio':>8s}")
    for step, (wall, cpu) in ours_m.items():
        d_wall, d_cpu = drake_m.get(step, (None, None))
        print(f"  {step:50s} {_fmt(wall)} {_fmt(d_wall)} {_ratio(wall, d_wall)}   "
              f"{_fmt(cpu)} {_fmt(d_cpu)} {_ratio(cpu, d_cpu)}")
    if base:
        base_m = _medians(base)
        print(f"\nBaseline {base_dir} (same rounds, interleaved): this tree / baseline")
        print(f"  {'step':50s} {'baseline':>12s} {'ratio':>8s}   {'baseline CPU':>12s} "
              f"{'ratio':>8s}")
        for step, (wall, cpu) in ours_m.items():
            b_wall, b_cpu = base_m.get(step, (None, None))
            print(f"  {step:50s} {_fmt(b_wall)} {_ratio(wall, b_wall)}   {_fmt(b_cpu)} "
                  f"{_ratio(cpu, b_cpu)}")
    print("\nQuick-start diagram (examples/quickstart.py, no viewer), new process:")
    for step, (wall, cpu) in init_m.items():
        print(f"  {step:50s} {_fmt(wall)} wall {_fmt(cpu)} CPU")
    if args.write and drake:
        STORED.write_text(json.dumps({
            "about": "pydrake 1.51.1's new-process import, registration of the 25-geometry "
                     "mixed scene and first query of each kind (wall s, CPU s), medians of "
                     "interleaved rounds; written by benchmarks/bench_warm_start.py --write",
            "date": datetime.date.today().isoformat(),
            "command": " ".join(["benchmarks/bench_warm_start.py", *(argv or sys.argv[1:])]),
            "machine": {"platform": platform.platform(), "cpu_count": os.cpu_count(),
                        "load_average": load[0]},
            "steps": {k: list(v) for k, v in drake_m.items()}}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
