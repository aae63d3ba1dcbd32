"""Compiled assembly of contact surfaces: contact polygons in a frame F → the
arrays of a TriangleSurfaceMesh or PolygonSurfaceMesh and its pressure field in
the world frame W (one entry point, build_surface; see contact_builder.py).

Polygons come stored flat: polygon k owns vertices start[k] <= v < start[k + 1]
of p_FV (V, 3) [m] and pressure (V,) [Pa], with its desired unit normal
nhat_F (K, 3), the gradient of the surface's pressure field grad_e_F (K, 3)
and of each side's field grad_A_F / grad_B_F (K, 3), or (0, 3) for a rigid
side [Pa/m].
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit


@njit(inline="always")
def _polygon_geometry(X, s, n, out):
    """Fan (about X[s]) geometry of polygon X[s:s+n]: returns its area [m²] and
    writes its unit right-handed normal (zero for zero area) into out[0] and its
    area centroid (the mean vertex for zero area) into out[1]."""
    vx, vy, vz = 0.0, 0.0, 0.0
    for i in range(1, n - 1):
        ax, ay, az = X[s + i, 0] - X[s, 0], X[s + i, 1] - X[s, 1], X[s + i, 2] - X[s, 2]
        bx, by, bz = (X[s + i + 1, 0] - X[s, 0], X[s + i + 1, 1] - X[s, 1],
                      X[s + i + 1, 2] - X[s, 2])
        vx += ay * bz - az * by
        vy += az * bx - ax * bz
        vz += ax * by - ay * bx
    twice = math.sqrt(vx * vx + vy * vy + vz * vz)
    if twice > 0.0:
        out[0, 0], out[0, 1], out[0, 2] = vx / twice, vy / twice, vz / twice
    else:
        out[0, 0], out[0, 1], out[0, 2] = 0.0, 0.0, 0.0
    out[1, 0], out[1, 1], out[1, 2] = 0.0, 0.0, 0.0
    wsum = 0.0
    for i in range(1, n - 1):
        ax, ay, az = X[s + i, 0] - X[s, 0], X[s + i, 1] - X[s, 1], X[s + i, 2] - X[s, 2]
        bx, by, bz = (X[s + i + 1, 0] - X[s, 0], X[s + i + 1, 1] - X[s, 1],
                      X[s + i + 1, 2] - X[s, 2])
        w = ((ay * bz - az * by) * out[0, 0] + (az * bx - ax * bz) * out[0, 1]
             + (ax * by - ay * bx) * out[0, 2])
        wsum += w
        for k in range(3):
            out[1, k] += w * ((X[s, k] + X[s + i, k] + X[s + i + 1, k]) / 3.0)
    if wsum != 0.0:
        for k in range(3):
            out[1, k] /= wsum
    else:
        for k in range(3):
            acc = 0.0
            for i in range(n):
                acc += X[s + i, k]
            out[1, k] = acc / n
    return 0.5 * twice


@njit(inline="always")
def _rotated(R, v, r, k):
    """Component k of R·v[r]."""
    return R[k, 0] * v[r, 0] + R[k, 1] * v[r, 1] + R[k, 2] * v[r, 2]


@njit
def build_surface(start, p_FV, pressure, nhat_F, grad_e_F, grad_A_F, grad_B_F, R_WF, p_WF,
                  triangles, reverse):
    """Contact-surface arrays in W from K polygons in frame F posed by X_WF.

    Each polygon is first oriented so that its right-handed normal agrees with
    nhat_F (vertex order (v0, v_{n-1}, …, v1) otherwise). triangles=True: each
    polygon becomes a fan of triangles (v_{i-1}, v_i, c) about its area centroid
    c, which follows the polygon's vertices (pressure at c = ∇e·(c − v0) + p(v0));
    otherwise one polygon per contact polygon. reverse=True makes B the surface's
    M: every face's winding is reversed afterwards (normals negated exactly) and
    the per-face gradients are returned in (M, N) order.

    Returns (p_WV (V, 3), values (V,), faces, starts, counts, areas (F,), normals
    (F, 3), centroids (F, 3), at_Wo, grad_e_W, grad_M_W, grad_N_W, totals):
    faces are (F, 3) triangles flattened, or Drake's polygon face data |n|v…|
    with each polygon's starts (F,) and counts (F,); for polygons, grad_e_W
    (F, 3) and at_Wo (F,) (the field extended to W's origin); the constituent
    gradients per face (F, 3), or (0, 3) for a rigid side; totals (4,) = (total
    area, area-weighted centroid).
    """
    K = start.shape[0] - 1
    nV = start[K]
    X = np.empty((nV, 3))
    for v in range(nV):
        for k in range(3):
            X[v, k] = _rotated(R_WF, p_FV, v, k) + p_WF[k]
    extra = 1 if triangles else 0
    num_v = nV + extra * K
    num_f = nV if triangles else K
    p_WV = np.empty((num_v, 3))
    values = np.empty(num_v)
    faces = np.empty(3 * nV if triangles else nV + K, dtype=np.int64)
    starts = np.empty(0 if triangles else K, dtype=np.int64)
    counts = np.empty(0 if triangles else K, dtype=np.int64)
    areas = np.empty(num_f)
    normals = np.empty((num_f, 3))
    centroids = np.empty((num_f, 3))
    at_Wo = np.empty(0 if triangles else K)
    grad_e_W = np.empty((0 if triangles else K, 3))
    has_A, has_B = grad_A_F.shape[0] > 0, grad_B_F.shape[0] > 0
    grad_A_W = np.empty((num_f if has_A else 0, 3))
    grad_B_W = np.empty((num_f if has_B else 0, 3))
    geometry = np.empty((2, 3))
    ge = np.empty(3)
    out_v, out_f, fd = 0, 0, 0
    for q in range(K):
        s, n = start[q], start[q + 1] - start[q]
        area = _polygon_geometry(X, s, n, geometry)
        flip = (geometry[0, 0] * _rotated(R_WF, nhat_F, q, 0)
                + geometry[0, 1] * _rotated(R_WF, nhat_F, q, 1)
                + geometry[0, 2] * _rotated(R_WF, nhat_F, q, 2)) < 0.0
        for k in range(3):
            ge[k] = _rotated(R_WF, grad_e_F, q, k)
        base = out_v
        for j in range(n):
            src = s + ((n - j) % n if flip else j)
            p_WV[base + j, 0], p_WV[base + j, 1], p_WV[base + j, 2] = X[src, 0], X[src, 1], X[src, 2]
            values[base + j] = pressure[src]
        first_face = out_f
        if triangles:
            cx0, cx1, cx2 = geometry[1, 0], geometry[1, 1], geometry[1, 2]
            cid = base + n
            p_WV[cid, 0], p_WV[cid, 1], p_WV[cid, 2] = cx0, cx1, cx2
            values[cid] = (ge[0] * (cx0 - p_WV[base, 0]) + ge[1] * (cx1 - p_WV[base, 1])
                           + ge[2] * (cx2 - p_WV[base, 2])) + values[base]
            sign = -1.0 if reverse else 1.0
            for j in range(n):
                i0 = base + (j - 1 if j > 0 else n - 1)
                i1 = base + j
                faces[3 * out_f] = i0
                faces[3 * out_f + 1] = cid if reverse else i1
                faces[3 * out_f + 2] = i1 if reverse else cid
                ax, ay, az = (p_WV[i1, 0] - p_WV[i0, 0], p_WV[i1, 1] - p_WV[i0, 1],
                              p_WV[i1, 2] - p_WV[i0, 2])
                bx, by, bz = cx0 - p_WV[i0, 0], cx1 - p_WV[i0, 1], cx2 - p_WV[i0, 2]
                nx, ny, nz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
                twice = math.sqrt(nx * nx + ny * ny + nz * nz)
                areas[out_f] = 0.5 * twice
                if twice > 0.0:
                    normals[out_f, 0] = sign * (nx / twice)
                    normals[out_f, 1] = sign * (ny / twice)
                    normals[out_f, 2] = sign * (nz / twice)
                else:
                    normals[out_f, 0], normals[out_f, 1], normals[out_f, 2] = 0.0, 0.0, 0.0
                centroids[out_f, 0] = (p_WV[i0, 0] + (p_WV[i1, 0] + cx0)) / 3.0
                centroids[out_f, 1] = (p_WV[i0, 1] + (p_WV[i1, 1] + cx1)) / 3.0
                centroids[out_f, 2] = (p_WV[i0, 2] + (p_WV[i1, 2] + cx2)) / 3.0
                out_f += 1
            out_v = cid + 1
        else:
            faces[fd] = n
            starts[q] = fd + 1
            counts[q] = n
            faces[fd + 1] = base
            for j in range(1, n):
                faces[fd + 1 + j] = base + (n - j if reverse else j)
            fd += n + 1
            areas[q] = area
            # The oriented normal (flipped if the winding was), negated if reversed.
            sign = (-1.0 if flip else 1.0) * (-1.0 if reverse else 1.0)
            for k in range(3):
                normals[q, k] = sign * geometry[0, k]
                centroids[q, k] = geometry[1, k]
                grad_e_W[q, k] = ge[k]
            at_Wo[q] = values[base] - (ge[0] * p_WV[base, 0] + ge[1] * p_WV[base, 1]
                                       + ge[2] * p_WV[base, 2])
            out_f += 1
            out_v = base + n
        for f in range(first_face, out_f):
            for k in range(3):
                if has_A:
                    grad_A_W[f, k] = _rotated(R_WF, grad_A_F, q, k)
                if has_B:
                    grad_B_W[f, k] = _rotated(R_WF, grad_B_F, q, k)
    totals = np.zeros(4)
    for f in range(num_f):
        totals[0] += areas[f]
        for k in range(3):
            totals[1 + k] += areas[f] * centroids[f, k]
    if totals[0] != 0.0:
        for k in range(3):
            totals[1 + k] /= totals[0]
    else:
        totals[1:] = 0.0
    if reverse:
        return (p_WV, values, faces, starts, counts, areas, normals, centroids, at_Wo, grad_e_W,
                grad_B_W, grad_A_W, totals)
    return (p_WV, values, faces, starts, counts, areas, normals, centroids, at_Wo, grad_e_W,
            grad_A_W, grad_B_W, totals)
