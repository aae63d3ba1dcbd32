"""Proximity queries against Drake, measured side by side on the same scenes.

Every figure is the median time of a call made right after the frame poses
changed (a new FramePoseVector fixed on the pose port: world poses and the
whole query are recomputed), the number a controller or simulator querying
once per step sees. Scenes, pose sequence, thresholds and timing loop come
from benchmarks/proximity_scenes.py, which tools/drake_bench_proximity.py
runs unchanged on pydrake; each row prints ours, Drake's and the ratio
ours/Drake, with the result counts of both at pose 0 (they must agree) and
Δsum, ours minus Drake's summed depths/distances [m] (Drake's penetration
depths are not always minimal, so penetration sums differ). Candidate counts
are printed "ours/Drake": each implementation culls with its own bounding
volumes (Drake's are cubes around each shape's bounding sphere).

Every run starts with the process's first query (build and first
ComputePointPairPenetration of the 25-geometry mixed scene: numba loads the
compiled kernels from its cache there, once per process), so that the
build rows below are the cost of registering geometries and their first
query, whichever section runs first.

Sections (``--only``):
  mixed    N = 25, 100, 1000, 3000 mixed geometries (``--n``): one per 0.2 m
           cube cell, Sphere/Box/Capsule/Cylinder/Ellipsoid/Convex(24 v.) round
           robin, 10% anchored, 10 per frame. Rows: ComputePointPairPenetration,
           ComputeSignedDistancePairwiseClosestPoints(0.05), HasCollisions,
           FindCollisionCandidates, and 1000 separate ComputeSignedDistanceToPoint
           calls (points uniform in the scene's cube, threshold 0.05 m); "build"
           is registration through the end of the first query.
  pairs    one scene per sorted pair of the 7 types (28, ``--pairs A-B``):
           40 isolated pairs, 20 penetrating by 2–40 mm, 20 separated by 2–40 mm;
           µs per result pair of ComputePointPairPenetration (time / penetrating
           pairs) and of ComputeSignedDistancePairwiseClosestPoints(0.05)
           (time / pairs reported). Drake refuses HalfSpace distance except with
           Sphere, and HalfSpace–HalfSpace penetration ("throws").
  drake50  Drake's own bench scene N = 50 (tests/reference_data/drake_benchmarks.json)
           with the same small-motion poses: penetration, pairwise(0.1),
           HasCollisions, FindCollisionCandidates.
  drakedense  Drake's bench scenes N = 200 and 1000 (dense: ~5 % of all pairs
           penetrate), same poses: HasCollisions.
  convex   One Convex of V = 100, 200, 400, 642 (icosphere), 1000 vertices and
           a Box 10 mm away (``--convex``): build (register → end of first
           query) and each ComputeSignedDistancePairwiseClosestPoints(); 20 Convex
           of 100 vertices, all 190 pairs; Convex(200)–Convex(200) 10 mm apart,
           ComputeSignedDistancePairClosestPoints.
  mesh     A closed icosphere Mesh of 1280, 5120, 20480 triangles (``--mesh``,
           read from a temporary OBJ): build, BVH (first point query minus the
           median later one), 1000 separate ComputeSignedDistanceToPoint calls
           (threshold inf).
  legacy   (only when named) the old Drake-bench rows, N = 50, 200, 1000, against
           Drake's stored figures (``--legacy-n``; fresh and repeat calls).

Repeats adapt to the cost of a call (≥ 5 calls and ≥ 1 s of timed work, ≤ 300
calls) within ``--budget`` seconds per row (at least one fresh call after the
warm-up); a single call longer than ``--cap`` seconds is aborted and printed
as "> cap s" (its scene is rebuilt for the next row).

Drake's figures (pydrake 1.51.1): benchmarks/drake_proximity_times.json, per
row the median over 3 rounds run alternately with this benchmark on the same
machine (2 cores), last written (every section, 2026-11-25) by

    .venv/bin/python tools/proximity_side_by_side.py --rounds 3 \
        --budget 5 --cap 60 --write

and the drake50, drakedense and mixed N = 25, 100, 1000 rows again on
2026-11-29 (issue 27) by

    .venv/bin/python tools/proximity_side_by_side.py --rounds 3 --budget 3 \
        --only drake50 drakedense mixed --n 25 100 1000 --write

Each round runs ``/work/drake-venv/bin/python tools/drake_bench_proximity.py``
and this script with ``--json`` (see tools/proximity_side_by_side.py); every
row of the JSON records its command and date.

Run:  .venv/bin/python benchmarks/bench_proximity.py [--only mixed pairs ...]
      [--n 25 100] [--pairs Box-Cylinder] [--budget 10] [--cap 60] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import math
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import proximity_scenes as ps  # noqa: E402
from scenegraph import FramePoseVector  # noqa: E402

DRAKE_TIMES = ROOT / "benchmarks" / "drake_proximity_times.json"


def library_api() -> dict:
    """This library's classes under pydrake's names (for SceneGraphRunner)."""
    import scenegraph
    import scenegraph.math as sg_math
    names = ("SceneGraph", "GeometryFrame", "GeometryInstance", "ProximityProperties",
             "FramePoseVector", "Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid",
             "HalfSpace", "Convex", "Mesh")
    api = {name: getattr(scenegraph, name) for name in names}
    api["RigidTransform"] = sg_math.RigidTransform
    api["RotationMatrix"] = sg_math.RotationMatrix
    return api


# ---------------------------------------------------------------------------
# Report.

def _time(record: dict | None, field: str = "median_s", unit: float = 1e3,
          per: float | None = None) -> tuple[str, float | None]:
    """Formatted time of a row (ms by default) and its value, or a note."""
    if record is None:
        return "—", None
    if "capped_s" in record:
        return f"> {record['capped_s']:g} s", None
    if "error" in record:
        return ("throws" if "not supported" in record["error"] else "ERROR"), None
    if "skipped" in record:
        return "skipped", None
    value = record.get(field)
    if value is None:
        return "—", None
    if per is not None:
        if not per:
            return "no result", None
        value = value / per
    return _number(value * unit), value


def _number(x: float) -> str:
    return f"{x:.4g}" if abs(x) < 1000 else f"{x:,.0f}"


def _ratio(ours: float | None, drake: float | None) -> str:
    if ours is None or drake is None or drake <= 0:
        return ""
    r = ours / drake
    return f"{r:.3g}x" if r < 1000 else f"{r:,.0f}x"


def _counts(ours: dict | None, drake: dict | None, problems: list, key: str) -> str:
    """'n' when both agree, 'n/m!' when not (recorded in problems)."""
    a = None if ours is None else ours.get("count")
    b = None if drake is None else drake.get("count")
    if a is None and b is None:
        return ""
    if a is None or b is None:
        return f"{a if a is not None else '-'}/{b if b is not None else '-'}"
    if key.endswith("/FindCollisionCandidates"):
        # Bounding volumes are the implementation's: Drake's (FCL) are cubes
        # around each shape's bounding sphere, ours are tighter boxes.
        return f"{a}/{b}"
    text = str(a) if a == b else f"{a}/{b} MISMATCH"
    if a != b:
        problems.append(f"{key}: count {a} here, {b} in Drake")
    va, vb = ours.get("value"), drake.get("value")
    if a == b and va is not None and vb is not None:
        text += f"  Δsum {va - vb:+.1e}"
    return text


def _errors(ours: dict | None, drake: dict | None, problems: list, key: str) -> None:
    if ours and "error" in ours and (drake is None or "error" not in drake):
        problems.append(f"{key}: raised here, Drake answers: {ours['error']}")


def _row(label: str, ours: dict | None, drake: dict | None, problems: list, key: str,
         field: str = "median_s", unit: float = 1e3, per_result: bool = False) -> str:
    o_text, o_val = _time(ours, field, unit, ours.get("count") if per_result and ours else None)
    d_text, d_val = _time(drake, field, unit, drake.get("count") if per_result and drake else None)
    _errors(ours, drake, problems, key)
    return (f"  {label:52s} {o_text:>11s} {d_text:>11s} {_ratio(o_val, d_val):>9s}  "
            f"{_counts(ours, drake, problems, key)}")


def report(ours: dict, drake: dict, out=print) -> list:
    """Prints the tables for every row in `ours`; returns the problems found
    (count mismatches, queries raising where Drake answers)."""
    problems: list = []
    header = f"  {'':52s} {'ours':>11s} {'Drake':>11s} {'ratio':>9s}  count (ours/Drake)"

    def section(prefix: str) -> list:
        return sorted({k.rsplit("/", 1)[0] for k in ours if k.startswith(prefix + "/")},
                      key=lambda job: [(0, int(x), "") if x.isdigit() else (1, 0, x)
                                       for x in job.split("/")])

    def job_rows(job: str) -> list:
        """The job's row keys: build first, then the queries in run order."""
        keys = [k for k in ours if k.startswith(job + "/")]
        order = ps.row_order(job.split("/")[0])
        return sorted(keys, key=lambda k: order.index(k[len(job) + 1:])
                      if k[len(job) + 1:] in order else len(order))

    process = section("process")
    if process:
        out("\nProcess: first queries (compiled kernels loaded from numba's cache), s")
        out(header)
        for job in process:
            key = f"{job}/build"
            scene = "25 mixed" if job.endswith("/first") else "20-triangle Mesh"
            out(_row(f"{scene}: register .. first {_short(ours[key].get('query', ''))}",
                     ours[key], drake.get(key), problems, key, "build_s", 1.0))
            drake_warm = (drake.get(key) or {}).get("warm_s", {})
            for label, seconds in ours[key].get("warm_s", {}).items():
                other = drake_warm.get(label)
                out(_row(f"{scene}: then first {_short(label)}", {"s": seconds},
                         None if other is None else {"s": other}, problems, key, "s", 1.0))
    mixed = section("mixed")
    if mixed:
        out("\nMixed scenes: median ms per call, poses changed before every call")
        out(header)
        for job in sorted(mixed, key=lambda j: int(j.split("/")[1])):
            out(f" N = {job.split('/')[1]}")
            for key in job_rows(job):
                label = key[len(job) + 1:]
                if label == "build":
                    out(_row("build: register .. first penetration [s]", ours[key],
                             drake.get(key), problems, key, "build_s", 1.0))
                else:
                    out(_row(label, ours[key], drake.get(key), problems, key))
    pairs = [job for job in section("pairs")]
    if pairs:
        out("\nPer shape-type pair: µs per result pair (median call time / results at pose 0)")
        out(f"  {'':52s} {'ours':>11s} {'Drake':>11s} {'ratio':>9s}  results")
        for job in sorted(pairs, key=lambda j: [ps.PAIR_TYPES.index(t)
                                                 for t in j.split("/")[1].split("-")]):
            name = job.split("/")[1]
            distance = ps.spec_label(ps.pairwise(ps.DISTANCE_THRESHOLD_M))
            for label, query in (("penetration", "ComputePointPairPenetration"),
                                 (f"distance({ps.DISTANCE_THRESHOLD_M:g})", distance)):
                key = f"{job}/{query}"
                out(_row(f"{name} {label}", ours.get(key), drake.get(key), problems, key,
                         unit=1e6, per_result=True))
    for job in section("drake50") + section("drakedense"):
        n = job.split("/")[1]
        out(f"\nDrake's bench scene N = {n}: median ms per call, poses changed before every call")
        out(header)
        first = "penetration" if job.startswith("drake50/") else "HasCollisions"
        for key in job_rows(job):
            label = key[len(job) + 1:]
            if label == "build":
                out(_row(f"build: register .. first {first} [ms]", ours[key],
                         drake.get(key), problems, key, "build_s"))
            else:
                out(_row(label, ours[key], drake.get(key), problems, key))
    convex = section("convex")
    if convex:
        out("\nConvex: build = shape, register, context, first query [ms]; query = median ms")
        out(header)
        for job in convex:
            name = job.split("/")[1]
            what = {"20x100": "20 Convex(100 v.), all 190 pairs",
                    "pair200": "Convex(200)–Convex(200), one separated pair"}.get(
                        name, f"Convex({name} v.) + Box")
            for key in job_rows(job):
                label = key[len(job) + 1:]
                if label == "build":
                    out(_row(f"{what}: build", ours[key], drake.get(key), problems, key,
                             "build_s"))
                else:
                    out(_row(f"{what}: query", ours[key], drake.get(key), problems, key))
    mesh = section("mesh")
    if mesh:
        out("\nMesh (closed icosphere OBJ): ms")
        out(header)
        for job in sorted(mesh, key=lambda j: int(j.split("/")[1])):
            faces = job.split("/")[1]
            build_key = f"{job}/build"
            one = f"{job}/{ps.spec_label(ps.one_point(math.inf))}"
            many = f"{job}/{ps.spec_label(ps.points(math.inf))}"
            out(_row(f"{faces} faces: build (register .. first point query)",
                     ours.get(build_key), drake.get(build_key), problems, build_key, "build_s"))
            out(_row(f"{faces} faces: BVH (first point query - later one)",
                     _bvh(ours, build_key, one), _bvh(drake, build_key, one), problems,
                     build_key + "/bvh", "bvh_s"))
            out(_row(f"{faces} faces: 1 point query", ours.get(one), drake.get(one),
                     problems, one))
            out(_row(f"{faces} faces: 1000 point queries", ours.get(many), drake.get(many),
                     problems, many))
    return problems


def _short(label: str) -> str:
    """A query row label with the method's name shortened (for the process rows)."""
    for name, short in (("ComputePointPairPenetration", "penetration"),
                        ("ComputeSignedDistancePairwiseClosestPoints", "pairwise"),
                        ("ComputeSignedDistanceToPoint", "point")):
        label = label.replace(name, short)
    return label


def _bvh(rows: dict, build_key: str, one_key: str) -> dict | None:
    build, one = rows.get(build_key), rows.get(one_key)
    if build is None or one is None:
        return None
    for record in (build, one):
        if any(k in record for k in ("capped_s", "error", "skipped")):
            return record
    return {"bvh_s": build["first_query_s"] - one["median_s"]}


def load_drake(path: pathlib.Path) -> dict:
    if not path.exists():
        print(f"(no Drake figures: {path} missing; run tools/proximity_side_by_side.py)")
        return {}
    return json.loads(path.read_text())["rows"]


# ---------------------------------------------------------------------------
# Legacy rows: Drake's stored figures (repeat calls on an unchanged context).

def _median_ms(function, repeats: int, before=None) -> float:
    times = []
    for _ in range(repeats):
        if before is not None:
            before()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def legacy_bench(n: str, scene: dict, drake: dict) -> dict:
    from tests.scenegraph.reference_scene import build, pose

    built = build(scene)
    scene_graph, context = built.scene_graph, built.context
    port = scene_graph.get_source_pose_port(
        scene_graph.model_inspector().GetAllSourceIds()[1])
    frames = scene["frames"]

    def new_poses():
        poses = FramePoseVector()
        for frame in frames:
            poses.set_value(built.frames[frame["name"]], pose(frame["X_WF"]))
        port.FixValue(context, poses)

    def query():
        return scene_graph.get_query_output_port().Eval(context)

    repeats = {"50": 50, "200": 15, "1000": 5}.get(n, 5)
    rows = {}
    penetration = query().ComputePointPairPenetration()
    pairwise = query().ComputeSignedDistancePairwiseClosestPoints(0.1)
    counts = {"penetrating": len(penetration), "within_0.1": len(pairwise),
              "HasCollisions": query().HasCollisions()}
    for name, method, args, key in (
            ("ComputePointPairPenetration", "ComputePointPairPenetration", (),
             "ComputePointPairPenetration_s"),
            ("ComputeSignedDistancePairwiseClosestPoints(0.1)",
             "ComputeSignedDistancePairwiseClosestPoints", (0.1,),
             "ComputeSignedDistancePairwiseClosestPoints_max0.1_s"),
            ("HasCollisions", "HasCollisions", (), "HasCollisions_s")):
        fresh = _median_ms(lambda: getattr(query(), method)(*args), repeats,
                           before=new_poses)
        held = query()
        bound = getattr(held, method)
        bound(*args)
        repeat = _median_ms(lambda: bound(*args), repeats * 20 if n != "1000" else repeats)
        rows[name] = (fresh, repeat, drake[key] * 1e3)
    return {"rows": rows, "counts": counts}


def legacy(sizes) -> bool:
    reference = json.loads(ps.DRAKE_BENCH_SCENES.read_text())["proximity"]
    ok = True
    print("\nLegacy: Drake's bench scenes against Drake's stored repeat-call figures")
    for n in sizes:
        drake = reference["results"][n]
        result = legacy_bench(n, reference["scenes"][n], drake)
        counts = result["counts"]
        print(f"N = {n}: penetrating pairs {counts['penetrating']} (Drake "
              f"{drake['num_penetrating_pairs']}), pairs within 0.1 m "
              f"{counts['within_0.1']} (Drake {drake['num_pairs_within_0.1']}), "
              f"HasCollisions {counts['HasCollisions']} (Drake {drake['HasCollisions']})")
        ok &= (counts["penetrating"] == drake["num_penetrating_pairs"]
               and counts["within_0.1"] == drake["num_pairs_within_0.1"]
               and counts["HasCollisions"] == drake["HasCollisions"])
        for name, (fresh, repeat, drake_ms) in result["rows"].items():
            print(f"  {name:50s} fresh {fresh:9.3f} ms ({fresh / drake_ms:7.2f}x Drake)  "
                  f"repeat {repeat:9.3f} ms ({repeat / drake_ms:7.2f}x)  "
                  f"Drake {drake_ms:9.4f} ms")
    return ok


# ---------------------------------------------------------------------------

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ps.add_selection_arguments(parser, extra_sections=("legacy",))
    parser.add_argument("--cap", type=float, default=60.0,
                        help="abort a single call after this many s (default %(default)s)")
    parser.add_argument("--json", default=None, help="also write our rows to this JSON file")
    parser.add_argument("--drake", default=str(DRAKE_TIMES),
                        help="Drake's figures (default: %(default)s)")
    parser.add_argument("--legacy-n", nargs="+", default=["50", "200", "1000"])
    parser.add_argument("--quiet", action="store_true", help="no per-row progress lines")
    parser.add_argument("sizes", nargs="*", help="(old interface) legacy N values")
    args = parser.parse_args(argv)
    sections = args.only or (("legacy",) if args.sizes else ps.SECTIONS)
    ok = True
    if "legacy" in sections:
        ok &= legacy(args.sizes or args.legacy_n)
    args.only = [s for s in sections if s != "legacy"]
    if not args.only:
        return 0 if ok else 1

    def log(key, record):
        if not args.quiet:
            shown = {k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in record.items()}
            print(f"  .. {key}: {shown}", file=sys.stderr, flush=True)

    rows = ps.run_jobs(ps.SceneGraphRunner(library_api()), ps.jobs_from_args(args),
                       budget_s=args.budget, cap_s=args.cap, log=log)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"tool": "benchmarks/bench_proximity.py", "machine": ps.machine_info(),
             "command": " ".join(sys.argv), "rows": rows}, indent=1, sort_keys=True) + "\n")
    problems = report(rows, load_drake(pathlib.Path(args.drake)))
    if problems:
        print("\nProblems:")
        for problem in problems:
            print("  " + problem)
    return 0 if ok and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
