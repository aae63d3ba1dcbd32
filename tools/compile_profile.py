"""Where a cold compile goes: numba compile time per function and signature.

    .venv/bin/python tools/compile_profile.py [--query penetration|pairs|all]
        [--top 15] [--no-inline] [--llvm-stages] [--callee-code deferred|numba]
        [--json FILE] [--keep-cache DIR]

Runs in a new process with an empty compile cache (NUMBA_CACHE_DIR set to a
fresh temporary folder before numba is imported, the parallel-compile helper
off: SCENEGRAPH_PARALLEL_COMPILE=0), builds the warm-up scene of
scenegraph._warmup (two of every shape kind and a half space), and runs
one query — ComputePointPairPenetration by default; ``--query pairs`` the
pair-query group of _warmup (penetration, signed distances, candidates,
HasCollisions), ``--query all`` every warm-up group — listening to numba's
events:

* ``numba:compile`` (one per function and signature, nested: a callee's
  compile runs inside its caller's): total and *self* time per function
  (its own typing, lowering, LLVM work and cache writing, callees'
  compiles excluded), CPU seconds (process time) and wall seconds;
* ``numba:llvm_lock`` (held during every LLVM call: optimisation, machine
  code, linking): wall seconds per function, self;
* ``numba:run_pass``: wall seconds per compiler pass (typing, lowering,
  backend ...), summed over functions, passes nested in a callee's compile
  not counted twice.

Prints the functions by self CPU time with how many signatures each was
compiled for, and every function compiled for more than one signature with
those signatures (a function typed for int64 and for a literal int, for
array layouts 'C' and 'A', or for readonly arrays, compiles once per
signature: all but one are waste). Functions declared ``inline="always"``
are compiled once on their own and inlined by LLVM (scenegraph._jit.njit:
LLVM's alwaysinline attribute); ``--no-inline`` drops that option from
every kernel of the package, leaving inlining to LLVM's own cost model (an
attribution run: the code compiled differs from the library's).

``--llvm-stages`` adds LLVM's stages per function (function passes, module
passes, machine code). Callees' libraries get no module passes or machine
code of their own (scenegraph/_callee_code.py): those stages show under the
kernel called from Python; ``--callee-code numba`` gives every callee its own,
as numba does (the A/B comparison).

Compile times are CPU-bound and single-threaded; CPU seconds are the steadier
number on a loaded machine. Output of one run is one profile: compare runs
at similar load.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _stage(name: str) -> str:
    """numba's LLVM timing record name -> stage: function passes, module
    passes (cheap, full), machine code ("Finalize object")."""
    if name.startswith("Function passes"):
        return "function passes"
    if name.startswith("Module passes (cheap"):
        return "module cheap"
    if name.startswith("Module passes"):
        return "module full"
    if name.startswith("Finalize object"):
        return "machine code"
    return name.split(" (")[0]


class Profile:
    """Listener state: per (function, signature) compile times, self and
    total, and LLVM-lock and pass times."""

    def __init__(self):
        self.stack = []             # [key, cpu0, wall0, child_cpu, child_wall, llvm_self]
        self.functions = {}         # name -> record
        self.passes = {}            # pass name -> wall seconds (self)
        self.pass_stack = []        # [name, wall0, child_wall, function]
        self.function_passes = {}   # function -> pass name -> wall seconds (self)
        self.llvm_depth = 0
        self.llvm_start = 0.0
        self.llvm_outside = 0.0     # LLVM-lock seconds outside any compile

    # -- numba:compile
    def compile_start(self, event):
        data = event.data or {}
        dispatcher = data.get("dispatcher")
        py_func = getattr(dispatcher, "py_func", None)
        name = (f"{py_func.__module__}.{py_func.__qualname__}" if py_func is not None
                else repr(dispatcher))
        signature = ", ".join(str(a) for a in data.get("args", ()))
        self.stack.append([name, signature, time.process_time(), time.perf_counter(), 0.0, 0.0,
                           0.0])

    def compile_end(self, event):
        name, signature, cpu0, wall0, child_cpu, child_wall, llvm = self.stack.pop()
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        if self.stack:
            self.stack[-1][4] += cpu
            self.stack[-1][5] += wall
        record = self.functions.setdefault(name, {
            "self_cpu_s": 0.0, "total_cpu_s": 0.0, "self_wall_s": 0.0, "llvm_self_s": 0.0,
            "compiles": 0, "signatures": [], "top_level": 0})
        record["self_cpu_s"] += cpu - child_cpu
        record["self_wall_s"] += wall - child_wall
        record["llvm_self_s"] += llvm
        record["compiles"] += 1
        if not self.stack:
            record["top_level"] += 1
            record["total_cpu_s"] += cpu
        elif not any(frame[0] == name for frame in self.stack):
            record["total_cpu_s"] += cpu
        if signature not in record["signatures"]:
            record["signatures"].append(signature)
        data = event.data or {}
        overload = getattr(data.get("dispatcher"), "overloads", {}).get(tuple(data.get("args", ())))
        timings = getattr(overload, "metadata", {}).get("llvm_pass_timings") if overload else None
        if timings is not None:
            stages = record.setdefault("llvm_stages", {})
            for named in getattr(timings, "_records", ()):
                stage = _stage(named.name)
                stages[stage] = stages.get(stage, 0.0) + named.timings.get_total_time()

    # -- numba:llvm_lock (reentrant: only the outermost hold counts)
    def llvm_start_event(self, event):
        self.llvm_depth += 1
        if self.llvm_depth == 1:
            self.llvm_start = time.perf_counter()

    def llvm_end_event(self, event):
        self.llvm_depth -= 1
        if self.llvm_depth == 0:
            held = time.perf_counter() - self.llvm_start
            if self.stack:
                self.stack[-1][6] += held
            else:
                self.llvm_outside += held

    # -- numba:run_pass
    def pass_start(self, event):
        data = event.data or {}
        name = str(data.get("name", "?")).split(" [")[0]
        function = f"{data.get('module', '?')}.{data.get('qualname', '?')}"
        self.pass_stack.append([name, time.perf_counter(), 0.0, function])

    def pass_end(self, event):
        name, wall0, child, function = self.pass_stack.pop()
        wall = time.perf_counter() - wall0
        if self.pass_stack:
            self.pass_stack[-1][2] += wall
        self.passes[name] = self.passes.get(name, 0.0) + wall - child
        per = self.function_passes.setdefault(function, {})
        per[name] = per.get(name, 0.0) + wall - child

    def install(self) -> None:
        """Registers the listeners for the rest of the process."""
        from numba.core import event

        for kind, listener in self._listeners():
            event.register(kind, listener)

    def uninstall(self) -> None:
        """Removes the listeners install() registered."""
        from numba.core import event

        for kind, listener in getattr(self, "_installed", ()):
            event.unregister(kind, listener)
        self._installed = []

    def _listeners(self):
        from numba.core import event

        def listener(on_start, on_end):
            class _Listener(event.Listener):
                def on_start(self, ev):
                    on_start(ev)

                def on_end(self, ev):
                    on_end(ev)
            return _Listener()

        self._installed = [
            ("numba:compile", listener(self.compile_start, self.compile_end)),
            ("numba:llvm_lock", listener(self.llvm_start_event, self.llvm_end_event)),
            ("numba:run_pass", listener(self.pass_start, self.pass_end))]
        return self._installed


def _strip_inline() -> None:
    """Makes scenegraph._jit.njit ignore inline= (before any kernel module
    is imported)."""
    import scenegraph._jit as jit

    original = jit._compile_lazily

    def compile_lazily(function, options):
        options.pop("inline", None)
        return original(function, options)

    jit._compile_lazily = compile_lazily


def run_child(args) -> int:
    """The profiled process (NUMBA_CACHE_DIR already empty)."""
    sys.path.insert(0, str(ROOT))
    started_cpu, started = time.process_time(), time.perf_counter()
    profile = Profile()
    profile.install()
    if args.no_inline:
        _strip_inline()
    import scenegraph as sg
    from scenegraph import _warmup
    from scenegraph.math import RigidTransform

    import_cpu = time.process_time() - started_cpu
    groups = {"penetration": ["pair queries"], "pairs": ["pair queries"],
              "all": list(_warmup.GROUPS)}[args.query]
    query_cpu = {}
    for group in groups:
        scene_graph, context, port, frame = _warmup._scene(group == "hydroelastic")
        poses = sg.FramePoseVector()
        poses.set_value(frame, RigidTransform())
        port.FixValue(context, poses)
        query = scene_graph.get_query_output_port().Eval(context)
        t = time.process_time()
        if args.query == "penetration":
            query.ComputePointPairPenetration()
        else:
            _warmup.run_group(group)
        query_cpu[group] = time.process_time() - t
    result = {
        "query": args.query, "no_inline": args.no_inline,
        "callee_code": args.callee_code,
        "process_cpu_s": time.process_time(), "wall_s": time.perf_counter() - started,
        "import_cpu_s": import_cpu, "query_cpu_s": query_cpu,
        "compile_cpu_s": sum(r["self_cpu_s"] for r in profile.functions.values()),
        "llvm_lock_s": sum(r["llvm_self_s"] for r in profile.functions.values()),
        "functions": profile.functions, "passes": profile.passes,
        "function_passes": profile.function_passes,
        "load": os.getloadavg()[0]}
    pathlib.Path(args.out).write_text(json.dumps(result, indent=1))
    return 0


def report(result: dict, top: int) -> None:
    """Prints the profile."""
    functions = result["functions"]
    print(f"query {result['query']}{' (no inlining)' if result['no_inline'] else ''}"
          f"{', callees as numba' if result.get('callee_code') == 'numba' else ''}: "
          f"process CPU {result['process_cpu_s']:.1f} s, wall {result['wall_s']:.1f} s "
          f"(load {result['load']:.1f}); compiling {result['compile_cpu_s']:.1f} s CPU in "
          f"{sum(r['compiles'] for r in functions.values())} compiles of "
          f"{len(functions)} functions; LLVM lock held {result['llvm_lock_s']:.1f} s wall")
    print(f"top {top} by self CPU [s] (self = own typing, lowering, LLVM, caching; callees "
          f"excluded)")
    print("  (type: type inference, inl: numba's IR inlining, lower: lowering in "
          "Python = native_lowering minus llvm; wall seconds)")
    print(f"{'self':>7s} {'total':>7s} {'type':>6s} {'inl':>6s} {'lower':>6s} {'llvm':>6s} "
          f"{'sigs':>4s}  function")
    ranked = sorted(functions.items(), key=lambda kv: -kv[1]["self_cpu_s"])
    per_pass = result.get("function_passes", {})
    for name, r in ranked[:top]:
        p = per_pass.get(name, {})
        lower = p.get("native_lowering", 0.0) - r["llvm_self_s"]
        print(f"{r['self_cpu_s']:7.2f} {r['total_cpu_s']:7.2f} "
              f"{p.get('nopython_type_inference', 0.0):6.2f} {p.get('inline_inlinables', 0.0):6.2f} "
              f"{lower:6.2f} {r['llvm_self_s']:6.2f} "
              f"{len(r['signatures']):4d}  {name.replace('scenegraph.', '')}")
    multi = [(n, r) for n, r in ranked if len(r["signatures"]) > 1]
    print(f"functions compiled for more than one signature: {len(multi)} "
          f"({sum(r['self_cpu_s'] for _, r in multi):.1f} s self CPU in all their compiles)")
    for name, r in multi:
        print(f"  {len(r['signatures'])} x {name.replace('scenegraph.', '')} "
              f"({r['self_cpu_s']:.2f} s)")
        for s in r["signatures"]:
            print(f"      ({s[:220]})")
    staged = [(n, r) for n, r in ranked if r.get("llvm_stages")]
    if staged:
        stages = sorted({s for _, r in staged for s in r["llvm_stages"]})
        print("LLVM stages [s] (module passes and machine code cover the library linked "
              "with all its callees):")
        print("  " + "".join(f"{s:>16s}" for s in stages) + "  function")
        for name, r in staged[:top]:
            print("  " + "".join(f"{r['llvm_stages'].get(s, 0.0):16.2f}" for s in stages)
                  + f"  {name.replace('scenegraph.', '')}")
        print("  " + "".join(f"{sum(r['llvm_stages'].get(s, 0.0) for _, r in staged):16.2f}"
                             for s in stages) + "  all functions")
    passes = sorted(result["passes"].items(), key=lambda kv: -kv[1])
    print("compiler passes by wall time [s]: " + ", ".join(
        f"{name} {sec:.1f}" for name, sec in passes[:8]))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--query", choices=("penetration", "pairs", "all"),
                        default="penetration")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--no-inline", action="store_true",
                        help="drop inline= from every kernel (attribution run)")
    parser.add_argument("--llvm-stages", action="store_true",
                        help="also time LLVM's stages per function (NUMBA_LLVM_PASS_TIMINGS=1)")
    parser.add_argument("--callee-code", choices=("deferred", "numba"), default="deferred",
                        help="'numba' gives every callee its own module passes and machine "
                             "code at its compile, as numba does (SCENEGRAPH_DEFER_CALLEES=0; "
                             "the library defers them, scenegraph/_callee_code.py)")
    parser.add_argument("--json", help="write the profile here")
    parser.add_argument("--keep-cache", help="compile into this folder (must be empty) and "
                        "keep it")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return run_child(args)

    work = pathlib.Path(tempfile.mkdtemp(prefix="compile_profile_"))
    try:
        cache = pathlib.Path(args.keep_cache) if args.keep_cache else work / "cache"
        cache.mkdir(parents=True, exist_ok=True)
        if any(cache.iterdir()):
            parser.error(f"--keep-cache {cache}: folder is not empty")
        env = {**os.environ, "NUMBA_CACHE_DIR": str(cache.resolve()),
               "SCENEGRAPH_PARALLEL_COMPILE": "0", "SCENEGRAPH_COMPILE_REPORT": "0"}
        env.pop("NUMBA_DISABLE_JIT", None)
        if args.llvm_stages:
            env["NUMBA_LLVM_PASS_TIMINGS"] = "1"
        if args.callee_code == "numba":
            env["SCENEGRAPH_DEFER_CALLEES"] = "0"
        out = work / "profile.json"
        command = [sys.executable, str(pathlib.Path(__file__).resolve()), "--child", "--out",
                   str(out), "--query", args.query, "--callee-code", args.callee_code] + (
                       ["--no-inline"] if args.no_inline else [])
        done = subprocess.run(command, env=env, cwd=ROOT)
        if done.returncode != 0:
            return done.returncode
        result = json.loads(out.read_text())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(result, args.top)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
