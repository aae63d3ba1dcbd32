"""Ray casting against the geometries of a role (an extension beyond
pydrake; Drake issue #15260).

cast_rays(rays, R, p, p_WO, dhat_W, max_distance, rows) returns, per
ray p_WO + t·dhat_W (t ≥ 0, dhat_W unit, in W), its first hit: the distance
t [m], the GeometryId, the hit point p_WH and the outward unit surface normal
nhat_W at it (compiled/raycast_kernels.py states the hit rules: a ray
starting inside a closed shape hits where it leaves; a non-convex Mesh is hit
on its triangles, every other shape exactly, a Convex on its hull).

Work per call: one compiled call for every ray against every non-mesh
geometry (bounding-sphere culling, nearest hit kept), then one compiled BVH
call per non-convex Mesh over all rays (rays moved into the mesh frame in
numpy), bounded by the rays' best distances so far. No Python per ray.

A RayScene packs the geometries of one role once per geometry state (for
the proximity role it shares the ProximityScene's packed shapes and mesh
BVHs; for illustration or perception it packs that role's shapes); the
ProximityScene caches one per role (scene_for).
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.compiled.packed_shapes import pack_shapes
from scenegraph.proximity.compiled.raycast_kernels import cast_rays_mesh, cast_rays_primitives
from scenegraph.proximity.scene import POSITION_LIMIT, Representation

__all__ = ["RayCastResults", "RayScene", "cast_rays", "checked_rays"]


class RayCastResults:
    """First hits of N rays (extension).

    Attributes:
      distance: (N,) distance t along each ray to its hit [m]; inf: no hit
        within max_distance.
      id_G: (N,) object array of GeometryIds (None where there is no hit).
      p_WH: (N, 3) hit points H = p_WO + t·dhat_W in W [m] (NaN: no hit).
      nhat_W: (N, 3) outward unit surface normals at H, in W (NaN: no hit).
    """

    __slots__ = ("distance", "id_G", "p_WH", "nhat_W")

    def __init__(self, distance, id_G, p_WH, nhat_W):
        self.distance, self.id_G, self.p_WH, self.nhat_W = distance, id_G, p_WH, nhat_W

    @property
    def hit(self) -> np.ndarray:
        """(N,) bool: the ray hit something within max_distance."""
        return np.isfinite(self.distance)

    def __len__(self) -> int:
        return len(self.distance)

    def __repr__(self) -> str:
        return f"RayCastResults({len(self)} rays, {int(self.hit.sum())} hits)"


class RayScene:
    """The geometries of one role, packed for the ray kernels.

    ids: GeometryIds by row; reps: per-row objects with .data (ShapeData)
    and .bvh() (the triangle BVH of a Mesh); pose_index: (G,) rows into
    WorldPoses' geometry arrays; packed: optional (PackedShapes,
    PackedHulls) of the same rows.
    """

    def __init__(self, ids, reps, pose_index, packed=None):
        self.ids = list(ids)
        self.index = {g: k for k, g in enumerate(self.ids)}
        # Ids by row, and None last (row −1: no hit).
        self.id_array = np.empty(len(self.ids) + 1, dtype=object)
        self.id_array[:-1] = self.ids
        G = len(self.ids)
        shapes, hulls = packed if packed is not None else pack_shapes([r.data for r in reps])
        is_mesh = np.array([type(r.shape).__name__ == "Mesh" for r in reps], dtype=np.int64)
        self.geo_f = np.ascontiguousarray(np.column_stack([shapes.params, shapes.size]),
                                          dtype=float).reshape(G, 4)
        self.geo_i = np.ascontiguousarray(np.column_stack([shapes.kind, shapes.hull, is_mesh]),
                                          dtype=np.int64).reshape(G, 3)
        self.hull_i = np.ascontiguousarray(np.column_stack(
            [hulls.vertex_start, hulls.facet_start, hulls.triangle_start]),
            dtype=np.int64).reshape(-1, 3)
        self.facet_normals = np.ascontiguousarray(hulls.facet_normals, dtype=float)
        self.facet_offsets = np.ascontiguousarray(hulls.facet_offsets, dtype=float)
        self.reps = reps
        self.mesh_rows = np.flatnonzero(is_mesh)
        self.pose_index = np.asarray(pose_index, dtype=np.int64)

    def rows(self, geometry_ids, query: str) -> np.ndarray:
        """Rows of the given ids (all rows for None), ascending."""
        if geometry_ids is None:
            return np.arange(len(self.ids), dtype=np.int64)
        rows = []
        for g in geometry_ids:
            k = self.index.get(g)
            if k is None:
                raise RuntimeError(f"{query}: geometry {g} does not have the role rays are "
                                   f"cast against")
            rows.append(k)
        return np.array(sorted(set(rows)), dtype=np.int64)

    def poses(self, world_poses):
        """(R_WG (G, 3, 3), p_WG (G, 3)) contiguous, checked finite."""
        R = np.ascontiguousarray(world_poses.R_WG[self.pose_index], dtype=float)
        p = np.ascontiguousarray(world_poses.p_WG[self.pose_index], dtype=float)
        bad = ~(np.isfinite(R).all(axis=(1, 2)) & np.isfinite(p).all(axis=1))
        if bad.any():
            raise RuntimeError(f"Geometry {self.ids[int(np.flatnonzero(bad)[0])]} has a "
                               f"non-finite pose")
        far = np.abs(p).max(axis=1, initial=0.0) > POSITION_LIMIT
        if far.any():
            k = int(np.flatnonzero(far)[0])
            raise RuntimeError(f"Geometry {self.ids[k]} is at p_WG = {p[k].tolist()} m: "
                               f"ray casting needs every geometry within ±{POSITION_LIMIT:g} m "
                               f"of the world origin (farther, distances overflow)")
        return R, p


def checked_rays(p_WO, dhat_W, max_distance, query: str):
    """(O (N, 3), D (N, 3), max_distance) as contiguous float64, checked:
    finite, dhat_W of unit length (within 1e-9), one origin broadcast to
    every direction, max_distance ≥ 0 (inf allowed)."""
    D = np.ascontiguousarray(dhat_W, dtype=float)
    if D.ndim == 1:
        D = D.reshape(1, -1)
    if D.ndim != 2 or D.shape[1] != 3:
        raise ValueError(f"{query}: dhat_W must have shape (N, 3); got {np.shape(dhat_W)}")
    O = np.ascontiguousarray(p_WO, dtype=float)
    if O.shape == (3,):
        O = np.ascontiguousarray(np.broadcast_to(O, D.shape))
    if O.shape != D.shape:
        raise ValueError(f"{query}: p_WO must have shape (3,) or {D.shape}; got "
                         f"{np.shape(p_WO)}")
    for name, X in (("p_WO", O), ("dhat_W", D)):
        bad = ~np.isfinite(X).all(axis=1)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{query}: {name} row {k} is not finite: {X[k].tolist()}")
    far = np.abs(O).max(axis=1, initial=0.0) > POSITION_LIMIT
    if far.any():
        k = int(np.flatnonzero(far)[0])
        raise ValueError(f"{query}: p_WO row {k} is not within ±{POSITION_LIMIT:g} m of the "
                         f"world origin: {O[k].tolist()}")
    norm = np.sqrt(np.einsum("ij,ij->i", D, D))
    bad = np.abs(norm - 1.0) > 1e-9
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{query}: dhat_W row {k} is not a unit vector (length {norm[k]!r})")
    max_distance = float(max_distance)
    if not max_distance >= 0.0:
        raise ValueError(f"{query}: max_distance must be non-negative; got {max_distance}")
    return O, D, max_distance


def cast_rays(scene: RayScene, R, p, O, D, max_distance: float, rows) -> RayCastResults:
    """First hits of the rays (O, D checked) on the rows `rows` of a RayScene
    posed at R (G, 3, 3), p (G, 3)."""
    N = len(O)
    t = np.empty(N)
    g = np.empty(N, dtype=np.int64)
    n = np.empty((N, 3))
    if N:
        solid = rows[scene.geo_i[rows, 2] == 0]
        size = scene.geo_f[solid, 3]
        spheres = np.empty((len(solid), 4))
        spheres[:, :3] = p[solid]
        spheres[:, 3] = size * size * (1.0 + 1e-12) + 1e-300
        cast_rays_primitives(scene.geo_f, scene.geo_i, scene.hull_i, scene.facet_normals,
                             scene.facet_offsets, R, p, spheres, solid, O, D, max_distance,
                             t, g, n)
    meshes = np.intersect1d(scene.mesh_rows, rows)
    if len(meshes) and N:
        best = np.where(g >= 0, t, max_distance)
        for m in meshes.tolist():
            bvh = scene.reps[m].bvh()
            tri, node_f, node_i, tri_id = bvh.packed
            # Rays in the mesh frame G: o_G = R_WGᵀ (o − p_WG), d_G = R_WGᵀ d.
            Rm = R[m]
            O_G = np.ascontiguousarray((O - p[m]) @ Rm)
            D_G = np.ascontiguousarray(D @ Rm)
            n_G = np.empty((N, 3))
            if cast_rays_mesh(tri, node_f, node_i, tri_id, bool(bvh.is_closed), O_G, D_G,
                              best, n_G, g, m):
                won = g == m
                n[won] = n_G[won] @ Rm.T
        t = np.where(g >= 0, best, np.inf)
    miss = g < 0
    t[miss] = np.inf
    n[miss] = np.nan
    with np.errstate(invalid="ignore"):     # inf·0 on missing rays, overwritten
        p_WH = O + t[:, None] * D
    p_WH[miss] = np.nan
    return RayCastResults(t, scene.id_array[g], p_WH, n)


def scene_for(scene, role, state) -> RayScene:
    """The RayScene for `role` (a Role) of a ProximityScene's geometry state
    `state`, built once per scene."""
    from scenegraph.geometry_roles import Role

    role = Role(role)
    if role == Role.kProximity:
        return scene.cached(("rays", role), lambda: RayScene(
            scene.ids, scene.reps, scene.pose_index,
            packed=(scene.table.packed, scene.table.hulls)))

    def make():
        from scenegraph.scene_graph_inspector import SceneGraphInspector
        inspector = SceneGraphInspector(state)
        ids = inspector.GetAllGeometryIds(role)
        reps = []
        for gid in ids:
            shape = inspector.GetShape(gid)
            try:
                reps.append(Representation(shape))
            except ValueError as exc:
                raise RuntimeError(f"cast_rays: geometry {gid} ('{inspector.GetName(gid)}') "
                                   f"has a shape rays cannot be cast against: {exc}") from None
        index = state.pose_topology().geometry_index
        return RayScene(ids, reps, [index[g] for g in ids])

    return scene.cached(("rays", role), make)
