"""Sensor points spread evenly over a shape's surface (extension beyond
pydrake; see docs/tactile.md).

`surface_points(shape, scale)` returns p_GS (N, 3), the points S on the
surface of `shape` in its geometry frame G [m], and n_G (N, 3), the outward
unit surface normals at those points, in G. Points are spread so that the
distance from a point to its nearest neighbour is about `scale` [m]
(median within a few percent on shapes several times larger than `scale`):
the count is N = round(A / (√3/2·scale²)), the density of a hexagonal
lattice of spacing `scale` on area A, and the points are placed by a
centroidal Voronoi relaxation (Lloyd's algorithm) over a dense,
area-weighted sample of the surface, each step projecting the points back
onto the exact surface. Sphere uses a Fibonacci lattice directly.

Every shape is covered as one surface: a Box's six faces, a Cylinder's
side and caps, a Capsule's side and hemispheres share their edges without
doubled points. Mesh and Convex points lie on the triangles of the mesh
(a Convex: of its convex hull; a Mesh given by vertices only: of their
hull). Results are deterministic (a fixed seed, no threads).

Everything is vectorised in numpy/scipy (one k-d tree query per
relaxation step), no Python loop per point.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.shapes import Box, Capsule, Convex, Cylinder, Ellipsoid, Mesh, Sphere

__all__ = ["surface_points", "sphere_points", "box_points", "capsule_points",
           "cylinder_points", "ellipsoid_points", "mesh_points", "surface_area",
           "points_count", "checked_length"]

# Area per point of a hexagonal lattice of unit spacing.
_HEX_AREA = math.sqrt(3.0) / 2.0
# Relaxed points (and the Fibonacci lattice) have a median nearest-neighbour
# distance of 0.88 hexagonal spacings (measured on every shape kind): points
# are counted for a hexagonal spacing of scale / 0.88, so the median is scale.
_PACKING = 0.88
# Dense samples per output point and Lloyd iterations.
_SAMPLES_PER_POINT = 6
_MIN_SAMPLES = 2000
_ITERATIONS = 30
_NEIGHBOURS = 8
_REACH = 1.25
_STEP = 0.15
_SEED = 20261124


def checked_length(value, name: str, who: str) -> float:
    """float(value) if it is a positive finite length [m]; TypeError or
    ValueError naming `who`, `name` and the value otherwise."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{who}: {name} must be a number [m]; got {value!r}") from None
    if not (math.isfinite(x) and x > 0.0):
        raise ValueError(f"{who}: {name} must be positive and finite [m]; got {value!r}")
    return x


def _checked_scale(scale) -> float:
    return checked_length(scale, "scale", "surface_points")


def points_count(area: float, scale: float) -> int:
    """N = max(1, round(0.88²·area / (√3/2·scale²))) points for `area` [m²]
    at spacing `scale` [m] (a hexagonal lattice's count at spacing
    scale/0.88, which relaxed points fill with median spacing `scale`)."""
    return max(1, int(round(_PACKING * _PACKING * area / (_HEX_AREA * scale * scale))))


def _normalized(v: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.where(n > 0.0, n, 1.0)


def _fibonacci_sphere(n: int) -> np.ndarray:
    """(n, 3) unit vectors of the Fibonacci lattice (equal-area cells)."""
    k = np.arange(n, dtype=float) + 0.5
    z = 1.0 - 2.0 * k / n
    rho = np.sqrt(np.maximum(0.0, 1.0 - z * z))
    phi = k * (math.pi * (3.0 - math.sqrt(5.0)))
    return np.column_stack([rho * np.cos(phi), rho * np.sin(phi), z])


def _relax(candidates: np.ndarray, weights: np.ndarray, n: int, project):
    """n points spread over the surface sampled by weighted `candidates`:
    start from the centroids of n equal-area patches (Z-order runs of the
    samples), then repel neighbours closer than 1.25 spacings, projecting
    back onto the surface with `project(p) -> (q, nhat)` after every step.
    Returns (p (n, 3), nhat (n, 3))."""
    if n >= len(candidates):
        return project(candidates.copy())
    p, _ = project(_morton_chunks(candidates, weights, n))
    if n < 2:
        return project(p)
    spacing = math.sqrt(weights.sum() / (n * _HEX_AREA))
    reach = _REACH * spacing
    k = min(_NEIGHBOURS, n - 1)
    for _ in range(_ITERATIONS):
        from scipy.spatial import cKDTree   # at first use: scipy.spatial's import is slow
        dist, nb = cKDTree(p).query(p, k=k + 1)
        dist, nb = dist[:, 1:], nb[:, 1:]
        diff = p[:, None, :] - p[nb]
        push = np.clip(1.0 - dist / reach, 0.0, None) / np.maximum(dist, 1e-12 * reach)
        p, _ = project(p + _STEP * reach * np.einsum("ij,ijk->ik", push, diff))
    return project(p)


def _morton_key(P: np.ndarray) -> np.ndarray:
    """Z-order (Morton) key of points quantised to 2^20 cells per axis."""
    lo, hi = P.min(axis=0), P.max(axis=0)
    q = ((P - lo) / np.maximum(hi - lo, 1e-300).max() * ((1 << 20) - 1)).astype(np.uint64)
    key = np.zeros(len(P), dtype=np.uint64)
    for bit in range(20):
        for axis in range(3):
            key |= ((q[:, axis] >> np.uint64(bit)) & np.uint64(1)) << np.uint64(3 * bit + axis)
    return key


def _morton_chunks(P: np.ndarray, w: np.ndarray, n: int) -> np.ndarray:
    """n starting points: the weighted centroids of n equal-weight runs of
    the samples in Z-order (compact patches of equal area)."""
    order = np.argsort(_morton_key(P), kind="stable")
    cw = np.cumsum(w[order])
    chunk = np.minimum((cw / cw[-1] * n - 1e-9).astype(np.int64), n - 1)
    chunk = np.maximum(chunk, 0)
    ww = w[order]
    mass = np.bincount(chunk, weights=ww, minlength=n)
    c = np.column_stack([np.bincount(chunk, weights=ww * P[order, j], minlength=n)
                         for j in range(3)])
    empty = mass <= 0.0
    c[~empty] /= mass[~empty, None]
    c[empty] = P[order[np.minimum(np.searchsorted(chunk, np.flatnonzero(empty)), len(P) - 1)]]
    return c


def _samples(area: float, n: int) -> int:
    return max(_MIN_SAMPLES, _SAMPLES_PER_POINT * n)


# ----------------------------------------------------------------- shapes


def sphere_points(radius: float, scale: float):
    """(p_GS, n_G) on a sphere of `radius` [m] centred at G's origin: a
    Fibonacci lattice of points_count(4πr², scale) points."""
    s = _checked_scale(scale)
    r = float(radius)
    n = points_count(4.0 * math.pi * r * r, s)
    u = _fibonacci_sphere(n)
    return r * u, u


def _box_project(half: np.ndarray):
    def project(p):
        q = np.clip(p, -half, half)
        gap = half - np.abs(q)                      # distance to the face on each axis
        axis = np.argmin(gap, axis=1)
        rows = np.arange(len(q))
        sign = np.where(q[rows, axis] >= 0.0, 1.0, -1.0)
        q[rows, axis] = sign * half[axis]
        nhat = np.zeros_like(q)
        nhat[rows, axis] = sign
        return q, nhat
    return project


def box_points(width: float, depth: float, height: float, scale: float):
    """(p_GS, n_G) on a box of the given sizes along Gx, Gy, Gz [m] centred
    at G's origin; every face covered, edges shared (no doubled points)."""
    s = _checked_scale(scale)
    size = np.array([width, depth, height], dtype=float)
    half = size / 2.0
    area = 2.0 * (size[0] * size[1] + size[1] * size[2] + size[0] * size[2])
    n = points_count(area, s)
    h = math.sqrt(area / _samples(area, n))
    pts, wts = [], []
    for axis in range(3):
        u, v = [a for a in range(3) if a != axis]
        nu, nv = max(1, math.ceil(size[u] / h)), max(1, math.ceil(size[v] / h))
        cu = (np.arange(nu) + 0.5) / nu * size[u] - half[u]
        cv = (np.arange(nv) + 0.5) / nv * size[v] - half[v]
        U, V = np.meshgrid(cu, cv, indexing="ij")
        for sign in (1.0, -1.0):
            P = np.empty((U.size, 3))
            P[:, u], P[:, v], P[:, axis] = U.ravel(), V.ravel(), sign * half[axis]
            pts.append(P)
            wts.append(np.full(U.size, size[u] * size[v] / U.size))
    return _relax(np.concatenate(pts), np.concatenate(wts), n, _box_project(half))


def _round_project(radius: float, half_length: float, caps: str):
    """Projection onto a capsule (caps='sphere') or a cylinder (caps='flat')
    of axis Gz."""
    r, L = radius, half_length

    def project(p):
        p = np.array(p, dtype=float)
        rho = np.hypot(p[:, 0], p[:, 1])
        radial = np.zeros_like(p)
        ok = rho > 1e-300
        radial[ok, 0] = p[ok, 0] / rho[ok]
        radial[ok, 1] = p[ok, 1] / rho[ok]
        radial[~ok, 0] = 1.0
        if caps == "sphere":
            c = np.zeros_like(p)
            c[:, 2] = np.clip(p[:, 2], -L, L)
            d = p - c
            dn = np.linalg.norm(d, axis=1)
            nhat = np.where((dn > 1e-300)[:, None], d / np.where(dn > 1e-300, dn, 1.0)[:, None],
                            radial)
            return c + r * nhat, nhat
        z = np.clip(p[:, 2], -L, L)
        inside = (rho <= r) & (np.abs(p[:, 2]) <= L)
        to_side = r - np.minimum(rho, r)
        to_cap = L - np.abs(z)
        on_side = np.where(inside, to_side <= to_cap, rho > r)
        q = np.empty_like(p)
        nhat = np.zeros_like(p)
        # side
        q[:, 0:2] = radial[:, 0:2] * r
        q[:, 2] = z
        nhat[:, 0:2] = radial[:, 0:2]
        # caps (points outside radially beyond r but within |z|≤L go to the side)
        cap = ~on_side
        sgn = np.where(p[cap, 2] >= 0.0, 1.0, -1.0)
        scale_xy = np.minimum(rho[cap], r)
        q[cap, 0] = radial[cap, 0] * scale_xy
        q[cap, 1] = radial[cap, 1] * scale_xy
        q[cap, 2] = sgn * L
        nhat[cap] = 0.0
        nhat[cap, 2] = sgn
        return q, nhat
    return project


def _side_samples(r: float, L: float, h: float):
    """Cell-centred (θ, z) grid on the lateral surface of radius r, |z| ≤ L."""
    nt = max(3, math.ceil(2.0 * math.pi * r / h))
    nz = max(1, math.ceil(2.0 * L / h)) if L > 0.0 else 0
    th = (np.arange(nt) + 0.5) * (2.0 * math.pi / nt)
    z = (np.arange(nz) + 0.5) / max(nz, 1) * 2.0 * L - L
    T, Z = np.meshgrid(th, z, indexing="ij")
    P = np.column_stack([r * np.cos(T.ravel()), r * np.sin(T.ravel()), Z.ravel()])
    w = np.full(len(P), 2.0 * math.pi * r * 2.0 * L / max(len(P), 1))
    return P, w


def _round_samples(r: float, L: float, scale: float, cap_area: float):
    """(n, h, side samples, side weights) of a capsule or cylinder of radius
    r and half length L whose two ends have `cap_area` together [m²]."""
    area = cap_area + 2.0 * math.pi * r * 2.0 * L
    n = points_count(area, _checked_scale(scale))
    h = math.sqrt(area / _samples(area, n))
    return (n, h) + _side_samples(r, L, h)


def capsule_points(radius: float, length: float, scale: float):
    """(p_GS, n_G) on a capsule of `radius` and cylinder `length` [m] along
    Gz, centred at G's origin."""
    r, L = float(radius), float(length) / 2.0
    n, h, side, w_side = _round_samples(r, L, scale, 4.0 * math.pi * r * r)
    m_sph = max(8, int(round(4.0 * math.pi * r * r / (h * h))))
    u = _fibonacci_sphere(m_sph)
    caps = r * u
    caps[:, 2] += np.where(u[:, 2] >= 0.0, L, -L)
    w_caps = np.full(m_sph, 4.0 * math.pi * r * r / m_sph)
    return _relax(np.concatenate([side, caps]), np.concatenate([w_side, w_caps]), n,
                  _round_project(r, L, "sphere"))


def cylinder_points(radius: float, length: float, scale: float):
    """(p_GS, n_G) on a cylinder of `radius` and `length` [m] along Gz,
    centred at G's origin; side and both caps, rims shared."""
    r, L = float(radius), float(length) / 2.0
    n, h, side, w_side = _round_samples(r, L, scale, 2.0 * math.pi * r * r)
    m_cap = max(8, int(round(math.pi * r * r / (h * h))))
    k = np.arange(m_cap) + 0.5
    rho = r * np.sqrt(k / m_cap)                     # Vogel's sunflower: equal areas
    phi = k * (math.pi * (3.0 - math.sqrt(5.0)))
    disk = np.column_stack([rho * np.cos(phi), rho * np.sin(phi), np.zeros(m_cap)])
    top, bottom = disk.copy(), disk.copy()
    top[:, 2], bottom[:, 2] = L, -L
    w_cap = np.full(2 * m_cap, math.pi * r * r / m_cap)
    return _relax(np.concatenate([side, top, bottom]), np.concatenate([w_side, w_cap]), n,
                  _round_project(r, L, "flat"))


def _ellipsoid_project(abc: np.ndarray):
    def project(p):
        t = 1.0 / np.sqrt(((p / abc) ** 2).sum(axis=1))
        q = p * t[:, None]
        return q, _normalized(q / (abc * abc))
    return project


def ellipsoid_points(a: float, b: float, c: float, scale: float):
    """(p_GS, n_G) on an ellipsoid of semi-axes a, b, c [m] along Gx, Gy,
    Gz, centred at G's origin."""
    s = _checked_scale(scale)
    abc = np.array([a, b, c], dtype=float)
    # Area-weighted samples: Fibonacci directions u mapped to (a u1, b u2, c u3);
    # the area element grows by √((bc u1)² + (ac u2)² + (ab u3)²).
    jac = lambda u: np.sqrt(((u * abc[[1, 0, 0]] * abc[[2, 2, 1]]) ** 2).sum(axis=1))  # noqa
    m0 = 20000
    u0 = _fibonacci_sphere(m0)
    area = float(jac(u0).sum() * 4.0 * math.pi / m0)
    n = points_count(area, s)
    M = max(m0, _samples(area, n))
    u = u0 if M == m0 else _fibonacci_sphere(M)
    weights = jac(u) * (4.0 * math.pi / M)
    return _relax(u * abc, weights, n, _ellipsoid_project(abc))


def mesh_points(vertices, faces, scale: float):
    """(p_GS, n_G) on the triangle mesh (vertices (V, 3) in G [m], faces
    (F, 3) int); a closed mesh's normals point outward whatever its winding.
    Points lie on the triangles (the closest point of the mesh)."""
    from scenegraph.proximity.mesh_distance import load_mesh_bvh

    s = _checked_scale(scale)
    bvh = load_mesh_bvh((np.asarray(vertices, dtype=float), np.asarray(faces, dtype=np.int64)))
    A, B, C = bvh.tri_a, bvh.tri_b, bvh.tri_c
    tri_area = 0.5 * np.linalg.norm(np.cross(B - A, C - A), axis=1)
    area = float(tri_area.sum())
    n = points_count(area, s)
    M = _samples(area, n)
    per = np.maximum(1, np.round(tri_area / (area / M))).astype(np.int64)
    owner = np.repeat(np.arange(len(tri_area)), per)
    rng = np.random.default_rng(_SEED)
    r1, r2 = rng.random(len(owner)), rng.random(len(owner))
    sq = np.sqrt(r1)
    wa, wb, wc = 1.0 - sq, sq * (1.0 - r2), sq * r2
    P = wa[:, None] * A[owner] + wb[:, None] * B[owner] + wc[:, None] * C[owner]
    weights = (tri_area / per)[owner]
    nrm = bvh.face_normals

    def project(p):
        _, q, tri, _ = bvh.closest_points(np.ascontiguousarray(p, dtype=float))
        return np.array(q), np.array(nrm[tri])

    return _relax(P, weights, n, project)


# --------------------------------------------------------------- dispatch


def _mesh_triangles(shape):
    """(vertices, faces) of a Mesh's triangles or of a Convex's hull, in G."""
    from scenegraph.proximity.convex_hull import convex_hull

    faces = shape.mesh_faces() if isinstance(shape, Mesh) else None
    if faces is not None:
        return shape.mesh_vertices(), faces
    hull = convex_hull(shape.mesh_vertices())
    return hull.vertices, hull.faces


def surface_points(shape, scale: float):
    """Sensor points on the surface of `shape` (Sphere, Box, Capsule,
    Cylinder, Ellipsoid, Convex or Mesh) at spacing `scale` [m].

    Returns:
      p_GS: (N, 3) points on the surface, in the shape's frame G [m].
      n_G: (N, 3) outward unit normals at those points, in G.
    Raises:
      TypeError: an unsupported shape (HalfSpace, MeshcatCone, ...) or a
        non-numeric scale; ValueError: scale not positive and finite.
    """
    s = _checked_scale(scale)
    if isinstance(shape, Sphere):
        return sphere_points(shape.radius(), s)
    if isinstance(shape, Box):
        return box_points(shape.width(), shape.depth(), shape.height(), s)
    if isinstance(shape, Capsule):
        return capsule_points(shape.radius(), shape.length(), s)
    if isinstance(shape, Cylinder):
        return cylinder_points(shape.radius(), shape.length(), s)
    if isinstance(shape, Ellipsoid):
        return ellipsoid_points(shape.a(), shape.b(), shape.c(), s)
    if isinstance(shape, (Mesh, Convex)):
        V, F = _mesh_triangles(shape)
        return mesh_points(V, F, s)
    raise TypeError(f"surface_points: no sensor points for a {type(shape).__name__} "
                    f"(supported: Sphere, Box, Capsule, Cylinder, Ellipsoid, Convex, Mesh)")


def surface_area(shape) -> float:
    """The surface area of `shape` [m²] (closed form; Ellipsoid by
    quadrature; Mesh/Convex summed over triangles)."""
    if isinstance(shape, Sphere):
        return 4.0 * math.pi * shape.radius() ** 2
    if isinstance(shape, Box):
        w, d, h = shape.width(), shape.depth(), shape.height()
        return 2.0 * (w * d + d * h + w * h)
    if isinstance(shape, Capsule):
        r, L = shape.radius(), shape.length()
        return 4.0 * math.pi * r * r + 2.0 * math.pi * r * L
    if isinstance(shape, Cylinder):
        r, L = shape.radius(), shape.length()
        return 2.0 * math.pi * r * r + 2.0 * math.pi * r * L
    if isinstance(shape, Ellipsoid):
        abc = np.array([shape.a(), shape.b(), shape.c()])
        u = _fibonacci_sphere(200000)
        jac = np.sqrt(((u * abc[[1, 0, 0]] * abc[[2, 2, 1]]) ** 2).sum(axis=1))
        return float(jac.mean() * 4.0 * math.pi)
    if isinstance(shape, (Mesh, Convex)):
        V, F = _mesh_triangles(shape)
        V, F = np.asarray(V, float), np.asarray(F, np.int64)
        A, B, C = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
        return float(0.5 * np.linalg.norm(np.cross(B - A, C - A), axis=1).sum())
    raise TypeError(f"surface_area: unsupported shape {type(shape).__name__}")
