"""What a new process imports for the proximity queries it asks: registering
a scene and answering a pair query (a robot's load, a controller's
penetration check) imports the pair queries' modules only; the point
queries, ray casting, the controllers' batched queries and Jacobians, exact
meshes, contact manifolds and hydroelastic contact are imported at their
first call (proximity/engine.py, proximity/scene.py), and each still answers
right when it is the first of its kind in the process.

Each check runs in a fresh interpreter (this one has imported everything);
the scene: a sphere of radius 0.5 on a frame at the origin, and anchored a
1 m Box centred at (0.9, 0, 0) (0.1 m into the sphere) and a closed 1 m cube
Mesh centred at (0, 0, 3).
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

#: Modules a pair query does not need, each imported by its first use.
LAZY_MODULES = {
    "point queries": ("scenegraph.proximity.point_query",
                      "scenegraph.proximity.compiled.point_query_kernel"),
    "mesh BVH": ("scenegraph.proximity.mesh_distance",),
    "rays": ("scenegraph.proximity.raycast",
             "scenegraph.proximity.compiled.raycast_kernels"),
    "batched": ("scenegraph.proximity.batched_queries",
                "scenegraph.proximity.distance_jacobians",
                "scenegraph.proximity.compiled.point_batch_kernel",
                "scenegraph.proximity.compiled.vertex_face_kernel"),
    "exact meshes": ("scenegraph.proximity.exact_mesh",
                     "scenegraph.proximity.compiled.exact_mesh_kernels"),
    "manifolds": ("scenegraph.proximity.contact_manifold",),
    "hydroelastic": ("scenegraph.hydroelastic.contact_query",),
}

_SCENE = """
    import json, sys
    import numpy as np
    import scenegraph as sg
    from scenegraph.math import RigidTransform

    LAZY = {lazy!r}

    def loaded():
        return sorted(group for group, names in LAZY.items()
                      if any(name in sys.modules for name in names))

    V = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])
    F = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                  [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
    scene_graph = sg.SceneGraph()
    source = scene_graph.RegisterSource("front_hall")
    frame = scene_graph.RegisterFrame(source, sg.GeometryFrame("ball_frame"))
    ids = []
    for shape, name, p_WG in ((sg.Sphere(0.5), "ball", [0.0, 0.0, 0.0]),
                              (sg.Box(1.0, 1.0, 1.0), "box", [0.9, 0.0, 0.0]),
                              (sg.Mesh(V.T, faces=F), "cube", [0.0, 0.0, 3.0])):
        instance = sg.GeometryInstance(RigidTransform(p_WG), shape, name)
        gid = (scene_graph.RegisterGeometry(source, frame, instance) if name == "ball" else
               scene_graph.RegisterAnchoredGeometry(source, instance))
        props = sg.ProximityProperties()
        if name == "cube" and {exact_cube!r}:
            props.AddProperty("proximity", "exact_mesh", True)
        scene_graph.AssignRole(source, gid, props)
        ids.append(gid)
    context = scene_graph.CreateDefaultContext()
    poses = sg.FramePoseVector()
    poses.set_value(frame, RigidTransform())
    scene_graph.get_source_pose_port(source).FixValue(context, poses)
    query = scene_graph.get_query_output_port().Eval(context)
    out = {{"registered": loaded()}}
"""


def _run(body: str, exact_cube: bool = False) -> dict:
    """Runs the scene set-up, then `body` (which fills `out`), in a new
    interpreter; returns `out`."""
    code = (textwrap.dedent(_SCENE.format(lazy=LAZY_MODULES, exact_cube=exact_cube))
            + textwrap.dedent(body) + "\nprint(json.dumps(out))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_pair_queries_import_none_of_the_other_queries_and_each_imports_its_own():
    out = _run("""
        pairs = query.ComputePointPairPenetration()
        out["penetration"] = [[int(p.id_A == ids[0]), int(p.id_B == ids[1]), p.depth,
                               p.nhat_BA_W.tolist()] for p in pairs]
        out["distance"] = [d.distance for d in
                           query.ComputeSignedDistancePairwiseClosestPoints(0.05)]
        out["collides"] = query.HasCollisions()
        out["after pair queries"] = loaded()
        out["to point"] = [d.distance for d in
                           query.ComputeSignedDistanceToPoint([0.0, 0.0, 2.0])]
        out["after point query"] = loaded()
        rays = query.cast_rays(np.array([0.0, 0.0, 10.0]), np.array([[0.0, 0.0, -1.0]]))
        out["ray"] = [float(rays.distance[0]), int(rays.id_G[0] == ids[2])]
        out["after rays"] = loaded()
        pair = query.compute_signed_distance_pairs([(ids[0], ids[2])])[0]
        jacobians = query.compute_signed_distance_jacobians(0.05)
        out["batched"] = [pair.distance, len(jacobians)]
        out["after batched"] = loaded()
    """)
    assert out["registered"] == []
    [(a_is_ball, b_is_box, depth, nhat_BA_W)] = out["penetration"]
    assert (a_is_ball, b_is_box) == (1, 1)
    assert abs(depth - 0.1) < 1e-12
    assert max(abs(x - y) for x, y in zip(nhat_BA_W, [-1.0, 0.0, 0.0])) < 1e-12
    [distance] = out["distance"]
    assert abs(distance + 0.1) < 1e-12
    assert out["collides"] is True
    assert out["after pair queries"] == []
    # From (0, 0, 2): the sphere 1.5 m, the box sqrt(0.4² + 1.5²), the cube 0.5 m.
    expected = [1.5, (0.4 ** 2 + 1.5 ** 2) ** 0.5, 0.5]
    assert max(abs(x - y) for x, y in zip(out["to point"], expected)) < 1e-12
    assert out["after point query"] == ["mesh BVH", "point queries"]   # the cube's BVH
    assert abs(out["ray"][0] - 6.5) < 1e-12 and out["ray"][1] == 1
    assert out["after rays"] == ["mesh BVH", "point queries", "rays"]
    # Sphere top (z = 0.5) to the cube's bottom face (z = 2.5); one pair within 0.05 m.
    assert abs(out["batched"][0] - 2.0) < 1e-12 and out["batched"][1] == 1
    assert out["after batched"] == ["batched", "mesh BVH", "point queries", "rays"]


def test_rays_batched_and_exact_meshes_answer_as_a_process_first_query():
    out = _run("""
        rays = query.cast_rays(np.array([0.0, 0.0, 10.0]), np.array([[0.0, 0.0, -1.0]]))
        out["ray"] = float(rays.distance[0])
        out["after rays"] = loaded()
        out["to points"] = query.compute_signed_distance_to_points(
            np.array([[0.0, 0.0, 2.0]]), 1.0).distance.tolist()
        out["after batched"] = loaded()
        pair = query.ComputeSignedDistancePairClosestPoints(ids[0], ids[2])
        out["exact pair"] = pair.distance
        out["after exact pair"] = loaded()
    """, exact_cube=True)
    assert out["registered"] == []
    assert abs(out["ray"] - 6.5) < 1e-12
    assert out["after rays"] == ["mesh BVH", "rays"]
    # Within 1 m of (0, 0, 2): the cube only, 0.5 m.
    assert max(abs(x - 0.5) for x in out["to points"]) < 1e-12 and len(out["to points"]) == 1
    assert "batched" in out["after batched"]
    assert abs(out["exact pair"] - 2.0) < 1e-12
    assert "exact meshes" in out["after exact pair"]
