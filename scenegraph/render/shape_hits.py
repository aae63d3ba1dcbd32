"""Compiled per-ray pieces of the renderer: where a camera ray enters and leaves
each primitive shape, and the outward normal and texture coordinates at a hit.

A ray is X(t) = o_G + t·d_G in the shape's frame G, with d_G the camera-frame
direction (x, y, 1) rotated into G. Because the camera-frame direction has
z = 1, the ray parameter t *is* the depth of X along the camera's z axis [m],
so a hit's t is written to the depth buffer as it is.

Every interval function returns (t_in, t_out), where the ray is inside the
solid for t_in ≤ t ≤ t_out; t_in > t_out means a miss. The renderer keeps the
entry when it lies beyond the near clipping plane and otherwise the exit (the
inside of a shape cut by the near plane shows, as OpenGL draws back faces).

Shape parameters (``size`` (3,) per geometry, in G [m]):
  sphere (r, ·, ·); box half sizes (hx, hy, hz); cylinder and capsule (r, half
  length, ·), axis Gz; ellipsoid semi-axes (a, b, c); half space: the square
  z = 0, |x|, |y| ≤ size[0] (Drake's VTK engine draws a 100 m square).
"""
from __future__ import annotations

import math

from scenegraph._jit import njit

INF = math.inf

# Shape kinds, as packed by scenegraph.render.scene_pack.
SPHERE, BOX, CYLINDER, CAPSULE, ELLIPSOID, HALF_SPACE, MESH = 0, 1, 2, 3, 4, 5, 6


@njit
def sphere_interval(ox, oy, oz, dx, dy, dz, r):
    """Entry and exit of the ray in the sphere of radius r about G's origin."""
    a = dx * dx + dy * dy + dz * dz
    b = ox * dx + oy * dy + oz * dz
    c = ox * ox + oy * oy + oz * oz - r * r
    disc = b * b - a * c
    if disc < 0.0 or a == 0.0:
        return INF, -INF
    root = math.sqrt(disc)
    # The numerically stable pair of roots (no cancellation).
    q = -(b + math.copysign(root, b))
    if q == 0.0:
        return 0.0, 0.0
    t0 = q / a
    t1 = c / q
    if t0 > t1:
        return t1, t0
    return t0, t1


@njit
def box_interval(ox, oy, oz, dx, dy, dz, hx, hy, hz):
    """Entry and exit of the ray in the box |x| ≤ hx, |y| ≤ hy, |z| ≤ hz (slabs)."""
    t_in, t_out = -INF, INF
    for o, d, h in ((ox, dx, hx), (oy, dy, hy), (oz, dz, hz)):
        if d == 0.0:
            if o < -h or o > h:
                return INF, -INF
        else:
            inv = 1.0 / d
            ta = (-h - o) * inv
            tb = (h - o) * inv
            if ta > tb:
                ta, tb = tb, ta
            if ta > t_in:
                t_in = ta
            if tb < t_out:
                t_out = tb
            if t_in > t_out:
                return INF, -INF
    return t_in, t_out


@njit
def _tube_interval(ox, oy, dx, dy, r):
    """Entry and exit of the ray in the infinite tube x² + y² ≤ r²."""
    a = dx * dx + dy * dy
    c = ox * ox + oy * oy - r * r
    if a == 0.0:
        if c <= 0.0:
            return -INF, INF
        return INF, -INF
    b = ox * dx + oy * dy
    disc = b * b - a * c
    if disc < 0.0:
        return INF, -INF
    root = math.sqrt(disc)
    q = -(b + math.copysign(root, b))
    if q == 0.0:
        return 0.0, 0.0
    t0 = q / a
    t1 = c / q
    if t0 > t1:
        return t1, t0
    return t0, t1


@njit
def cylinder_interval(ox, oy, oz, dx, dy, dz, r, h):
    """Entry and exit of the ray in the cylinder x² + y² ≤ r², |z| ≤ h."""
    t_in, t_out = _tube_interval(ox, oy, dx, dy, r)
    if t_in > t_out:
        return INF, -INF
    if dz == 0.0:
        if oz < -h or oz > h:
            return INF, -INF
        return t_in, t_out
    ta = (-h - oz) / dz
    tb = (h - oz) / dz
    if ta > tb:
        ta, tb = tb, ta
    return max(t_in, ta), min(t_out, tb)


@njit
def capsule_interval(ox, oy, oz, dx, dy, dz, r, h):
    """Entry and exit of the ray in the capsule of radius r around the segment
    z ∈ [-h, h] of Gz: the union of the tube part and the two end spheres (the
    capsule is convex, so the union along a line is one interval)."""
    t_in, t_out = INF, -INF
    ta, tb = _tube_interval(ox, oy, dx, dy, r)
    if ta <= tb:
        # The tube part with |z| ≤ h.
        if dz == 0.0:
            if -h <= oz <= h:
                t_in, t_out = ta, tb
        else:
            za = (-h - oz) / dz
            zb = (h - oz) / dz
            if za > zb:
                za, zb = zb, za
            lo, hi = max(ta, za), min(tb, zb)
            if lo <= hi:
                t_in, t_out = lo, hi
    for zc in (h, -h):
        sa, sb = sphere_interval(ox, oy, oz - zc, dx, dy, dz, r)
        if sa <= sb:
            if sa < t_in:
                t_in = sa
            if sb > t_out:
                t_out = sb
    return t_in, t_out


@njit
def half_space_hit(ox, oy, oz, dx, dy, dz, extent):
    """t where the ray crosses the plane z = 0 within |x|, |y| ≤ extent (INF if
    it does not); both sides of the square are surfaces."""
    if dz == 0.0:
        return INF
    t = -oz / dz
    x = ox + t * dx
    y = oy + t * dy
    if abs(x) > extent or abs(y) > extent:
        return INF
    return t


@njit
def outward_normal(kind, x, y, z, s0, s1, s2):
    """Outward unit normal n_G at the surface point (x, y, z) of G."""
    if kind == SPHERE:
        n = math.sqrt(x * x + y * y + z * z)
        if n == 0.0:
            return 0.0, 0.0, 1.0
        return x / n, y / n, z / n
    if kind == ELLIPSOID:
        gx, gy, gz = x / (s0 * s0), y / (s1 * s1), z / (s2 * s2)
        n = math.sqrt(gx * gx + gy * gy + gz * gz)
        if n == 0.0:
            return 0.0, 0.0, 1.0
        return gx / n, gy / n, gz / n
    if kind == BOX:
        ax, ay, az = abs(x) / s0, abs(y) / s1, abs(z) / s2
        if ax >= ay and ax >= az:
            return math.copysign(1.0, x), 0.0, 0.0
        if ay >= az:
            return 0.0, math.copysign(1.0, y), 0.0
        return 0.0, 0.0, math.copysign(1.0, z)
    if kind == CYLINDER:
        rho = math.sqrt(x * x + y * y)
        if s1 - abs(z) < s0 - rho:
            return 0.0, 0.0, math.copysign(1.0, z)
        if rho == 0.0:
            return 1.0, 0.0, 0.0
        return x / rho, y / rho, 0.0
    if kind == CAPSULE:
        zc = min(max(z, -s1), s1)
        dz = z - zc
        n = math.sqrt(x * x + y * y + dz * dz)
        if n == 0.0:
            return 0.0, 0.0, 1.0
        return x / n, y / n, dz / n
    return 0.0, 0.0, 1.0  # half space


@njit
def _longitude_u(x, y):
    """atan2(y, x) / 2π in [0, 1)."""
    u = math.atan2(y, x) / (2.0 * math.pi)
    if u < 0.0:
        u += 1.0
    return u


@njit
def texture_uv(kind, x, y, z, s0, s1, s2, scale_u, scale_v):
    """Texture coordinates (u, v) (OpenGL's: v up) at the surface point (x, y, z)
    of G, laid out as Drake's VTK engine lays them:

    * box: the whole image on every face (Drake's DrakeCubeSource face bases),
      scaled by ("phong", "diffuse_scale");
    * sphere and ellipsoid: longitude u = atan2(y, x)/2π, v = 1 − polar/π
      (vtkTexturedSphereSource);
    * cylinder: sides longitude u, v = ½ + z/length; caps the image across
      the disk (an approximation: pydrake 1.51 shows part of the image there);
    * capsule: longitude u, and v running from the −z pole to the +z pole
      along the profile;
    * half space: the 100 m square mapped to [0, 1]² (u along +y, v along −x).

    Measured against pydrake 1.51.1's images of a textured shape seen along
    each axis (the box faces, sphere, cylinder sides and half space agree).
    """
    if kind == BOX:
        ax, ay, az = abs(x) / s0, abs(y) / s1, abs(z) / s2
        if ax >= ay and ax >= az:
            if x > 0.0:
                fx, fy = y / s1, z / s2
            else:
                fx, fy = -y / s1, z / s2
        elif ay >= az:
            if y > 0.0:
                fx, fy = -x / s0, z / s2
            else:
                fx, fy = x / s0, z / s2
        else:
            if z > 0.0:
                fx, fy = x / s0, y / s1
            else:
                fx, fy = x / s0, -y / s1
        return (fx + 1.0) * 0.5 * scale_u, (fy + 1.0) * 0.5 * scale_v
    if kind == SPHERE or kind == ELLIPSOID:
        if kind == SPHERE:
            qx, qy, qz = x / s0, y / s0, z / s0
        else:
            qx, qy, qz = x / s0, y / s1, z / s2
        n = math.sqrt(qx * qx + qy * qy + qz * qz)
        c = min(max(qz / n, -1.0), 1.0) if n > 0.0 else 1.0
        return _longitude_u(qx, qy), 1.0 - math.acos(c) / math.pi
    if kind == CYLINDER:
        rho = math.sqrt(x * x + y * y)
        if s1 - abs(z) < s0 - rho:
            return 0.5 + x / (2.0 * s0), 0.5 + y / (2.0 * s0)
        return _longitude_u(x, y), 0.5 + z / (2.0 * s1)
    if kind == CAPSULE:
        r, h = s0, s1
        total = 2.0 * h + math.pi * r
        zc = min(max(z, -h), h)
        if z > h:
            s = r * math.acos(min(max((z - h) / r, -1.0), 1.0))
        elif z < -h:
            s = 0.5 * math.pi * r + 2.0 * h + r * math.asin(min(max((-h - z) / r, -1.0), 1.0))
        else:
            s = 0.5 * math.pi * r + (h - zc)
        return _longitude_u(x, y), 1.0 - s / total
    # half space
    return 0.5 + y / (2.0 * s0), 0.5 - x / (2.0 * s0)
