"""Turns contact polygons into a ContactSurface (kTriangle or kPolygon).

Polygons without shared vertices (flat Polygons, or a PolygonBatch without
keys) are assembled by the compiled build_surface kernel; a PolygonBatch
with vertex keys by the vectorised numpy path below. Both follow the same
rules. The polygons are posed in W, oriented so that their right-handed
normals agree with the batch's desired normals (out of B, into A), then:
- kPolygon: one polygon per contact polygon; the field carries one gradient
  per polygon (∇e_MN), so EvaluateCartesian is exact on each polygon.
- kTriangle: each polygon becomes a fan of triangles (v_{i-1}, v_i, c) about
  its area centroid c, Drake's layout (the polygon's vertices, then c); the
  pressure at c is ∇e·(c − v₀) + p(v₀).
When the batch carries vertex keys, vertices with equal keys are merged
(first occurrence wins), as Drake's plane/half-space intersections do.
"""
from __future__ import annotations

import numpy as np

from scenegraph.hydroelastic._arrays import freeze, rotate_points
from scenegraph.hydroelastic.surface_kernels import build_surface
from scenegraph.hydroelastic.contact_surface import (ContactSurface,
                                                     HydroelasticContactRepresentation, _id_less)
from scenegraph.hydroelastic.mesh_intersection import Polygons
from scenegraph.hydroelastic.mesh_field import (PolygonSurfaceMeshFieldLinear,
                                                TriangleSurfaceMeshFieldLinear)
from scenegraph.hydroelastic.surface_mesh import (PolygonSurfaceMesh, TriangleSurfaceMesh,
                                                  polygon_geometry)


def _first_occurrence_index(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index per key into the compacted list, positions of each unique key's first use)."""
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    return rank[inverse.reshape(-1)], first[order]


_NO_GRADIENT = np.zeros((0, 3))


def _build_flat(id_A, id_B, polygons: Polygons, R_WF, p_WF, representation):
    """The compiled path: build_surface assembles the arrays already in (M, N) order."""
    reverse = _id_less(id_B, id_A)
    triangles = representation == HydroelasticContactRepresentation.kTriangle
    grad_A = _NO_GRADIENT if polygons.grad_A is None else polygons.grad_A
    grad_B = _NO_GRADIENT if polygons.grad_B is None else polygons.grad_B
    (p_WV, values, faces, starts, counts, areas, normals, centroids, at_Wo, grad_e_W, grad_M_W,
     grad_N_W, totals) = build_surface(polygons.start, polygons.p_FV, polygons.pressure,
                                       polygons.nhat, polygons.grad_e, grad_A, grad_B, R_WF, p_WF,
                                       triangles, reverse)
    if reverse:
        id_A, id_B = id_B, id_A
    grad_M_W = freeze(grad_M_W) if grad_M_W.shape[0] else None
    grad_N_W = freeze(grad_N_W) if grad_N_W.shape[0] else None
    if triangles:
        mesh = TriangleSurfaceMesh._from_geometry(faces.reshape(-1, 3), p_WV, areas, normals,
                                                  centroids, totals[0], totals[1:])
        field = TriangleSurfaceMeshFieldLinear._from_values(values, mesh)
    else:
        mesh = PolygonSurfaceMesh._from_arrays(faces, starts, counts, p_WV, areas, normals,
                                               centroids, totals)
        field = PolygonSurfaceMeshFieldLinear._from_gradients(values, mesh, grad_e_W, at_Wo)
    return ContactSurface._from_parts(id_A, id_B, mesh, field, grad_M_W, grad_N_W)


def build_contact_surface(id_A, id_B, batch, R_WF: np.ndarray, p_WF: np.ndarray,
                          representation) -> ContactSurface | None:
    """ContactSurface in W from polygons in frame F posed by X_WF = (R_WF, p_WF).

    batch: Polygons or PolygonBatch; its normals point out of B into A. The
    surface has id_M < id_N (the winding is reversed when id_B < id_A).
    Returns None if there are no polygons.
    """
    K = batch.size
    if K == 0:
        return None
    if isinstance(batch, Polygons) or batch.keys is None:
        flat = batch if isinstance(batch, Polygons) else batch.flat()
        return _build_flat(id_A, id_B, flat, np.ascontiguousarray(R_WF, dtype=float),
                           np.ascontiguousarray(p_WF, dtype=float), representation)
    if K == 0:
        return None
    n = batch.n
    m = batch.P.shape[1]
    P_W = rotate_points(batch.P, R_WF, p_WF)
    nhat_W = batch.nhat @ R_WF.T
    areas, normals, centroids = polygon_geometry(P_W, n)
    slot = np.arange(m)
    valid = slot[None, :] < n[:, None]
    # Orient: reverse (v0, v_{n-1}, …, v1) polygons whose normal disagrees with nhat.
    flip = np.einsum("kj,kj->k", normals, nhat_W) < 0
    if flip.any():
        src = np.where(slot[None, :] == 0, 0, n[:, None] - slot[None, :])
        src = np.where(flip[:, None] & valid, src, slot[None, :])
        P_W = np.take_along_axis(P_W, src[:, :, None], axis=1)
        pressure = np.take_along_axis(batch.pressure, src, axis=1)
        keys = None if batch.keys is None else np.take_along_axis(batch.keys, src, axis=1)
        normals = np.where(flip[:, None], -normals, normals)
    else:
        pressure, keys = batch.pressure, batch.keys
    grad_e_W = batch.grad_e @ R_WF.T
    grad_A_W = None if batch.grad_A is None else batch.grad_A @ R_WF.T
    grad_B_W = None if batch.grad_B is None else batch.grad_B @ R_WF.T
    kk, jj = np.nonzero(valid)                     # polygon-major order of all vertices
    tri_mode = representation == HydroelasticContactRepresentation.kTriangle
    extra = 1 if tri_mode else 0
    if keys is None:
        base = np.cumsum(n + extra) - (n + extra)
        vid = base[kk] + jj                        # index of each polygon vertex
        num_v = int(n.sum()) + extra * K
        verts = np.empty((num_v, 3))
        values = np.empty(num_v)
        verts[vid] = P_W[kk, jj]
        values[vid] = pressure[kk, jj]
        cid = base + n
    else:
        flat = keys[kk, jj]
        big = int(flat.max()) + 1 if flat.size else 0
        if tri_mode:
            # Each polygon's centroid follows its vertices in first-use order.
            seq = np.concatenate([flat, big + np.arange(K)])
            pos = np.concatenate([np.cumsum(n + 1)[kk] - (n + 1)[kk] + jj, np.cumsum(n + 1) - 1])
            order = np.argsort(pos, kind="stable")
            rank, _ = _first_occurrence_index(seq[order])
            index = np.empty_like(rank)
            index[order] = rank
            vid, cid = index[:kk.shape[0]], index[kk.shape[0]:]
        else:
            vid, _ = _first_occurrence_index(flat)
            cid = None
        num_v = int(vid.max()) + 1
        if tri_mode:
            num_v = max(num_v, int(cid.max()) + 1)
        verts = np.empty((num_v, 3))
        values = np.empty(num_v)
        verts[vid] = P_W[kk, jj]
        values[vid] = pressure[kk, jj]
    if tri_mode:
        v0 = P_W[:, 0]
        p0 = pressure[:, 0]
        verts[cid] = centroids
        values[cid] = np.einsum("kj,kj->k", grad_e_W, centroids - v0) + p0
        local = np.full((K, m), -1, dtype=np.int64)
        local[kk, jj] = vid
        prev = np.take_along_axis(local, ((slot[None, :] - 1) % n[:, None]), axis=1)
        tris = np.stack([prev[kk, jj], local[kk, jj], cid[kk]], axis=1)
        mesh = TriangleSurfaceMesh._from_arrays(tris, verts)
        field = TriangleSurfaceMeshFieldLinear(values, mesh, calculate_gradient=False)
        rep = n
        gA = None if grad_A_W is None else np.repeat(grad_A_W, rep, axis=0)
        gB = None if grad_B_W is None else np.repeat(grad_B_W, rep, axis=0)
    else:
        starts = np.cumsum(n + 1) - n
        face_data = np.empty(int(n.sum()) + K, dtype=np.int64)
        face_data[starts - 1] = n
        face_data[starts[kk] + jj] = vid
        mesh = PolygonSurfaceMesh._from_arrays(face_data, starts, n.astype(np.int64), verts,
                                               areas, normals, centroids)
        field = PolygonSurfaceMeshFieldLinear(values, mesh, grad_e_W)
        gA, gB = grad_A_W, grad_B_W
    return ContactSurface(id_A, id_B, mesh, field, gA, gB)
