"""The timed steps of loading one robot, shared by this library's benchmark
(benchmarks/bench_robots.py) and pydrake's (tools/drake_bench_robots.py), so
that both time exactly the same work; only the classes differ.

One call of `measure` is one measurement and must run in a fresh process
(imports and every first-time cost included). Steps, each timed with
time.perf_counter:

  (a) import      the library's modules (an `import_api` callable returning
                  {name: class}; numpy's import included: nothing imports it before)
  (b) setup       plant:    DiagramBuilder(); AddMultibodyPlantSceneGraph(builder, 0.0)
                  parse:    Parser(plant); package map (package_map entries); AddModels(urdf)
                  finalize: plant.Finalize()
                  build:    builder.Build()
                  context:  diagram.CreateDefaultContext()
  (c) first query on the default configuration, from the SceneGraph's
                  QueryObject (its context taken from the root context and the
                  query port evaluated inside the timed step):
                  penetration: ComputePointPairPenetration()
                  distance:    ComputeSignedDistancePairwiseClosestPoints(max_distance=0.05)
  (d) warm        the same two queries after plant.SetPositions with q changed,
                  for WARM_CONFIGURATIONS configurations (every coordinate with
                  finite lower and upper limits set to lower + f·(upper - lower),
                  f = 0.30, 0.35, ...; the others keep their default): median
                  seconds of SetPositions + port Eval + both queries.

load = (b) + (c) is the figure compared between the libraries. The process's
CPU time (time.process_time: user + system, all threads) of (a) and of
(b) + (c) is recorded too (import_cpu_s, load_cpu_s): on a shared machine it
moves much less than the wall time when other processes compete for the cores.

The result is one JSON object (the benchmark scripts print it as one line):
seconds per step and part, counts (nq, nv, bodies, proximity geometries,
penetration pairs and distance pairs at the default configuration), and
"error" (``Type: first line``) with the failing step when a step raises.
"""
from __future__ import annotations

import statistics
import time

DISTANCE_M = 0.05
WARM_CONFIGURATIONS = 5


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"


def _configurations(lower, upper, q0, count: int) -> list:
    """`count` position vectors: q0 with every coordinate limited on both
    sides set to lower + f (upper - lower), f = 0.30, 0.35, ..."""
    import numpy as np
    lower, upper, q0 = (np.asarray(x, dtype=float) for x in (lower, upper, q0))
    finite = np.isfinite(lower) & np.isfinite(upper)
    out = []
    for k in range(count):
        q = q0.copy()
        f = 0.30 + 0.05 * k
        q[finite] = lower[finite] + f * (upper[finite] - lower[finite])
        out.append(q)
    return out


def measure(import_api, urdf: str, package_map: dict) -> dict:
    """Times (a)-(d) above for the URDF file `urdf` with the package map
    entries {name: folder}; returns the record (never raises: a failing step
    ends the measurement with "error" and "failed_step")."""
    record: dict = {"urdf": urdf}
    step = "import"
    try:
        t, cpu = time.perf_counter(), time.process_time()
        api = import_api()
        record["import_s"] = time.perf_counter() - t
        record["import_cpu_s"] = time.process_time() - cpu
        cpu = time.process_time()

        setup = {}
        step = "plant"
        t = time.perf_counter()
        builder = api["DiagramBuilder"]()
        plant, scene_graph = api["AddMultibodyPlantSceneGraph"](builder, 0.0)
        setup["plant_s"] = time.perf_counter() - t
        step = "parse"
        t = time.perf_counter()
        parser = api["Parser"](plant)
        for name, folder in package_map.items():
            parser.package_map().Add(name, folder)
        parser.AddModels(urdf)
        setup["parse_s"] = time.perf_counter() - t
        step = "finalize"
        t = time.perf_counter()
        plant.Finalize()
        setup["finalize_s"] = time.perf_counter() - t
        step = "build"
        t = time.perf_counter()
        diagram = builder.Build()
        setup["build_s"] = time.perf_counter() - t
        step = "context"
        t = time.perf_counter()
        context = diagram.CreateDefaultContext()
        setup["context_s"] = time.perf_counter() - t
        record.update(setup)
        record["setup_s"] = sum(setup.values())

        step = "first_penetration"
        t = time.perf_counter()
        sg_context = scene_graph.GetMyContextFromRoot(context)
        query = scene_graph.get_query_output_port().Eval(sg_context)
        penetration = query.ComputePointPairPenetration()
        record["first_penetration_s"] = time.perf_counter() - t
        step = "first_distance"
        t = time.perf_counter()
        distance = query.ComputeSignedDistancePairwiseClosestPoints(max_distance=DISTANCE_M)
        record["first_distance_s"] = time.perf_counter() - t
        record["first_query_s"] = record["first_penetration_s"] + record["first_distance_s"]
        record["load_s"] = record["setup_s"] + record["first_query_s"]
        record["load_cpu_s"] = time.process_time() - cpu

        inspector = query.inspector()
        record["counts"] = {
            "nq": int(plant.num_positions()), "nv": int(plant.num_velocities()),
            "bodies": int(plant.num_bodies()),
            "proximity_geometries": int(inspector.NumGeometriesWithRole(api["Role"].kProximity)),
            "penetration_pairs": len(penetration), "distance_pairs": len(distance)}

        step = "warm"
        plant_context = plant.GetMyMutableContextFromRoot(context)
        configurations = _configurations(plant.GetPositionLowerLimits(),
                                         plant.GetPositionUpperLimits(),
                                         plant.GetPositions(plant_context),
                                         WARM_CONFIGURATIONS)
        warm, warm_penetration, warm_distance = [], [], []
        for q in configurations:
            t = time.perf_counter()
            plant.SetPositions(plant_context, q)
            query = scene_graph.get_query_output_port().Eval(sg_context)
            query.ComputePointPairPenetration()
            t1 = time.perf_counter()
            query.ComputeSignedDistancePairwiseClosestPoints(max_distance=DISTANCE_M)
            t2 = time.perf_counter()
            warm.append(t2 - t)
            warm_penetration.append(t1 - t)
            warm_distance.append(t2 - t1)
        record["warm_query_s"] = statistics.median(warm)
        record["warm_penetration_s"] = statistics.median(warm_penetration)
        record["warm_distance_s"] = statistics.median(warm_distance)
    except Exception as error:  # noqa: BLE001  recorded, the caller reports it
        record["failed_step"] = step
        record["error"] = _first_line(error)
    return record
