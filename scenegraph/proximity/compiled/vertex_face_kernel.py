"""mojo's vertex-to-face estimate (ProximityMethod.kVertexToFace) of many
polytope pairs in one compiled call.

Per pair (A, B): every vertex of A against B's closed triangle mesh and every
vertex of B against A's, by the signed-distance routine of mesh_kernels.py
(_signed_one: the nearest triangle from the BVH, the sign from the
pseudo-normals or the winding number), the least signed distance kept (the
first least vertex of A, then of B; A wins ties), with its witnesses (the
vertex and its nearest surface point) and the unit normal from B into A. The
arithmetic per vertex is that of mesh_distance.signed_distance_to_mesh on
the vertex posed in the other's frame, so the answers are those of the
per-pair numpy form up to the rounding of the two pose products.

Meshes are packed end to end (batched_queries builds the pack once per
geometry state): tri (ΣF, 12), pseudo (ΣF, 18), node_f (ΣM, 13), node_i
(ΣM, 4), tri_id (ΣF,), vertices (ΣV, 3), as in mesh_kernels.py, each mesh's
node indices and leaf ranges local to its own block, so a mesh is read
through row slices of the packed arrays. mesh_i (S, 7) int64 holds each
mesh's block bounds: triangles [0, 1), nodes [2, 3), vertices [4, 5), and
whether it is closed (6; callers pass pairs of closed meshes only); mesh_f
(S, 2) its eps and tol (mesh_distance's rounding slack and surface band).
"""
from __future__ import annotations

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.mesh_kernels import _SCRATCH, _signed_one

__all__ = ["vertex_to_face_pairs"]


@njit
def vertex_to_face_pairs(pairs, slot, R, p, mesh_i, mesh_f, tri, pseudo, node_f, node_i,
                         tri_id, vertices, beta):
    """Vertex-to-face signed distances of the pairs (K, 2) int64 of engine
    rows, both polytopes with closed meshes (slot (n,) int64: each row's
    mesh; R (n, 3, 3), p (n, 3): X_WG of every row).

    Returns distance (K,) [m], p_WCa (K, 3), p_WCb (K, 3), nhat_BA_W (K, 3),
    with p_WCa − p_WCb = distance·nhat_BA_W.
    """
    K = pairs.shape[0]
    D = np.empty(K)
    Ca = np.empty((K, 3))
    Cb = np.empty((K, 3))
    N = np.empty((K, 3))
    # Candidates' scratch with the nearest-triangle search's stack as its
    # tail (mesh_kernels._nearest): no allocation per vertex.
    cand_k = np.empty(_SCRATCH, dtype=np.int64)
    cand_d2 = np.empty(_SCRATCH)
    for k in range(K):
        best = np.inf
        for side in range(2):
            # side 0: A's vertices against B's mesh; side 1: B's against A's.
            v = pairs[k, side]
            m = pairs[k, 1 - side]
            sv = slot[v]
            sm = slot[m]
            t0, t1, n0, n1 = mesh_i[sm, 0], mesh_i[sm, 1], mesh_i[sm, 2], mesh_i[sm, 3]
            tri_m = tri[t0:t1]
            pseudo_m = pseudo[t0:t1]
            id_m = tri_id[t0:t1]
            nf_m = node_f[n0:n1]
            ni_m = node_i[n0:n1]
            eps, tol = mesh_f[sm, 0], mesh_f[sm, 1]
            closed = mesh_i[sm, 6] != 0
            for i in range(mesh_i[sv, 4], mesh_i[sv, 5]):
                # p_WV = R_WV v + p_WV, then p_MV = R_WMᵀ (p_WV − p_WM).
                vx, vy, vz = vertices[i, 0], vertices[i, 1], vertices[i, 2]
                wx = (vx * R[v, 0, 0] + vy * R[v, 0, 1]) + vz * R[v, 0, 2] + p[v, 0]
                wy = (vx * R[v, 1, 0] + vy * R[v, 1, 1]) + vz * R[v, 1, 2] + p[v, 1]
                wz = (vx * R[v, 2, 0] + vy * R[v, 2, 1]) + vz * R[v, 2, 2] + p[v, 2]
                dx, dy, dz = wx - p[m, 0], wy - p[m, 1], wz - p[m, 2]
                x = (dx * R[m, 0, 0] + dy * R[m, 1, 0]) + dz * R[m, 2, 0]
                y = (dx * R[m, 0, 1] + dy * R[m, 1, 1]) + dz * R[m, 2, 1]
                z = (dx * R[m, 0, 2] + dy * R[m, 1, 2]) + dz * R[m, 2, 2]
                d, qx, qy, qz, gx, gy, gz, _, _ = _signed_one(
                    x, y, z, tri_m, pseudo_m, nf_m, ni_m, id_m, closed, eps, tol, beta,
                    cand_k, cand_d2)
                if not d < best:
                    continue
                best = d
                # The nearest point and the gradient back in W; the gradient
                # points from the mesh into the vertex's geometry.
                sx = (R[m, 0, 0] * qx + R[m, 0, 1] * qy) + R[m, 0, 2] * qz + p[m, 0]
                sy = (R[m, 1, 0] * qx + R[m, 1, 1] * qy) + R[m, 1, 2] * qz + p[m, 1]
                sz = (R[m, 2, 0] * qx + R[m, 2, 1] * qy) + R[m, 2, 2] * qz + p[m, 2]
                nx = (R[m, 0, 0] * gx + R[m, 0, 1] * gy) + R[m, 0, 2] * gz
                ny = (R[m, 1, 0] * gx + R[m, 1, 1] * gy) + R[m, 1, 2] * gz
                nz = (R[m, 2, 0] * gx + R[m, 2, 1] * gy) + R[m, 2, 2] * gz
                D[k] = d
                if side == 0:
                    Ca[k, 0], Ca[k, 1], Ca[k, 2] = wx, wy, wz
                    Cb[k, 0], Cb[k, 1], Cb[k, 2] = sx, sy, sz
                    N[k, 0], N[k, 1], N[k, 2] = nx, ny, nz
                else:
                    Cb[k, 0], Cb[k, 1], Cb[k, 2] = wx, wy, wz
                    Ca[k, 0], Ca[k, 1], Ca[k, 2] = sx, sy, sz
                    N[k, 0], N[k, 1], N[k, 2] = -nx, -ny, -nz
    return D, Ca, Cb, N
