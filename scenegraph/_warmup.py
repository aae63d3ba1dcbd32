"""Compiling the proximity kernels in a second process (scenegraph._jit).

A fresh checkout has no machine code for the kernels; numba compiles each at
its first call, on one core. When a process first has to compile a query
kernel (a cache miss outside any compile, scenegraph._jit), it claims
that kernel's group and starts one helper process, ``python -m
scenegraph._warmup GROUP ...``, that compiles the other query groups into the
same cache meanwhile, on the other core. A group is compiled by whichever
process claims it first: when the process later needs a kernel of a group
the helper claimed, it waits for the helper's group instead of compiling it a
second time, then loads it.

Groups (each compiled by running its queries on a small scene of every shape
kind through the public API, so the signatures are those real scenes use):

  pair queries     ComputePointPairPenetration, signed distances, candidates,
                   HasCollisions (one compiled entry, pair_queries.query)
  point queries    ComputeSignedDistanceToPoint
  hydroelastic     ComputeContactSurfaces (polygons and triangles) on every
                   pair of its scene (the broad phase is a pair query)
  contact manifolds  QueryObject.compute_contact_manifolds' kernel (compiled
                   for its argument types, not run: its input is a
                   penetration query's answer, a pair query)
  narrow phase     narrow_phase.solve_pairs, which the pair-query kernel
                   calls through its address (scenegraph._separate), for
                   the argument types the pair queries pass it (from the
                   warm-up scene, and any the process compiling the pair
                   queries announces, a file in SCENEGRAPH_WARMUP_DONE);
                   first in the helper's list, and there only when the
                   starting process compiles the pair queries

The helper claims a group by creating ``<group>.claim`` exclusively in the
folder named by SCENEGRAPH_WARMUP_DONE (skipping groups claimed already),
writes ``<group>.done`` there after each and never starts helpers itself.
SCENEGRAPH_PARALLEL_COMPILE=0 turns helpers off.
"""
from __future__ import annotations

import os
import sys
import threading

import numpy as np

__all__ = ["GROUPS", "KERNEL_GROUPS", "PREPARED_MODULES", "PREPARED_KERNELS", "run_group",
           "note_in_use", "worth_compiling_while_waiting",
           "narrow_phase_requirement",
           "prepare_group", "prepare_hulls", "prepare_pair_queries", "EAGER_HULL_MAX_VERTICES"]

#: The groups, in the order a helper compiles them: the narrow phase first
#: (the pair queries wait for it), then those a first query is least likely
#: to need first. A process waiting for the narrow phase compiles the
#: unclaimed ones meanwhile, from the end (scenegraph._jit).
GROUPS = ("narrow phase", "contact manifolds", "hydroelastic", "point queries", "pair queries")

#: (module, function) of the kernels a query calls from Python -> group.
KERNEL_GROUPS = {
    ("scenegraph.proximity.compiled.pair_queries", "query"): "pair queries",
    ("scenegraph.proximity.compiled.query_state", "new_query_state"): "pair queries",
    ("scenegraph.proximity.compiled.point_query_kernel", "signed_distances_to_point"):
        "point queries",
    ("scenegraph.hydroelastic.contact_kernels", "soft_rigid_polygons"): "hydroelastic",
    ("scenegraph.hydroelastic.contact_kernels", "soft_soft_polygons"): "hydroelastic",
    ("scenegraph.hydroelastic.surface_kernels", "build_surface"): "hydroelastic",
    ("scenegraph.proximity.compiled.manifold_kernels", "contact_manifolds"):
        "contact manifolds",
    ("scenegraph.proximity.compiled.narrow_phase", "solve_pairs"): "narrow phase",
}
# (hydroelastic.bvh.build_boxes, which registering a compliant geometry
# calls, belongs to no group: a registration alone neither starts the helper
# nor claims the contact kernels.)


_IN_USE: set = set()    # groups whose geometry this process registered (note_in_use)


def note_in_use(group: str) -> None:
    """Records that this process registered a geometry whose queries need
    `group`'s kernels: "hydroelastic" when a geometry declares a compliance
    (SceneGraph builds its hydroelastic representation then)."""
    _IN_USE.add(group)


def worth_compiling_while_waiting(group: str) -> bool:
    """Whether a process waiting for the narrow phase should compile `group`
    meanwhile (scenegraph._jit): every group but the hydroelastic one, which
    only once this process registered a geometry with a compliance. Without
    one, contact surfaces are the fallback's point pairs (the pair queries),
    and ~20 s of hydroelastic compiling would only compete with the helper's
    narrow phase for the cores and finish after it, delaying the pair answers
    (the README demo's warm-up: 58 s instead of ~35 s at load 2)."""
    return group != "hydroelastic" or group in _IN_USE


def _scene(hydroelastic: bool, rotated: bool = True):
    """(scene_graph, context, pose port, frame): two of every shape kind in
    touching pairs and a half space; with `hydroelastic`, a compliant sphere
    on a rigid box and on a compliant box instead. With `rotated` False the
    geometries are only translated (no RollPitchYaw: its rotation kernels are
    not compiled for it)."""
    import scenegraph as sg
    from scenegraph.math import RigidTransform, RollPitchYaw

    scene_graph = sg.SceneGraph()
    source = scene_graph.RegisterSource("warmup")
    frame = scene_graph.RegisterFrame(source, sg.GeometryFrame("warmup"))

    def add(shape, name, X, props=None, anchored=False):
        instance = sg.GeometryInstance(X, shape, name)
        gid = (scene_graph.RegisterAnchoredGeometry(source, instance) if anchored else
               scene_graph.RegisterGeometry(source, frame, instance))
        scene_graph.AssignRole(source, gid, props if props is not None else
                               sg.ProximityProperties())

    if hydroelastic:
        soft = sg.ProximityProperties()
        sg.AddCompliantHydroelasticProperties(0.05, 1e6, soft)
        rigid = sg.ProximityProperties()
        sg.AddRigidHydroelasticProperties(0.05, rigid)
        add(sg.Sphere(0.1), "ball", RigidTransform([0.0, 0.0, 0.09]), soft)
        add(sg.Box(1.0, 1.0, 0.1), "table", RigidTransform(), rigid, anchored=True)
        add(sg.Box(0.3, 0.3, 0.1), "pad", RigidTransform([0.0, 0.0, 0.22]), soft,
            anchored=True)
    else:
        vertices = np.array([[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1],
                             [0.08, 0.08, 0.08]], dtype=float)
        shapes = [sg.Sphere(0.05), sg.Box(0.1, 0.08, 0.06), sg.Capsule(0.03, 0.1),
                  sg.Cylinder(0.04, 0.1), sg.Ellipsoid(0.05, 0.04, 0.03),
                  sg.Convex(vertices.T.copy(), "warmup_convex")]
        k = 0
        for i, shape in enumerate(shapes):
            for j in range(2):
                p = [0.3 * i, 0.06 * j, 0.0]
                add(shape, f"g{k}", RigidTransform(RollPitchYaw(0.3 * k, 0.2, 0.1 * j), p)
                    if rotated else RigidTransform(p))
                k += 1
        add(sg.HalfSpace(), "floor", RigidTransform([0.0, 0.0, -0.02]), anchored=True)
    context = scene_graph.CreateDefaultContext()
    return scene_graph, context, scene_graph.get_source_pose_port(source), frame


def run_group(group: str) -> None:
    """Runs `group`'s queries on the warm-up scene (compiling or loading its
    kernels)."""
    import scenegraph as sg
    from scenegraph.math import RigidTransform

    if group not in GROUPS:
        raise ValueError(f"unknown warm-up group {group!r}; expected one of {GROUPS}")
    if group == "narrow phase":
        _compile_announced_callees()
        return
    scene_graph, context, port, frame = _scene(group == "hydroelastic")
    if group == "contact manifolds":
        poses = sg.FramePoseVector()
        poses.set_value(frame, RigidTransform())
        port.FixValue(context, poses)
        _compile_contact_manifolds(scene_graph.get_query_output_port().Eval(context))
        return
    for step in range(2):
        poses = sg.FramePoseVector()
        poses.set_value(frame, RigidTransform([0.0, 0.0, 0.001 * step]))
        port.FixValue(context, poses)
        query = scene_graph.get_query_output_port().Eval(context)
        if group == "pair queries":
            query.ComputePointPairPenetration()
            query.ComputeSignedDistancePairwiseClosestPoints(0.05)
            query.FindCollisionCandidates()
            query.HasCollisions()
        elif group == "point queries":
            query.ComputeSignedDistanceToPoint(np.array([0.01, 0.02, 0.03]), 0.05)
        else:
            _contact_surfaces_of_every_pair(query)


def helper_narrow_phase_requirement():
    """narrow_phase_requirement of the warm-up scene as the compile helper
    derives it, first thing (its narrow-phase compile is the longest of a
    cold start): the scene only translated and its proximity engine built
    without poses, since the packed shapes' and hulls' types depend on
    neither. That spares the helper the rotation and world-pose kernels'
    compiles before it (~1 s of CPU), which the starting process compiles
    anyway."""
    scene_graph, context, _, _ = _scene(False, rotated=False)
    return narrow_phase_requirement(scene_graph._eval_proximity_engine(context).scene)


def narrow_phase_requirement(scene):
    """The scenegraph._separate.Requirement of narrow_phase.solve_pairs as
    pair_queries.query calls it on `scene` (a ProximityScene): the scene's
    packed shapes and hulls (the query state holds them as they are), poses
    R (N, 3, 3) and p (N, 3), rows, max_distance and the outputs as
    pair_queries builds them (C-contiguous, writable), stop_at_first."""
    from numba.core import types

    from scenegraph._jit import _typeof
    from scenegraph._separate import Requirement, symbol_name
    from scenegraph.proximity.compiled.narrow_phase import solve_pairs
    rows, values = types.int64[::1], types.float64[::1]
    points = types.float64[:, ::1]
    argtypes = (_typeof(scene.table.packed), _typeof(scene.table.hulls),
                types.float64[:, :, ::1], points, rows, rows, types.float64, values,
                points, points, points, rows, rows, types.boolean)
    return Requirement(symbol_name(solve_pairs, argtypes), solve_pairs.py_func.__module__,
                       solve_pairs.py_func.__name__, argtypes)


def _compile_announced_callees() -> None:
    """The "narrow phase" group: compiles (as a kernel, cached) the narrow
    phase for the argument types the pair queries pass it on the warm-up
    scene (narrow_phase_requirement: the types every scene gives), then any
    other separately compiled callee whose argument types the starting
    process announced by then in SCENEGRAPH_WARMUP_DONE
    (scenegraph._separate). Outside a helper nothing: the pair queries
    compile it when their kernel is installed."""
    import glob
    import pickle

    from scenegraph._separate import ensure
    folder = os.environ.get("SCENEGRAPH_WARMUP_DONE")
    if not folder or not os.environ.get("SCENEGRAPH_WARMUP_HELPER"):
        return
    ensure(helper_narrow_phase_requirement())
    # The pair queries announce while typing their kernel, seconds before
    # the narrow phase above is done: other argument types are rare (the
    # same types every scene gives), each compiled here too.
    for path in sorted(glob.glob(os.path.join(folder, "separate_*.pickle"))):
        with open(path, "rb") as f:
            ensure(pickle.load(f))


def _compile_contact_manifolds(query) -> None:
    """Compiles (or loads) manifold_kernels.contact_manifolds for the
    argument types contact_manifold.py passes it on `query`'s scene, without
    running it (its rows and values are a penetration query's answer)."""
    from scenegraph._jit import entry_point
    from scenegraph.proximity.compiled.layout import NUM_VALUES
    from scenegraph.proximity.compiled.manifold_kernels import MAX_POINTS, contact_manifolds
    from scenegraph.proximity.contact_manifold import _static

    engine, poses = query._engine_and_poses()
    scene = engine.scene
    R, p, _ = scene.poses(poses)
    rows = np.array([[0, 1]], dtype=np.int64)
    values = np.zeros((1, NUM_VALUES))
    counts, out = np.zeros(1, dtype=np.int64), np.zeros((1, MAX_POINTS, 7))
    entry_point(contact_manifolds, (*_static(scene), R, p, rows, values, counts, out))


def _contact_surfaces_of_every_pair(query) -> None:
    """ComputeContactSurfaces (polygons and triangles) on every pair of the
    warm-up scene's rows, without the broad phase: that is the pair-query
    kernel, which belongs to the "pair queries" group (compiled meanwhile by
    the other process; in a helper it would be compiled a second time). The
    warm-up scene's pairs all have a compliant member, so every pair has a
    contact surface or none, and the broad phase's pairs are among them."""
    import scenegraph as sg

    engine, poses = query._engine_and_poses()
    contact = engine._contact_query()
    a, b = np.triu_indices(len(engine.scene.ids), 1)
    pairs = np.ascontiguousarray(np.stack([a, b], axis=1), dtype=np.int64)
    contact._candidate_pairs = lambda R, p: pairs
    for representation in (sg.HydroelasticContactRepresentation.kPolygon,
                           sg.HydroelasticContactRepresentation.kTriangle):
        contact.ComputeContactSurfaces(poses, representation)


#: The modules a group's first query imports, which `prepare_group` imports.
PREPARED_MODULES = {"pair queries": ("scenegraph.proximity.engine",
                                     "scenegraph.proximity.dispatch",
                                     "scenegraph.proximity.pair_result",
                                     "scenegraph.proximity.exact_mesh_queries",
                                     "numba.core.typing.bufproto")}

#: (module, function) of the kernels a group's first query calls, which
#: `prepare_group` loads from the cache without running a query.
PREPARED_KERNELS = {
    "pair queries": (("scenegraph.kinematics_kernels", "geometry_world_poses"),
                     ("scenegraph.proximity.compiled.query_state", "new_query_state"),
                     ("scenegraph.proximity.compiled.narrow_phase", "solve_pairs"),
                     ("scenegraph.proximity.compiled.pair_queries", "query")),
}

_PREPARED = {"pair queries": False}
_PREPARE_LOCK = threading.Lock()


def prepare_group(group: str) -> None:
    """Imports the modules `group`'s first query imports (PREPARED_MODULES)
    and loads its kernels (PREPARED_KERNELS) from the compile cache, or,
    when one of them has nothing cached for this machine and source (a fresh
    checkout, an edited kernel), runs the group's queries on the warm-up
    scene (run_group), which compiles them. Loading takes no scene: the
    warm-up scene's Convex alone would import scipy.spatial (~0.2 s) in a
    process whose own scene has no hull. A group not cached starts the
    helper process of scenegraph._jit first (if none runs yet), so that the
    other groups compile meanwhile."""
    import importlib

    from scenegraph._jit import load_cached, start_helper
    for module in PREPARED_MODULES[group]:
        importlib.import_module(module)
    for module, name in PREPARED_KERNELS[group]:
        if load_cached(getattr(importlib.import_module(module), name)) == 0:
            start_helper(group)     # the other groups compile meanwhile
            run_group(group)
            return


#: Meshes with at most this many vertices get their hulls built at context
#: creation (prepare_hulls); larger ones at their first pair query: Qhull's
#: time grows with the points (seconds on millions), which a scene that only
#: asks point queries should never pay.
EAGER_HULL_MAX_VERTICES = 20_000


def prepare_hulls(inspector) -> None:
    """Readies the convex hulls of the proximity Meshes of the scene described
    by `inspector` (a SceneGraphInspector), which its first pair query needs.

    A Mesh of at most EAGER_HULL_MAX_VERTICES vertices has its hull built now
    (cached in memory per point set, so the query finds it; a point set seen
    before on this machine is read from the disk without importing Qhull,
    proximity/hull_cache.py). For a larger Mesh only scipy.spatial (Qhull,
    ~0.2 s) is imported now, and its hull is built at the first pair query.
    A hull that cannot be built is left for the query to report."""
    from scenegraph.geometry_roles import Role
    from scenegraph.shapes import Mesh
    large = False
    for geometry_id in inspector.GetAllGeometryIds(Role.kProximity):
        shape = inspector.GetShape(geometry_id)
        if not isinstance(shape, Mesh):
            continue
        try:
            points = np.asarray(shape.mesh_vertices(), dtype=float)
            if len(points) > EAGER_HULL_MAX_VERTICES:
                large = True
                continue
            from scenegraph.proximity.convex_hull import convex_hull
            convex_hull(points)
        except (ValueError, RuntimeError, OSError):
            continue
    if large and "scipy.spatial" not in sys.modules:
        import scipy.spatial  # noqa: F401


def prepare_pair_queries(inspector=None) -> None:
    """Loads (or, on a fresh checkout, compiles) the pair-query kernels in
    this process, once (prepare_group): SceneGraph calls it when it creates
    a context whose query output port is used, so that the kernels' loading
    (~0.1 s of CPU in a new process) or first compile happens at context
    creation, before `Simulator.Initialize`, and never as a spike inside the
    first `AdvanceTo`. With `inspector` (the scene's SceneGraphInspector),
    what its meshes' hulls will import too (prepare_hulls, every time). A
    failure here is left for the real query to report.

    Nothing in a helper process (scenegraph._jit's parallel compiles): the
    process that started it compiles the pair-query kernels, and a helper
    compiles only the groups it claimed."""
    if os.environ.get("SCENEGRAPH_WARMUP_HELPER"):
        return
    try:
        if inspector is not None:
            prepare_hulls(inspector)
        with _PREPARE_LOCK:
            if _PREPARED["pair queries"]:
                return
            _PREPARED["pair queries"] = True     # first: run_group makes a context too
        prepare_group("pair queries")
    except Exception:   # noqa: BLE001 - the query itself raises it, with its context
        pass


def _claim(folder: str, group: str) -> bool:
    try:
        os.close(os.open(os.path.join(folder, group.replace(" ", "_") + ".claim"),
                         os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        return False


def _exit_with_parent() -> None:
    """Ends this process when the process that started it has gone (a
    killed parent runs no exit handlers; the cache files are written whole,
    so stopping mid-compile leaves nothing half-written)."""
    import threading
    import time

    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def main(groups) -> int:
    """Compiles each of `groups` not claimed by the starting process yet
    (claiming it), writing <group>.done after each into the folder
    SCENEGRAPH_WARMUP_DONE (scenegraph._jit). A <group>.done file holds
    this process's CPU seconds and its seconds since the start of main()
    when the group ended (benchmarks/bench_cold_start.py reads them)."""
    import time

    started = time.perf_counter()
    _exit_with_parent()
    done = os.environ.get("SCENEGRAPH_WARMUP_DONE")
    for group in groups:
        if done and not _claim(done, group):
            continue
        try:
            run_group(group)
        finally:    # done or failed: the waiting process compiles what is missing
            if done:
                with open(os.path.join(done, group.replace(" ", "_") + ".done"), "w") as f:
                    f.write(f"{time.process_time():.3f} {time.perf_counter() - started:.3f}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
