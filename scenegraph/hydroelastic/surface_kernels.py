"""Compiled assembly of contact surfaces: contact polygons in a frame F → the
arrays of a TriangleSurfaceMesh or PolygonSurfaceMesh and its pressure field in
the world frame W (one entry point, build_surface; see contact_builder.py).

Polygons come stored flat: polygon k owns vertices start[k] <= v < start[k + 1]
of p_FV (V, 3) [m] and pressure (V,) [Pa], with its desired unit normal
nhat_F (K, 3) and the gradient of its pressure field grad_e_F (K, 3) [Pa/m].
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit


@njit
def _polygon_geometry(X, s, n):
    """(area [m²], unit right-handed normal (3,) (zero for zero area), area centroid
    (3,) (the mean vertex for zero area)) of polygon X[s:s+n], by a fan about X[s]."""
    vx, vy, vz = 0.0, 0.0, 0.0
    for i in range(1, n - 1):
        ax, ay, az = X[s + i, 0] - X[s, 0], X[s + i, 1] - X[s, 1], X[s + i, 2] - X[s, 2]
        bx, by, bz = (X[s + i + 1, 0] - X[s, 0], X[s + i + 1, 1] - X[s, 1],
                      X[s + i + 1, 2] - X[s, 2])
        vx += ay * bz - az * by
        vy += az * bx - ax * bz
        vz += ax * by - ay * bx
    twice = math.sqrt(vx * vx + vy * vy + vz * vz)
    normal = np.zeros(3)
    if twice > 0.0:
        normal[0], normal[1], normal[2] = vx / twice, vy / twice, vz / twice
    centroid = np.zeros(3)
    wsum = 0.0
    for i in range(1, n - 1):
        ax, ay, az = X[s + i, 0] - X[s, 0], X[s + i, 1] - X[s, 1], X[s + i, 2] - X[s, 2]
        bx, by, bz = (X[s + i + 1, 0] - X[s, 0], X[s + i + 1, 1] - X[s, 1],
                      X[s + i + 1, 2] - X[s, 2])
        w = ((ay * bz - az * by) * normal[0] + (az * bx - ax * bz) * normal[1]
             + (ax * by - ay * bx) * normal[2])
        wsum += w
        for k in range(3):
            centroid[k] += w * ((X[s, k] + X[s + i, k] + X[s + i + 1, k]) / 3.0)
    if wsum != 0.0:
        for k in range(3):
            centroid[k] /= wsum
    else:
        for k in range(3):
            acc = 0.0
            for i in range(n):
                acc += X[s + i, k]
            centroid[k] = acc / n
    return 0.5 * twice, normal, centroid


@njit
def _rotate_rows(R, v, out):
    for r in range(v.shape[0]):
        for k in range(3):
            out[r, k] = R[k, 0] * v[r, 0] + R[k, 1] * v[r, 1] + R[k, 2] * v[r, 2]


@njit
def build_surface(start, p_FV, pressure, nhat_F, grad_e_F, R_WF, p_WF, triangles, reverse):
    """Contact-surface arrays in W from K polygons in frame F posed by X_WF.

    Each polygon is first oriented so that its right-handed normal agrees with
    nhat_F (vertex order (v0, v_{n-1}, …, v1) otherwise). triangles=True: each
    polygon becomes a fan of triangles (v_{i-1}, v_i, c) about its area centroid
    c, which follows the polygon's vertices (pressure at c = ∇e·(c − v0) + p(v0));
    otherwise one polygon per contact polygon. reverse=True reverses every face's
    winding afterwards (the surface's M and N are swapped), negating the normals.

    Returns (p_WV (V, 3), values (V,), faces, starts (F,), counts (F,),
    areas (F,), normals (F, 3), centroids (F, 3), polygon_of_face (F,), at_Mo,
    grad_e_W (K, 3), totals (4,) = (total area, area-weighted centroid)):
    faces are (F, 3) triangles flattened, or Drake's polygon face data
    |n|v…|; at_Mo (F,) is e at W's origin per polygon (polygons only).
    """
    K = start.shape[0] - 1
    nV = start[K]
    X = np.empty((nV, 3))
    for v in range(nV):
        for k in range(3):
            X[v, k] = (R_WF[k, 0] * p_FV[v, 0] + R_WF[k, 1] * p_FV[v, 1]
                       + R_WF[k, 2] * p_FV[v, 2]) + p_WF[k]
    nhat_W = np.empty((K, 3))
    _rotate_rows(R_WF, nhat_F, nhat_W)
    grad_e_W = np.empty((K, 3))
    _rotate_rows(R_WF, grad_e_F, grad_e_W)
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
    polygon_of_face = np.empty(num_f, dtype=np.int64)
    at_Mo = np.empty(0 if triangles else K)
    out_v, out_f, fd = 0, 0, 0
    for q in range(K):
        s, n = start[q], start[q + 1] - start[q]
        area, normal, c = _polygon_geometry(X, s, n)
        flip = (normal[0] * nhat_W[q, 0] + normal[1] * nhat_W[q, 1]
                + normal[2] * nhat_W[q, 2]) < 0.0
        base = out_v
        for j in range(n):
            src = s + ((n - j) % n if flip else j)
            for k in range(3):
                p_WV[base + j, k] = X[src, k]
            values[base + j] = pressure[src]
        if flip:
            for k in range(3):
                normal[k] = -normal[k]
        if triangles:
            cid = base + n
            for k in range(3):
                p_WV[cid, k] = c[k]
            values[cid] = (grad_e_W[q, 0] * (c[0] - p_WV[base, 0])
                           + grad_e_W[q, 1] * (c[1] - p_WV[base, 1])
                           + grad_e_W[q, 2] * (c[2] - p_WV[base, 2])) + values[base]
            for j in range(n):
                i0 = base + (j - 1) % n
                i1 = base + j
                faces[3 * out_f] = i0
                faces[3 * out_f + 1] = cid if reverse else i1
                faces[3 * out_f + 2] = i1 if reverse else cid
                ax, ay, az = (p_WV[i1, 0] - p_WV[i0, 0], p_WV[i1, 1] - p_WV[i0, 1],
                              p_WV[i1, 2] - p_WV[i0, 2])
                bx, by, bz = c[0] - p_WV[i0, 0], c[1] - p_WV[i0, 1], c[2] - p_WV[i0, 2]
                cx, cy, cz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
                twice = math.sqrt(cx * cx + cy * cy + cz * cz)
                areas[out_f] = 0.5 * twice
                sign = -1.0 if reverse else 1.0
                if twice > 0.0:
                    normals[out_f, 0] = sign * (cx / twice)
                    normals[out_f, 1] = sign * (cy / twice)
                    normals[out_f, 2] = sign * (cz / twice)
                else:
                    normals[out_f, 0] = 0.0
                    normals[out_f, 1] = 0.0
                    normals[out_f, 2] = 0.0
                for k in range(3):
                    centroids[out_f, k] = (p_WV[i0, k] + (p_WV[i1, k] + c[k])) / 3.0
                polygon_of_face[out_f] = q
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
            for k in range(3):
                normals[q, k] = -normal[k] if reverse else normal[k]
                centroids[q, k] = c[k]
            polygon_of_face[q] = q
            at_Mo[q] = values[base] - (grad_e_W[q, 0] * p_WV[base, 0]
                                       + grad_e_W[q, 1] * p_WV[base, 1]
                                       + grad_e_W[q, 2] * p_WV[base, 2])
            out_v = base + n
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
    return (p_WV, values, faces, starts, counts, areas, normals, centroids, polygon_of_face,
            at_Mo, grad_e_W, totals)
