"""The renderer's compiled pass: one call renders one image (depth, label or
colour) of every registered geometry.

Pipeline (``render_image``), all compiled, no Python per pixel or geometry:

1. Geometries into the camera frame C: R_CG, p_CG from R_WG, p_WG and X_CW;
   each geometry's box in G (centre, half sizes) projected to a conservative
   pixel rectangle (the whole image when the box straddles the near plane),
   culled when wholly before the near or beyond the far clipping plane.
2. Mesh vertices into C (parallel over vertices) and per triangle the three
   edge planes through the camera origin, e_i = p_j × p_k, with det = p_0·e_0
   (homogeneous rasterisation: a pixel ray d is inside the triangle when the
   three d·e_i share the sign of d·(e_0+e_1+e_2), and meets it at depth
   t = det / d·(e_0+e_1+e_2); no clipping needed), and the triangle's pixel
   rectangle from its part in front of the near plane.
3. Visibility, in parallel over bands of rows: for each geometry (nearest
   first) whose rectangle meets the band, every pixel of the rectangle's rows
   is tested, analytically for primitives (scenegraph.render.shape_hits) and
   by the edge planes for mesh triangles, against a z-buffer of exact depths.
   Geometries whose diffuse alpha is below 1 go to a second buffer in colour
   images (one translucent layer blended over what is behind it).
4. Resolve, in parallel over rows: the depth with Drake's out-of-range values,
   the label, or the Phong-lit colour (Lambertian diffuse, two-sided, lights
   in C; textures sampled bilinearly, repeating).

A pixel (u, v) looks along d_C = ((u + ½ − c_x)/f_x, (v + ½ − c_y)/f_y, 1):
this is where Drake's RenderEngineVtk samples (measured against pydrake
1.51.1: its depths match this ray to 0.4 mm at the median, and are off by a
half pixel's worth with the ray through (u − c_x)/f_x).
"""
from __future__ import annotations

import math

import numpy as np
from scenegraph._jit import njit
from scenegraph.render.shape_hits import (BOX, CAPSULE, CYLINDER, ELLIPSOID, HALF_SPACE,
                                          MESH, SPHERE, box_interval, capsule_interval,
                                          cylinder_interval, half_space_hit, outward_normal,
                                          sphere_interval, texture_uv)

INF = math.inf

#: Image kinds (``mode`` of render_image).
DEPTH, LABEL, COLOR = 0, 1, 2
#: Light kinds (column 0 of the light table).
DIRECTIONAL, POINT, SPOT = 0, 1, 2
#: Rows per band of the visibility pass.
BAND_ROWS = 8


@njit
def _pick(t_in, t_out, near, t_max):
    """The visible hit of an interval: its entry if beyond the near plane,
    else its exit; INF if neither lies in [near, t_max)."""
    if t_in > t_out:
        return INF
    if t_in >= near:
        return t_in if t_in < t_max else INF
    if t_out >= near and t_out < t_max:
        return t_out
    return INF


@njit
def _primitive_hit(k, x, y, near, t_max, r0, r1, r2, r3, r4, r5, r6, r7, r8, ox, oy, oz,
                   s0, s1, s2, cx, cy, cz):
    """Depth of the visible hit of a primitive of kind k along d_C = (x, y, 1).
    r0..r8: R_CG row by row; (ox, oy, oz): the camera origin in G; s0..s2: the
    size; (cx, cy, cz): p_CG (spheres). Scalars only: called per pixel."""
    if k == SPHERE:
        return _pick(*sphere_interval(-cx, -cy, -cz, x, y, 1.0, s0), near, t_max)
    # d_G = R_CGᵀ d_C.
    dx = r0 * x + r3 * y + r6
    dy = r1 * x + r4 * y + r7
    dz = r2 * x + r5 * y + r8
    if k == BOX:
        return _pick(*box_interval(ox, oy, oz, dx, dy, dz, s0, s1, s2), near, t_max)
    if k == ELLIPSOID:
        return _pick(*sphere_interval(ox / s0, oy / s1, oz / s2, dx / s0, dy / s1, dz / s2,
                                      1.0), near, t_max)
    if k == CYLINDER:
        return _pick(*cylinder_interval(ox, oy, oz, dx, dy, dz, s0, s1), near, t_max)
    if k == CAPSULE:
        return _pick(*capsule_interval(ox, oy, oz, dx, dy, dz, s0, s1), near, t_max)
    t = half_space_hit(ox, oy, oz, dx, dy, dz, s0)
    if t >= near and t < t_max:
        return t
    return INF


@njit
def _project_box(g, R_CG, p_CG, box_c, box_h, camera, rect):
    """Pixel rectangle (u0, u1, v0, v1; inclusive; u0 > u1 when culled) of the
    box (centre box_c[g], half sizes box_h[g], in G) seen by the camera, and
    rect[g, 4] = 1 when the box lies wholly beyond the near plane."""
    rect[g, 4] = 0
    W, H = int(camera[0]), int(camera[1])
    fx, fy, cx, cy, near, far = camera[2], camera[3], camera[4], camera[5], camera[6], camera[7]
    n_front = 0
    n_beyond = 0
    xmin, xmax, ymin, ymax = INF, -INF, INF, -INF
    for corner in range(8):
        sx = 1.0 if corner & 1 else -1.0
        sy = 1.0 if corner & 2 else -1.0
        sz = 1.0 if corner & 4 else -1.0
        qx = box_c[g, 0] + sx * box_h[g, 0]
        qy = box_c[g, 1] + sy * box_h[g, 1]
        qz = box_c[g, 2] + sz * box_h[g, 2]
        X = R_CG[g, 0, 0] * qx + R_CG[g, 0, 1] * qy + R_CG[g, 0, 2] * qz + p_CG[g, 0]
        Y = R_CG[g, 1, 0] * qx + R_CG[g, 1, 1] * qy + R_CG[g, 1, 2] * qz + p_CG[g, 1]
        Z = R_CG[g, 2, 0] * qx + R_CG[g, 2, 1] * qy + R_CG[g, 2, 2] * qz + p_CG[g, 2]
        if Z > far:
            n_beyond += 1
        if Z >= near:
            n_front += 1
            px = fx * X / Z + cx
            py = fy * Y / Z + cy
            xmin = min(xmin, px)
            xmax = max(xmax, px)
            ymin = min(ymin, py)
            ymax = max(ymax, py)
    if n_front == 0 or n_beyond == 8:
        rect[g, 0], rect[g, 1], rect[g, 2], rect[g, 3] = 0, -1, 0, -1
        return
    if n_front < 8:
        rect[g, 0], rect[g, 1], rect[g, 2], rect[g, 3] = 0, W - 1, 0, H - 1
        rect[g, 4] = 0
        return
    _clip_rect(rect, g, xmin, xmax, ymin, ymax, W, H)
    rect[g, 4] = 1   # wholly beyond the near plane


@njit
def _clip_rect(rect, i, xmin, xmax, ymin, ymax, W, H):
    """Pixels u whose ray u + ½ falls in [xmin, xmax] (one pixel of slack each
    side), clipped to the image; likewise v."""
    if not (xmax >= -2.0 and xmin <= W + 2.0 and ymax >= -2.0 and ymin <= H + 2.0):
        rect[i, 0], rect[i, 1], rect[i, 2], rect[i, 3] = 0, -1, 0, -1
        return
    rect[i, 0] = max(0, int(math.floor(xmin - 0.5)) - 1)
    rect[i, 1] = min(W - 1, int(math.ceil(xmax - 0.5)) + 1)
    rect[i, 2] = max(0, int(math.floor(ymin - 0.5)) - 1)
    rect[i, 3] = min(H - 1, int(math.ceil(ymax - 0.5)) + 1)


@njit
def _setup_triangle(k, tri, p_CV, camera, tedge, trect, cull_back):
    """Edge planes, det and pixel rectangle of triangle k (vertices in C); a
    triangle facing away from the camera (det = n·p_0 > 0 for an outward
    normal n) is dropped when `cull_back` (its mesh is closed, wound outward,
    and wholly beyond the near plane, so its back faces are hidden)."""
    W, H = int(camera[0]), int(camera[1])
    fx, fy, cx, cy, near, far = camera[2], camera[3], camera[4], camera[5], camera[6], camera[7]
    i0, i1, i2 = tri[k, 0], tri[k, 1], tri[k, 2]
    ax, ay, az = p_CV[i0, 0], p_CV[i0, 1], p_CV[i0, 2]
    bx, by, bz = p_CV[i1, 0], p_CV[i1, 1], p_CV[i1, 2]
    qx, qy, qz = p_CV[i2, 0], p_CV[i2, 1], p_CV[i2, 2]
    # e0 = b × c, e1 = c × a, e2 = a × b.
    tedge[k, 0] = by * qz - bz * qy
    tedge[k, 1] = bz * qx - bx * qz
    tedge[k, 2] = bx * qy - by * qx
    tedge[k, 3] = qy * az - qz * ay
    tedge[k, 4] = qz * ax - qx * az
    tedge[k, 5] = qx * ay - qy * ax
    tedge[k, 6] = ay * bz - az * by
    tedge[k, 7] = az * bx - ax * bz
    tedge[k, 8] = ax * by - ay * bx
    det = ax * tedge[k, 0] + ay * tedge[k, 1] + az * tedge[k, 2]
    tedge[k, 9] = det
    if det == 0.0 or (cull_back and det > 0.0) or (az > far and bz > far and qz > far):
        trect[k, 0], trect[k, 1], trect[k, 2], trect[k, 3] = 0, -1, 0, -1
        return
    xmin, xmax, ymin, ymax = INF, -INF, INF, -INF
    n_front = 0
    for e in range(3):
        if e == 0:
            X0, Y0, Z0, X1, Y1, Z1 = ax, ay, az, bx, by, bz
        elif e == 1:
            X0, Y0, Z0, X1, Y1, Z1 = bx, by, bz, qx, qy, qz
        else:
            X0, Y0, Z0, X1, Y1, Z1 = qx, qy, qz, ax, ay, az
        if Z0 >= near:
            n_front += 1
            px, py = fx * X0 / Z0 + cx, fy * Y0 / Z0 + cy
            xmin, xmax = min(xmin, px), max(xmax, px)
            ymin, ymax = min(ymin, py), max(ymax, py)
        if (Z0 >= near) != (Z1 >= near):
            s = (near - Z0) / (Z1 - Z0)
            X, Y = X0 + s * (X1 - X0), Y0 + s * (Y1 - Y0)
            px, py = fx * X / near + cx, fy * Y / near + cy
            xmin, xmax = min(xmin, px), max(xmax, px)
            ymin, ymax = min(ymin, py), max(ymax, py)
    if n_front == 0:
        trect[k, 0], trect[k, 1], trect[k, 2], trect[k, 3] = 0, -1, 0, -1
        return
    _clip_rect(trect, k, xmin, xmax, ymin, ymax, W, H)


@njit
def _edge_span(a, c, lo, hi):
    """[lo, hi] ∩ {x : a·x + c ≥ 0}."""
    if a > 0.0:
        return max(lo, -c / a), hi
    if a < 0.0:
        return lo, min(hi, -c / a)
    if c < 0.0:
        return INF, -INF
    return lo, hi


@njit
def _rasterize_triangles(t0, t1, v0, v1, tri_rect, tedge, xs, ys, camera, zbuf, gbuf, tbuf,
                         g):
    """Z-buffers triangles t0..t1-1 of geometry g over rows v0..v1: per row, the
    span of pixels inside all three edge planes (on the side that puts the
    triangle in front of the camera, the sign of det) is solved for, then only
    its depths det / d·n are computed."""
    fx, cx, near, far = camera[2], camera[4], camera[6], camera[7]
    for k in range(t0, t1):
        ra, rb = max(tri_rect[k, 2], v0), min(tri_rect[k, 3], v1)
        if ra > rb:
            continue
        u0, u1 = tri_rect[k, 0], tri_rect[k, 1]
        det = tedge[k, 9]
        sign = 1.0 if det > 0.0 else -1.0
        e0x, e0y, e0z = sign * tedge[k, 0], sign * tedge[k, 1], sign * tedge[k, 2]
        e1x, e1y, e1z = sign * tedge[k, 3], sign * tedge[k, 4], sign * tedge[k, 5]
        e2x, e2y, e2z = sign * tedge[k, 6], sign * tedge[k, 7], sign * tedge[k, 8]
        det_s = sign * det
        sx = e0x + e1x + e2x
        for v in range(ra, rb + 1):
            y = ys[v]
            c0 = e0y * y + e0z
            c1 = e1y * y + e1z
            c2 = e2y * y + e2z
            lo, hi = _edge_span(e0x, c0, -INF, INF)
            lo, hi = _edge_span(e1x, c1, lo, hi)
            lo, hi = _edge_span(e2x, c2, lo, hi)
            if lo > hi:
                continue
            # Pixel u looks along x = (u + ½ − c_x)/f_x; a hair of slack keeps
            # the pixels on a shared edge in both triangles (no cracks).
            ua = max(u0, int(math.ceil(lo * fx + cx - 0.5 - 1e-7)))
            ub = min(u1, int(math.floor(hi * fx + cx - 0.5 + 1e-7)))
            sc = c0 + c1 + c2
            for u in range(ua, ub + 1):
                t = det_s / (sx * xs[u] + sc)
                if t >= near and t <= far and t < zbuf[v, u]:
                    zbuf[v, u] = t
                    gbuf[v, u] = g
                    tbuf[v, u] = k


@njit
def _sample_texture(tex_data, tex_info, tex, u, v):
    """Bilinear sample (r, g, b) in [0, 1] of texture `tex` at (u, v) (OpenGL's
    convention: v up), repeating outside [0, 1]."""
    off, w, h = tex_info[tex, 0], tex_info[tex, 1], tex_info[tex, 2]
    u = u - math.floor(u)
    v = v - math.floor(v)
    fx = u * w - 0.5
    fy = (1.0 - v) * h - 0.5
    x0 = int(math.floor(fx))
    y0 = int(math.floor(fy))
    ax = fx - x0
    ay = fy - y0
    xa, xb = x0 % w, (x0 + 1) % w
    ya, yb = y0 % h, (y0 + 1) % h
    r = 0.0
    gg = 0.0
    b = 0.0
    for (xx, yy, wt) in ((xa, ya, (1 - ax) * (1 - ay)), (xb, ya, ax * (1 - ay)),
                         (xa, yb, (1 - ax) * ay), (xb, yb, ax * ay)):
        p = off + yy * w + xx
        r += wt * tex_data[p, 0]
        gg += wt * tex_data[p, 1]
        b += wt * tex_data[p, 2]
    return r / 255.0, gg / 255.0, b / 255.0


@njit
def _to_byte(value):
    value = value * 255.0 + 0.5
    if value <= 0.0:
        return 0
    if value >= 255.0:
        return 255
    return int(value)


@njit
def _prepare(camera, R_CW, p_CW, kind, box_c, box_h, R_WG, p_WG, visible, R_CG, p_CG, o_G,
             rect, key):
    """Stage 1 (see the module docstring), for every geometry."""
    for g in range(kind.shape[0]):
        for i in range(3):
            for j in range(3):
                R_CG[g, i, j] = (R_CW[i, 0] * R_WG[g, 0, j] + R_CW[i, 1] * R_WG[g, 1, j]
                                 + R_CW[i, 2] * R_WG[g, 2, j])
            p_CG[g, i] = (R_CW[i, 0] * p_WG[g, 0] + R_CW[i, 1] * p_WG[g, 1]
                          + R_CW[i, 2] * p_WG[g, 2] + p_CW[i])
        for i in range(3):
            o_G[g, i] = -(R_CG[g, 0, i] * p_CG[g, 0] + R_CG[g, 1, i] * p_CG[g, 1]
                          + R_CG[g, 2, i] * p_CG[g, 2])
        key[g] = p_CG[g, 2]
        if visible[g]:
            _project_box(g, R_CG, p_CG, box_c, box_h, camera, rect)
        else:
            rect[g, 0], rect[g, 1], rect[g, 2], rect[g, 3] = 0, -1, 0, -1
        if kind[g] == HALF_SPACE:
            key[g] = INF  # drawn last: it rarely hides anything


@njit
def setup_scene(camera, R_CW, p_CW, kind, box_c, box_h, R_WG, p_WG, visible, closed, R_CG,
                p_CG, o_G, rect, key, vert_geo, p_GV, p_CV, tri, tri_geo, tedge, trect):
    """Stages 1 and 2 (see the module docstring): geometries, then mesh
    vertices and triangles, into the camera frame; fills R_CG, p_CG, o_G,
    rect, key (drawing order: nearest first, half spaces last), p_CV, tedge
    and trect. closed[g]: mesh g is closed and wound outward (back faces may
    be culled)."""
    _prepare(camera, R_CW, p_CW, kind, box_c, box_h, R_WG, p_WG, visible, R_CG, p_CG, o_G,
             rect, key)
    for i in range(p_GV.shape[0]):
        g = vert_geo[i]
        if rect[g, 0] <= rect[g, 1]:
            for r in range(3):
                p_CV[i, r] = (R_CG[g, r, 0] * p_GV[i, 0] + R_CG[g, r, 1] * p_GV[i, 1]
                              + R_CG[g, r, 2] * p_GV[i, 2] + p_CG[g, r])
    for k in range(tri.shape[0]):
        g = tri_geo[k]
        if rect[g, 0] <= rect[g, 1]:
            _setup_triangle(k, tri, p_CV, camera, tedge, trect,
                            closed[g] and rect[g, 4] == 1)
        else:
            trect[k, 0], trect[k, 1], trect[k, 2], trect[k, 3] = 0, -1, 0, -1


@njit
def _visibility(v0, v1, two_layers, camera, order, rect, kind, translucent, geo_tri, trect,
                tedge, xs, ys, size, R_CG, p_CG, o_G, zbuf, gbuf, tbuf):
    """Stage 3 for rows v0..v1 (inclusive)."""
    W = int(camera[0])
    near, far = camera[6], camera[7]
    far_limit = far * (1.0 + 1e-15)
    for v in range(v0, v1 + 1):
        for u in range(W):
            zbuf[0, v, u] = INF
            gbuf[0, v, u] = -1
            if two_layers:
                zbuf[1, v, u] = INF
                gbuf[1, v, u] = -1
    for j in range(order.shape[0]):
        g = order[j]
        ra, rb = max(rect[g, 2], v0), min(rect[g, 3], v1)
        if ra > rb or rect[g, 0] > rect[g, 1]:
            continue
        layer = 1 if (two_layers and translucent[g]) else 0
        zb = zbuf[layer]
        gb = gbuf[layer]
        tb = tbuf[layer]
        k = kind[g]
        if k == MESH:
            _rasterize_triangles(geo_tri[g, 0], geo_tri[g, 0] + geo_tri[g, 1], ra, rb,
                                 trect, tedge, xs, ys, camera, zb, gb, tb, g)
            continue
        r0, r1, r2 = R_CG[g, 0, 0], R_CG[g, 0, 1], R_CG[g, 0, 2]
        r3, r4, r5 = R_CG[g, 1, 0], R_CG[g, 1, 1], R_CG[g, 1, 2]
        r6, r7, r8 = R_CG[g, 2, 0], R_CG[g, 2, 1], R_CG[g, 2, 2]
        ox, oy, oz = o_G[g, 0], o_G[g, 1], o_G[g, 2]
        s0, s1, s2 = size[g, 0], size[g, 1], size[g, 2]
        cx, cy, cz = p_CG[g, 0], p_CG[g, 1], p_CG[g, 2]
        u0, u1 = rect[g, 0], rect[g, 1]
        for v in range(ra, rb + 1):
            y = ys[v]
            for u in range(u0, u1 + 1):
                t_max = zb[v, u]
                if t_max > far_limit:
                    t_max = far_limit
                t = _primitive_hit(k, xs[u], y, near, t_max, r0, r1, r2, r3, r4, r5, r6, r7,
                                   r8, ox, oy, oz, s0, s1, s2, cx, cy, cz)
                if t < t_max:
                    zb[v, u] = t
                    gb[v, u] = g


@njit
def _resolve_depth(v0, v1, W, zbuf, gbuf, depth_range, out_depth):
    d_min, d_max = depth_range[0], depth_range[1]
    for v in range(v0, v1):
        for u in range(W):
            t = zbuf[0, v, u]
            if gbuf[0, v, u] < 0 or t > d_max:
                out_depth[v, u] = np.float32(INF)
            elif t < d_min:
                out_depth[v, u] = np.float32(0.0)
            else:
                out_depth[v, u] = np.float32(t)


@njit
def _resolve_label(v0, v1, W, gbuf, labels, empty_label, out_label):
    for v in range(v0, v1):
        for u in range(W):
            g = gbuf[0, v, u]
            out_label[v, u] = empty_label if g < 0 else labels[g]


@njit
def _resolve_color(v0, v1, W, two_layers, xs, ys, zbuf, gbuf, tbuf, kind, size, R_CG, p_CG,
                   tri, tedge, n_V, uv_V, col_V, tri_mat, geo_mat, mat_color, mat_tex,
                   uv_scale, tex_data, tex_info, lights, background, out_color):
    """Stage 4 of colour images for rows v0..v1-1: the opaque layer lit (or the
    background), then the translucent layer blended over it by its alpha.
    Written out in one loop (no per-pixel calls that take arrays)."""
    n_layers = 2 if two_layers else 1
    n_lights = lights.shape[0]
    for v in range(v0, v1):
        y = ys[v]
        for u in range(W):
            x = xs[u]
            r, gg, b = background[0], background[1], background[2]
            t_front = zbuf[0, v, u]
            for layer in range(n_layers):
                g = gbuf[layer, v, u]
                if g < 0:
                    continue
                t = zbuf[layer, v, u]
                if layer == 1 and not t < t_front:
                    continue
                Px, Py, Pz = t * x, t * y, t
                if kind[g] == MESH:
                    k = tbuf[layer, v, u]
                    s = (tedge[k, 0] + tedge[k, 3] + tedge[k, 6]) * x + \
                        (tedge[k, 1] + tedge[k, 4] + tedge[k, 7]) * y + \
                        (tedge[k, 2] + tedge[k, 5] + tedge[k, 8])
                    b0 = (tedge[k, 0] * x + tedge[k, 1] * y + tedge[k, 2]) / s
                    b1 = (tedge[k, 3] * x + tedge[k, 4] * y + tedge[k, 5]) / s
                    b2 = 1.0 - b0 - b1
                    i0, i1, i2 = tri[k, 0], tri[k, 1], tri[k, 2]
                    m = tri_mat[k]
                    nGx = b0 * n_V[i0, 0] + b1 * n_V[i1, 0] + b2 * n_V[i2, 0]
                    nGy = b0 * n_V[i0, 1] + b1 * n_V[i1, 1] + b2 * n_V[i2, 1]
                    nGz = b0 * n_V[i0, 2] + b1 * n_V[i1, 2] + b2 * n_V[i2, 2]
                    nn = math.sqrt(nGx * nGx + nGy * nGy + nGz * nGz)
                    if nn > 0.0:
                        nGx, nGy, nGz = nGx / nn, nGy / nn, nGz / nn
                        nx = R_CG[g, 0, 0] * nGx + R_CG[g, 0, 1] * nGy + R_CG[g, 0, 2] * nGz
                        ny = R_CG[g, 1, 0] * nGx + R_CG[g, 1, 1] * nGy + R_CG[g, 1, 2] * nGz
                        nz = R_CG[g, 2, 0] * nGx + R_CG[g, 2, 1] * nGy + R_CG[g, 2, 2] * nGz
                    else:  # no vertex normals: the face's
                        nx = tedge[k, 0] + tedge[k, 3] + tedge[k, 6]
                        ny = tedge[k, 1] + tedge[k, 4] + tedge[k, 7]
                        nz = tedge[k, 2] + tedge[k, 5] + tedge[k, 8]
                        nn = math.sqrt(nx * nx + ny * ny + nz * nz)
                        nx, ny, nz = nx / nn, ny / nn, nz / nn
                    ca = mat_color[m, 3]
                    if mat_tex[m] == -2:  # per-vertex colours
                        cr = b0 * col_V[i0, 0] + b1 * col_V[i1, 0] + b2 * col_V[i2, 0]
                        cg = b0 * col_V[i0, 1] + b1 * col_V[i1, 1] + b2 * col_V[i2, 1]
                        cb = b0 * col_V[i0, 2] + b1 * col_V[i1, 2] + b2 * col_V[i2, 2]
                    else:
                        cr, cg, cb = mat_color[m, 0], mat_color[m, 1], mat_color[m, 2]
                        if mat_tex[m] >= 0:
                            tu = b0 * uv_V[i0, 0] + b1 * uv_V[i1, 0] + b2 * uv_V[i2, 0]
                            tv = b0 * uv_V[i0, 1] + b1 * uv_V[i1, 1] + b2 * uv_V[i2, 1]
                            sr, sg, sb = _sample_texture(tex_data, tex_info, mat_tex[m], tu, tv)
                            cr, cg, cb = cr * sr, cg * sg, cb * sb
                else:
                    qx, qy, qz = Px - p_CG[g, 0], Py - p_CG[g, 1], Pz - p_CG[g, 2]
                    xG = R_CG[g, 0, 0] * qx + R_CG[g, 1, 0] * qy + R_CG[g, 2, 0] * qz
                    yG = R_CG[g, 0, 1] * qx + R_CG[g, 1, 1] * qy + R_CG[g, 2, 1] * qz
                    zG = R_CG[g, 0, 2] * qx + R_CG[g, 1, 2] * qy + R_CG[g, 2, 2] * qz
                    s0, s1, s2 = size[g, 0], size[g, 1], size[g, 2]
                    nGx, nGy, nGz = outward_normal(kind[g], xG, yG, zG, s0, s1, s2)
                    nx = R_CG[g, 0, 0] * nGx + R_CG[g, 0, 1] * nGy + R_CG[g, 0, 2] * nGz
                    ny = R_CG[g, 1, 0] * nGx + R_CG[g, 1, 1] * nGy + R_CG[g, 1, 2] * nGz
                    nz = R_CG[g, 2, 0] * nGx + R_CG[g, 2, 1] * nGy + R_CG[g, 2, 2] * nGz
                    m = geo_mat[g]
                    cr, cg, cb, ca = (mat_color[m, 0], mat_color[m, 1], mat_color[m, 2],
                                      mat_color[m, 3])
                    if mat_tex[m] >= 0:
                        tu, tv = texture_uv(kind[g], xG, yG, zG, s0, s1, s2, uv_scale[g, 0],
                                            uv_scale[g, 1])
                        sr, sg, sb = _sample_texture(tex_data, tex_info, mat_tex[m], tu, tv)
                        cr, cg, cb = cr * sr, cg * sg, cb * sb
                # Lambertian diffuse from every light, two-sided (the normal turned
                # to face the camera, as VTK draws back faces).
                if nx * x + ny * y + nz > 0.0:
                    nx, ny, nz = -nx, -ny, -nz
                lr = 0.0
                lg = 0.0
                lb = 0.0
                for j in range(n_lights):
                    kind_l = lights[j, 0]
                    if kind_l == DIRECTIONAL:
                        Lx, Ly, Lz = -lights[j, 7], -lights[j, 8], -lights[j, 9]
                        atten = 1.0
                    else:
                        Lx, Ly, Lz = lights[j, 4] - Px, lights[j, 5] - Py, lights[j, 6] - Pz
                        dist = math.sqrt(Lx * Lx + Ly * Ly + Lz * Lz)
                        if dist == 0.0:
                            continue
                        Lx, Ly, Lz = Lx / dist, Ly / dist, Lz / dist
                        den = lights[j, 10] + lights[j, 11] * dist + lights[j, 12] * dist * dist
                        atten = 1.0 / den if den > 0.0 else 1.0
                        if kind_l == SPOT and -(Lx * lights[j, 7] + Ly * lights[j, 8]
                                                + Lz * lights[j, 9]) < lights[j, 13]:
                            continue
                    cos_i = nx * Lx + ny * Ly + nz * Lz
                    if cos_i > 0.0:
                        f = cos_i * atten
                        lr += f * lights[j, 1]
                        lg += f * lights[j, 2]
                        lb += f * lights[j, 3]
                if layer == 0:
                    r, gg, b = cr * lr, cg * lg, cb * lb
                else:
                    r = ca * cr * lr + (1.0 - ca) * r
                    gg = ca * cg * lg + (1.0 - ca) * gg
                    b = ca * cb * lb + (1.0 - ca) * b
            out_color[v, u, 0] = _to_byte(r)
            out_color[v, u, 1] = _to_byte(gg)
            out_color[v, u, 2] = _to_byte(b)
            out_color[v, u, 3] = 255


@njit
def render_bands(mode, worker, n_workers, two_layers, camera, order, rect, kind, size, R_CG,
                 p_CG, o_G, translucent, geo_tri, trect, tedge, tri, n_V, uv_V, col_V, tri_mat,
                 geo_mat, mat_color, mat_tex, uv_scale, tex_data, tex_info, lights, background,
                 depth_range, labels, empty_label, zbuf, gbuf, tbuf, out_depth, out_label,
                 out_color):
    """Stages 3 and 4 for the bands of rows worker, worker + n_workers, ... of
    one image (each worker writes only its own rows, so workers run at once
    without locks); see the module docstring.

    mode: DEPTH, LABEL or COLOR. camera (8,): W, H, f_x, f_y, c_x, c_y [px],
    near, far [m]. order: geometries nearest first. rect, R_CG, p_CG, o_G,
    trect, tedge: from setup_scene. Per geometry (n): kind, size (n, 3) (see
    shape_hits), translucent (alpha < 1, drawn in the second layer of colour
    images when two_layers), geo_tri (n, 2) first triangle and count (meshes),
    geo_mat material, uv_scale (n, 2), labels (int16). Triangles: tri (T, 3)
    vertex rows, tri_mat. Vertices: n_V normals (zero: the face's), uv_V,
    col_V. Materials (M): mat_color (M, 4) RGBA, mat_tex (texture row, −1
    none, −2 vertex colours). Textures: tex_data (P, 4) uint8 texels,
    tex_info (K, 3) first texel, width, height. lights (L, 14): kind,
    rgb·intensity, position and unit direction in C, attenuation (constant,
    linear, quadratic), cos(cone angle). background (3,) RGB; depth_range (2,)
    [m]. zbuf, gbuf, tbuf (2, H, W) scratch. Writes out_depth (H, W) float32,
    out_label (H, W) int16 or out_color (H, W, 4) uint8.
    """
    W, H = int(camera[0]), int(camera[1])
    fx, fy, cx, cy = camera[2], camera[3], camera[4], camera[5]
    xs = np.empty(W)
    for u in range(W):
        xs[u] = (u + 0.5 - cx) / fx
    ys = np.empty(H)
    for v in range(H):
        ys[v] = (v + 0.5 - cy) / fy
    n_bands = (H + BAND_ROWS - 1) // BAND_ROWS
    for band in range(worker, n_bands, n_workers):
        v0 = band * BAND_ROWS
        v1 = min(H, v0 + BAND_ROWS)
        _visibility(v0, v1 - 1, two_layers, camera, order, rect, kind, translucent, geo_tri,
                    trect, tedge, xs, ys, size, R_CG, p_CG, o_G, zbuf, gbuf, tbuf)
        if mode == DEPTH:
            _resolve_depth(v0, v1, W, zbuf, gbuf, depth_range, out_depth)
        elif mode == LABEL:
            _resolve_label(v0, v1, W, gbuf, labels, empty_label, out_label)
        else:
            _resolve_color(v0, v1, W, two_layers, xs, ys, zbuf, gbuf, tbuf, kind, size, R_CG,
                           p_CG, tri, tedge, n_V, uv_V, col_V, tri_mat, geo_mat, mat_color,
                           mat_tex, uv_scale, tex_data, tex_info, lights, background,
                           out_color)
