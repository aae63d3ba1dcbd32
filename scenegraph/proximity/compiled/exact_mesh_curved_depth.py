"""The deepest point of an exact mesh M and a Capsule, Cylinder or
Ellipsoid O that overlap, compiled (exact_mesh_pairs.exact_pairs calls
curved_depth for such pairs; exact_mesh_depth.py holds the mesh–mesh search
and the shared pieces).

Candidate points (docs/exact_meshes.md, "What the answers are"), the deepest
wins (ties within M's rounding allowance: the first, in this order): the
vertices of the triangles of M meeting O's box, inside O; O's support points
against the gradient at O's centre and against those faces' outward
normals, inside M; the deepest points of those triangles' edges whose reach
into O's holding capsule passes the depth found so far. Packed meshes as
exact_mesh_pairs'; the answer and the collected candidates as
exact_mesh_depth's.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.exact_mesh_depth import (_BETA, _distinct, _push,
                                                            _shell_sort, _take, _unique_edges,
                                                            _write_answer, mesh_signed)
from scenegraph.proximity.compiled.exact_mesh_kernels import (_DEPTH_STEPS, _seg_min, _seg_seg,
                                                              _slots_near_box, _support)
from scenegraph.proximity.compiled.mesh_kernels import _signed_one
from scenegraph.proximity.compiled.packed_shapes import CAPSULE, CYLINDER, ELLIPSOID
from scenegraph.proximity.compiled.point_kernels import _triangle_closest, primitive_point

__all__ = ["curved_depth"]

_SEEN = 64      # surface points kept for the support points' depth bound


@njit(specialize_literals=False)
def _face_distance(X, f, t0, v0, faces, vertices):
    """Distance from X (3,) to triangle f (original index) of the mesh whose
    faces start at row t0 and vertices at v0."""
    a, b, c = v0 + faces[t0 + f, 0], v0 + faces[t0 + f, 1], v0 + faces[t0 + f, 2]
    qx, qy, qz = _triangle_closest(X[0], X[1], X[2], vertices[a, 0], vertices[a, 1],
                                   vertices[a, 2], vertices[b, 0], vertices[b, 1],
                                   vertices[b, 2], vertices[c, 0], vertices[c, 1],
                                   vertices[c, 2])
    return math.sqrt((X[0] - qx) ** 2 + (X[1] - qy) ** 2 + (X[2] - qz) ** 2)


@njit(specialize_literals=False)
def _holding(k, a, b, c, S):
    """The capsule holding a Capsule (itself), a Cylinder (axis, radius) or
    an Ellipsoid (longest semi-axis; the larger other one as radius): core
    ends to S[0:6] (in O), returns the radius."""
    for j in range(6):
        S[j] = 0.0
    if k == CAPSULE or k == CYLINDER:
        S[2], S[5] = -b, b
        return a
    ax, h, rc = 0, a, max(b, c)
    if b > h:
        ax, h, rc = 1, b, max(a, c)
    if c > h:
        ax, h, rc = 2, c, max(a, b)
    S[ax], S[3 + ax] = -h, h
    return rc


@njit(specialize_literals=False)
def _support_any(k, a, b, c, ux, uy, uz):
    """Support point of a Capsule, Cylinder or Ellipsoid along u (nonzero),
    ties to the middle of the supporting set (exact_mesh_primitives.
    primitive_support)."""
    if k == CAPSULE:
        n = math.sqrt(ux * ux + uy * uy + uz * uz)
        sz = a * uz / n + (b if uz > 0.0 else (-b if uz < 0.0 else 0.0))
        return a * ux / n, a * uy / n, sz
    return _support(k, a, b, c, ux, uy, uz)


@njit(specialize_literals=False)
def curved_depth(s, k, a, b, c, R, t, lo, hi, touch, tri, pseudo, tri_id, node_f, node_i,
                 vertices, faces, normals, mesh_i, mesh_f, res, collect, q, buf, nbuf, cand_k,
                 cand_d2):
    """Deepest point of exact mesh s (M) and a Capsule, Cylinder or
    Ellipsoid (code k, parameters a, b, c) posed in M by R, t, with its box
    [lo, hi] in M, that overlap (module docstring); touch (7,): the answer
    when no candidate is inside (φ = 0 at touch[0:3], nhat_OM touch[3:6]).
    Writes res[0:10]; returns (buf, nbuf)."""
    t0, t1, m0, m1 = mesh_i[s, 0], mesh_i[s, 1], mesh_i[s, 2], mesh_i[s, 3]
    v0 = mesh_i[s, 4]
    slots = _slots_near_box(node_f[m0:m1], node_i[m0:m1], lo, hi, 0.0)
    near = np.empty(slots.shape[0], dtype=np.int64)
    for i in range(slots.shape[0]):
        near[i] = tri_id[t0 + slots[i]]
    # Ascending by triangle, with their slots (keys triangle·F + slot).
    F = t1 - t0
    for i in range(slots.shape[0]):
        near[i] = near[i] * F + slots[i]
    _shell_sort(near, near.shape[0])
    for i in range(slots.shape[0]):
        slots[i] = near[i] % F
        near[i] //= F
    tie = mesh_f[s, 0]
    best = np.zeros(10)
    best[0] = -1.0
    cc = np.empty(6)
    X = np.empty(3)
    g = np.empty(3)
    # The vertices of the nearby triangles inside O (ascending, once each).
    verts = np.empty(3 * near.shape[0], dtype=np.int64)
    for i in range(near.shape[0]):
        for j in range(3):
            verts[3 * i + j] = faces[t0 + near[i], j]
    verts = _distinct(verts)
    for i in range(verts.shape[0]):
        v = v0 + verts[i]
        for r in range(3):
            X[r] = ((vertices[v, 0] - t[0]) * R[0, r] + (vertices[v, 1] - t[1]) * R[1, r]
                    + (vertices[v, 2] - t[2]) * R[2, r])
        if k == ELLIPSOID and ((X[0] / a) ** 2 + (X[1] / b) ** 2
                               + (X[2] / c) ** 2) > 1.0 + 1e-9:
            continue        # clearly outside (its iterative distance is not needed)
        p = primitive_point(k, a, b, c, X[0], X[1], X[2])
        if p[0] < 0.0:
            for r in range(3):
                cc[r] = vertices[v, r]
                cc[3 + r] = R[r, 0] * p[1] + R[r, 1] * p[2] + R[r, 2] * p[3] + t[r]
                g[r] = R[r, 0] * p[4] + R[r, 1] * p[5] + R[r, 2] * p[6]
            _take(best, p[0], cc[0:3], cc[3:6], g, 1.0, tie)
            if collect:
                buf, nbuf = _push(buf, nbuf, q, -p[0], cc)
    # O's support points against the gradient at its centre and the nearby
    # faces' outward normals, inside M. A point's depth is at most its
    # distance to any point of M's surface: to its face, to the triangle
    # nearest the deepest support point so far, and to the nearest points
    # the signed distances so far found (up to _SEEN of them); a point that
    # cannot beat the best that way (or repeats the previous one) is not
    # measured.
    gc = mesh_signed(t[0], t[1], t[2], s, tri, pseudo, node_f, node_i, tri_id, mesh_i, mesh_f,
                     cand_k, cand_d2)
    seen = np.empty((_SEEN, 3))
    seen[0, 0], seen[0, 1], seen[0, 2] = gc[1], gc[2], gc[3]
    n_seen = 1
    fb = -1
    for i in range(-1, near.shape[0]):
        if i >= 0:
            nx, ny, nz = normals[t0 + near[i], 0], normals[t0 + near[i], 1], \
                normals[t0 + near[i], 2]
        else:
            nx, ny, nz = gc[4], gc[5], gc[6]
        ux = R[0, 0] * nx + R[1, 0] * ny + R[2, 0] * nz          # n in O
        uy = R[0, 1] * nx + R[1, 1] * ny + R[2, 1] * nz
        uz = R[0, 2] * nx + R[1, 2] * ny + R[2, 2] * nz
        if not ux * ux + uy * uy + uz * uz > 0.0:
            continue
        sx, sy, sz = _support_any(k, a, b, c, -ux, -uy, -uz)
        x0, x1, x2 = X[0], X[1], X[2]
        for r in range(3):
            X[r] = R[r, 0] * sx + R[r, 1] * sy + R[r, 2] * sz + t[r]
        if not collect and best[0] >= 0.0:
            if i >= 0 and X[0] == x0 and X[1] == x1 and X[2] == x2:
                continue
            ub = np.inf
            if i >= 0:
                ub = _face_distance(X, near[i], t0, v0, faces, vertices)
            if fb >= 0:
                ub = min(ub, _face_distance(X, fb, t0, v0, faces, vertices))
            lim = best[0] + tie
            skip = ub <= lim
            for j in range(n_seen):
                if skip:
                    break
                ex, ey, ez = X[0] - seen[j, 0], X[1] - seen[j, 1], X[2] - seen[j, 2]
                skip = ex * ex + ey * ey + ez * ez <= lim * lim
            if skip:
                continue
        r8 = _signed_one(X[0], X[1], X[2], tri[t0:t1], pseudo[t0:t1], node_f[m0:m1],
                         node_i[m0:m1], tri_id[t0:t1], mesh_i[s, 6] != 0, mesh_f[s, 0],
                         mesh_f[s, 1], _BETA, cand_k, cand_d2)
        if n_seen < _SEEN:
            seen[n_seen, 0], seen[n_seen, 1], seen[n_seen, 2] = r8[1], r8[2], r8[3]
            n_seen += 1
        d = r8[0]
        if d < 0.0:
            cc[0], cc[1], cc[2], cc[3], cc[4], cc[5] = r8[1], r8[2], r8[3], X[0], X[1], X[2]
            g[0], g[1], g[2] = r8[4], r8[5], r8[6]
            if best[0] < 0.0 or -d > best[0] + tie:
                fb = r8[7]
            _take(best, d, cc[0:3], cc[3:6], g, -1.0, tie)
            if collect:
                buf, nbuf = _push(buf, nbuf, q, -d, cc)
    # Edges that can reach deeper into O than the depth found so far (O lies
    # in its holding capsule: an edge's depth in O is at most the radius
    # minus its distance to the core).
    edges = _unique_edges(faces, t0, near, near.shape[0])
    S = np.empty(6)
    rc = _holding(k, a, b, c, S)
    above = 0.0 if collect else max(best[0], 0.0)
    seg = np.empty(6)
    work = np.empty(6)
    row = np.empty(10)
    for e in range(edges.shape[0]):
        va, vb = v0 + edges[e, 0], v0 + edges[e, 1]
        for r in range(3):
            seg[r] = ((vertices[va, 0] - t[0]) * R[0, r] + (vertices[va, 1] - t[1]) * R[1, r]
                      + (vertices[va, 2] - t[2]) * R[2, r])
            seg[3 + r] = ((vertices[vb, 0] - t[0]) * R[0, r] + (vertices[vb, 1] - t[1]) * R[1, r]
                          + (vertices[vb, 2] - t[2]) * R[2, r])
        if not rc - math.sqrt(_seg_seg(seg, 0, 3, S, 0, 3, work)) > above:
            continue
        d = _seg_min(k, a, b, c, seg[0], seg[1], seg[2], seg[3], seg[4], seg[5], row, 0,
                     _DEPTH_STEPS, np.inf)
        if d < 0.0:
            for r in range(3):
                cc[r] = R[r, 0] * row[1] + R[r, 1] * row[2] + R[r, 2] * row[3] + t[r]
                cc[3 + r] = R[r, 0] * row[4] + R[r, 1] * row[5] + R[r, 2] * row[6] + t[r]
                g[r] = R[r, 0] * row[7] + R[r, 1] * row[8] + R[r, 2] * row[9]
            _take(best, d, cc[0:3], cc[3:6], g, 1.0, tie)
            if collect:
                buf, nbuf = _push(buf, nbuf, q, -d, cc)
    _write_answer(best, res, touch, touch[3], touch[4], touch[5])
    return buf, nbuf
