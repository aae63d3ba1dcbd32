"""Cold start: a fresh copy of the repository with an empty compile cache,
wall time from the process's start to each first answer, next to pydrake.

    .venv/bin/python benchmarks/bench_cold_start.py [--warm] [--json FILE]

Copies the repository's files (``git ls-files``: what a fresh clone holds,
with the working tree's edits) into a temporary folder, points
NUMBA_CACHE_DIR at an empty folder and runs this file's probe there in a new
process: import scenegraph, register a 31-geometry scene, then one query of
every kind, each on new poses — ComputePointPairPenetration,
ComputeSignedDistancePairwiseClosestPoints(0.05), HasCollisions,
ComputeSignedDistanceToPoint (one point, threshold 0.05),
FindCollisionCandidates, ComputeContactSurfacesWithFallback (kPolygon). Every
compile counts (the probe is the first process to run the copy's kernels).
With --warm a second process repeats the probe on the now-filled cache (the
warm start). The same probe runs on pydrake 1.51.1 through
tools/drake_cold_start.py with /work/drake-venv/bin/python (or $DRAKE_PYTHON)
when that interpreter exists.

The scene: proximity_scenes.mixed_scene(25) (Sphere, Box, Capsule, Cylinder,
Ellipsoid, Convex of 24 vertices; 10 % anchored, 10 per frame) plus a
HalfSpace floor, an icosphere Mesh (320 triangles, from an OBJ file), a
compliant-hydroelastic Sphere and Box and a rigid-hydroelastic Box resting on
each other, and a Capsule touching them without hydroelastic properties (so
ComputeContactSurfacesWithFallback returns surfaces and point pairs).

Prints, per step, the seconds since the process started (the interpreter's
own start-up, ~20 ms, not included), the process's CPU seconds, how many of
the library's functions were compiled, those compiled for more than one
signature (each extra one is a whole compile: a literal argument, another
array layout; tools/compile_profile.py breaks the compile down per function)
and the 15 kernels whose compiles took longest (CPU seconds, callees
included; numba's compile events).
Never asserts timing: the issue's budgets (30 s cold on 2 cores, 2x
pydrake warm) are read off the table. Machine load moves the wall times
(a 2-core machine shared with other jobs): the CPU column is the steadier.
"""
from __future__ import annotations

import time

T0 = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]

QUERIES = ("ComputePointPairPenetration", "ComputeSignedDistancePairwiseClosestPoints",
           "HasCollisions", "ComputeSignedDistanceToPoint", "FindCollisionCandidates",
           "ComputeContactSurfacesWithFallback")

NAMES = ("SceneGraph", "GeometryFrame", "GeometryInstance", "ProximityProperties",
         "FramePoseVector", "Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "HalfSpace",
         "Convex", "Mesh", "AddCompliantHydroelasticProperties",
         "AddRigidHydroelasticProperties", "HydroelasticContactRepresentation")


def _since() -> float:
    return time.perf_counter() - T0


# ------------------------------------------------------------------ the probe


class _Compiles:
    """CPU seconds of each compile of a scenegraph kernel called from
    Python (callees included, kernels compiled while it was being installed
    not: scenegraph._separate) and the number of scenegraph functions
    compiled."""

    def __init__(self):
        self.top, self.count, self._stack = {}, 0, []
        self.signatures = {}    # function -> distinct argument-type lists compiled

    def install(self) -> None:
        from numba.core import event

        listener = self

        from scenegraph._jit import COMPILE_REPORT

        def library_depth():
            # The library's own compile depth (1: a kernel called from Python,
            # also inside scenegraph._jit.top_level_compile, where a kernel's
            # install compiles its separately compiled callees and, while it
            # waits for the helper, other groups).
            return getattr(COMPILE_REPORT._local, "depth", 1)

        class Listener(event.Listener):
            def on_start(self, ev):
                listener._stack.append([time.process_time(), library_depth() == 1, 0.0])

            def on_end(self, ev):
                start, top, nested_top = listener._stack.pop()
                elapsed = time.process_time() - start
                if top:     # not counted again in an enclosing kernel's time
                    for frame in reversed(listener._stack):
                        if frame[1]:
                            frame[2] += elapsed
                            break
                py_func = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
                module = getattr(py_func, "__module__", "") or ""
                if not module.startswith("scenegraph"):
                    return
                listener.count += 1
                name = f"{module}.{py_func.__qualname__}"
                signature = ", ".join(str(a) for a in (ev.data or {}).get("args", ()))
                seen = listener.signatures.setdefault(name, [])
                if signature not in seen:
                    seen.append(signature)
                if top:
                    listener.top[name] = listener.top.get(name, 0.0) + elapsed - nested_top

        event.register("numba:compile", Listener())


def library_api() -> dict:
    """This library's classes under pydrake's names (imported now)."""
    sys.path.insert(0, str(ROOT))
    import scenegraph
    import scenegraph.math
    api = {n: getattr(scenegraph, n) for n in NAMES}
    api["RigidTransform"] = scenegraph.math.RigidTransform
    api["RotationMatrix"] = scenegraph.math.RotationMatrix
    return api


def _extra_geometries(api, scene_graph, source, frame, mesh_path) -> None:
    """The six geometries beyond the mixed scene (see the module docstring)."""
    X = api["RigidTransform"]
    plain = api["ProximityProperties"]

    def add(shape, name, p_FG, props=None, anchored=False):
        instance = api["GeometryInstance"](X(list(p_FG)), shape, name)
        gid = (scene_graph.RegisterAnchoredGeometry(source, instance) if anchored else
               scene_graph.RegisterGeometry(source, frame, instance))
        scene_graph.AssignRole(source, gid, props if props is not None else plain())

    add(api["HalfSpace"](), "floor", (0.0, 0.0, -2.0), anchored=True)
    add(api["Mesh"](str(mesh_path)), "mesh", (3.0, 0.0, 0.0))
    soft = plain()
    api["AddCompliantHydroelasticProperties"](0.05, 1e6, soft)
    add(api["Sphere"](0.1), "soft_sphere", (5.0, 0.0, 0.09), soft)
    soft_box = plain()
    api["AddCompliantHydroelasticProperties"](0.05, 1e6, soft_box)
    add(api["Box"](0.1, 0.1, 0.1), "soft_box", (5.0, 0.3, 0.045), soft_box)
    rigid = plain()
    api["AddRigidHydroelasticProperties"](0.05, rigid)
    add(api["Box"](1.0, 1.0, 0.1), "rigid_box", (5.0, 0.0, -0.05), rigid, anchored=True)
    add(api["Capsule"](0.05, 0.1), "capsule", (5.0, -0.3, 0.04))


def probe(out: str, load_api=library_api, name: str = "scenegraph") -> int:
    """Runs the probe and writes its marks to `out` (JSON); load_api()
    imports the library and returns its classes under pydrake's names
    (tools/drake_cold_start.py passes pydrake's)."""
    compiles = _Compiles()
    marks = {}
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import numpy as np
    import proximity_scenes as ps
    if name == "scenegraph":
        sys.path.insert(0, str(ROOT))   # this copy's scenegraph (install imports _jit)
        compiles.install()
    api = load_api()
    marks["import"] = _since()

    scene = ps.mixed_scene(25)
    runner = ps.SceneGraphRunner(api)
    tmp = tempfile.mkdtemp(prefix="cold_start_")
    vertices, faces = ps.icosphere(2)
    mesh_path = pathlib.Path(tmp) / "icosphere.obj"
    mesh_path.write_text(ps.obj_text(0.2 * vertices, faces))
    scene_graph = api["SceneGraph"]()
    source = scene_graph.RegisterSource("extra")
    frame = scene_graph.RegisterFrame(source, api["GeometryFrame"]("extra_frame"))
    _extra_geometries(api, scene_graph, source, frame, mesh_path)
    runner.api = dict(api, SceneGraph=lambda: scene_graph)
    handle = runner.build(scene)
    poses = api["FramePoseVector"]()
    poses.set_value(frame, api["RigidTransform"]())
    scene_graph.get_source_pose_port(source).FixValue(handle["context"], poses)
    marks["scene registered"] = _since()

    point = np.array(scene["points"][0])
    representation = api["HydroelasticContactRepresentation"].kPolygon
    calls = {
        "ComputePointPairPenetration": lambda q: q.ComputePointPairPenetration(),
        "ComputeSignedDistancePairwiseClosestPoints":
            lambda q: q.ComputeSignedDistancePairwiseClosestPoints(0.05),
        "HasCollisions": lambda q: q.HasCollisions(),
        "ComputeSignedDistanceToPoint": lambda q: q.ComputeSignedDistanceToPoint(point, 0.05),
        "FindCollisionCandidates": lambda q: q.FindCollisionCandidates(),
        "ComputeContactSurfacesWithFallback":
            lambda q: q.ComputeContactSurfacesWithFallback(representation),
    }
    counts = {}
    cpu_marks = {"import": None, "scene registered": time.process_time()}
    for k, query in enumerate(QUERIES):
        runner.set_pose(handle, k + 1)
        result = calls[query](handle["query_port"].Eval(handle["context"]))
        marks[query] = _since()
        cpu_marks[query] = time.process_time()
        counts[query] = ([len(r) for r in result] if isinstance(result, tuple)
                         else bool(result) if isinstance(result, bool) else len(result))
    top = sorted(compiles.top.items(), key=lambda kv: -kv[1])
    pathlib.Path(out).write_text(json.dumps(
        {"api": name, "marks": marks, "cpu_marks": cpu_marks, "counts": counts,
         "helper": _helper_groups() if name == "scenegraph" else {},
         "cpu_s": time.process_time(),
         "functions_compiled": compiles.count, "compile_cpu_s": sum(compiles.top.values()),
         "top_kernels": top[:15],
         "repeated_specializations": {n: len(s) for n, s in compiles.signatures.items()
                                      if len(s) > 1}}, indent=1))
    return 0


def _helper_groups() -> dict:
    """The compile helper's groups (scenegraph._warmup) that ended by now:
    group -> (its CPU seconds, its seconds since it started) at the end of
    each, from its .done files; and which process claimed each group."""
    import glob

    from scenegraph import _jit
    folder = _jit._HELPER.get("done")
    if not folder:
        return {}
    ended = {}
    for path in glob.glob(os.path.join(folder, "*.done")):
        group = os.path.basename(path)[:-len(".done")].replace("_", " ")
        try:
            ended[group] = [float(x) for x in pathlib.Path(path).read_text().split()]
        except (OSError, ValueError):
            ended[group] = []
    return {"ended": ended, "this process compiled": sorted(_jit._HELPER["own"]),
            "helper's list": list(_jit._HELPER["groups"])}


# ------------------------------------------------------------------ the driver


def fresh_copy(destination: pathlib.Path) -> pathlib.Path:
    """The repository's files (git ls-files: tracked and untracked-not-
    ignored, as in the working tree) copied under `destination`, without any
    __pycache__ (so no compiled kernel comes along)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True)
    if listed.returncode == 0:
        names = [n.decode() for n in listed.stdout.split(b"\0") if n]
    else:   # not a git checkout: every file but caches and virtualenvs
        names = [str(path.relative_to(ROOT)) for path in ROOT.rglob("*")
                 if path.is_file() and not {"__pycache__", ".git", ".venv"} & set(
                     path.relative_to(ROOT).parts)]
    for name in names:
        source = ROOT / name
        if not source.is_file():
            continue
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return destination


def _run(python: str, script: pathlib.Path, out: pathlib.Path, env: dict, cwd) -> dict:
    started = time.perf_counter()
    done = subprocess.run([python, str(script), "--probe", "--out", str(out)], cwd=cwd,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{script} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    result = json.loads(out.read_text())
    result["process_s"] = time.perf_counter() - started
    result["stderr"] = done.stderr
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--warm", action="store_true",
                        help="also run a second process on the filled cache")
    parser.add_argument("--no-drake", action="store_true", help="skip pydrake")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    if args.probe:
        return probe(args.out)

    work = pathlib.Path(tempfile.mkdtemp(prefix="bench_cold_start_"))
    try:
        copy = fresh_copy(work / "repo")
        cache = work / "numba_cache"
        cache.mkdir()
        env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("NUMBA_DISABLE_JIT", None)
        script = copy / "benchmarks" / "bench_cold_start.py"
        runs = {"cold": _run(sys.executable, script, work / "cold.json", env, copy)}
        if args.warm:
            runs["warm"] = _run(sys.executable, script, work / "warm.json", env, copy)
        drake_python = os.environ.get("DRAKE_PYTHON", "/work/drake-venv/bin/python")
        if not args.no_drake and os.path.exists(drake_python):
            tool = ROOT / "tools" / "drake_cold_start.py"
            done = subprocess.run([drake_python, str(tool), "--out", str(work / "drake.json")],
                                  cwd=ROOT, capture_output=True, text=True)
            if done.returncode == 0:
                runs["pydrake"] = json.loads((work / "drake.json").read_text())
            else:
                print(f"pydrake probe failed:\n{done.stderr[-2000:]}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    columns = list(runs)
    print(f"seconds since the process started (load average {load:.1f}, "
          f"{os.cpu_count()} cores)")
    print(f"{'step':46s}" + "".join(f"{c:>12s}" for c in columns))
    steps = ["import", "scene registered", *QUERIES]
    for step in steps:
        print(f"{step:46s}" + "".join(f"{runs[c]['marks'].get(step, float('nan')):12.2f}"
                                      for c in columns))
    print(f"{'process CPU [s]':46s}" + "".join(f"{runs[c]['cpu_s']:12.2f}" for c in columns))
    cpu_marks = runs["cold"].get("cpu_marks") or {}
    if cpu_marks:
        print("cold: this process's CPU seconds at " + ", ".join(
            f"{step} {cpu_marks[step]:.1f}" for step in ("scene registered", *QUERIES)
            if cpu_marks.get(step) is not None))
    helper = runs["cold"].get("helper") or {}
    if helper:
        listed = helper["helper's list"]
        print(f"cold: the compile helper's list {listed}; this process "
              f"compiled {helper['this process compiled']}; the helper's CPU / seconds "
              f"since its start when each of its groups ended: " + ", ".join(
                  f"{g} {v[0]:.1f} / {v[1]:.1f}" if len(v) == 2 else g
                  for g, v in sorted(helper["ended"].items(), key=lambda kv: kv[1][1:] or [0])))
    for c in columns:
        if "functions_compiled" in runs[c]:
            print(f"{c}: {runs[c]['functions_compiled']} functions compiled, "
                  f"{runs[c]['compile_cpu_s']:.1f} s CPU compiling")
    repeated = runs["cold"].get("repeated_specializations") or {}
    print(f"cold: {len(repeated)} library functions compiled for more than one signature"
          + (": " + ", ".join(f"{n.rsplit('.', 1)[-1]} x{k}" for n, k in sorted(repeated.items()))
             if repeated else "") + " (tools/compile_profile.py lists the signatures)")
    if runs["cold"]["top_kernels"]:
        print("cold: kernels whose compiles took longest (CPU s, callees included)")
        for name, seconds in runs["cold"]["top_kernels"]:
            print(f"  {seconds:7.2f}  {name}")
    if args.json:
        for run in runs.values():
            run.pop("stderr", None)
        pathlib.Path(args.json).write_text(json.dumps({"load": load, "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
