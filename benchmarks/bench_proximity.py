"""Proximity queries on Drake's benchmark scenes (N = 50, 200, 1000 Sphere/Box/
Capsule geometries in a 0.82 m cube; tests/reference_data/drake_benchmarks.json).

For each N prints the median milliseconds per call of
ComputePointPairPenetration, ComputeSignedDistancePairwiseClosestPoints(0.1)
and HasCollisions, the ratio to Drake's time, and the result counts, which
must equal Drake's. Two timings per query:
  fresh  — the frame poses were just changed (a new FramePoseVector is fixed
           before each call), so world poses and the whole query are recomputed;
  repeat — the same QueryObject queried again (SceneGraph's caches hold the
           world poses and the query's numeric results; result objects are
           still built anew each call).
Drake's stored medians come from repeated calls on an unchanged context.

Run: .venv/bin/python benchmarks/bench_proximity.py [N ...]
"""
from __future__ import annotations

import json
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scenegraph import FramePoseVector  # noqa: E402
from tests.scenegraph.reference_scene import build, pose  # noqa: E402

REFERENCE = ROOT / "tests" / "reference_data" / "drake_benchmarks.json"


def _median_ms(function, repeats: int, before=None) -> float:
    times = []
    for _ in range(repeats):
        if before is not None:
            before()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def bench(n: str, scene: dict, drake: dict) -> dict:
    built = build(scene)
    scene_graph, context = built.scene_graph, built.context
    port = scene_graph.get_source_pose_port(
        scene_graph.model_inspector().GetAllSourceIds()[1])
    frames = scene["frames"]
    flip = [0]

    def new_poses():
        # Alternate between two equal pose sets held in distinct vectors: the
        # port value changes, so everything downstream is recomputed.
        flip[0] ^= 1
        poses = FramePoseVector()
        for frame in frames:
            poses.set_value(built.frames[frame["name"]], pose(frame["X_WF"]))
        port.FixValue(context, poses)

    def query():
        return scene_graph.get_query_output_port().Eval(context)

    repeats = {"50": 50, "200": 15, "1000": 5}[n]
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
        # fresh: the port is evaluated after each pose change, as a consumer does.
        fresh = _median_ms(lambda: getattr(query(), method)(*args), repeats,
                           before=new_poses)
        held = query()
        bound = getattr(held, method)
        bound(*args)
        repeat = _median_ms(lambda: bound(*args), repeats * 20 if n != "1000" else repeats)
        rows[name] = (fresh, repeat, drake[key] * 1e3)
    return {"rows": rows, "counts": counts}


def main(argv) -> int:
    reference = json.loads(REFERENCE.read_text())["proximity"]
    sizes = argv or ["50", "200", "1000"]
    ok = True
    for n in sizes:
        drake = reference["results"][n]
        result = bench(n, reference["scenes"][n], drake)
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
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
