"""Tetrahedral volume meshes and triangle surface meshes for hydroelastic shapes.

Every mesh is expressed in the shape's canonical frame G [m]. The schemes
follow Drake's so that vertex/element counts (and hence contact results) match:

- Sphere / Ellipsoid: an octahedron (6 surface vertices + centre, 8 tets)
  refined L times by splitting each surface triangle in four, pushing the new
  edge midpoints onto the unit sphere, every tet keeping the single interior
  vertex: 8·4ᴸ tets, 4ᴸ⁺¹+3 vertices. L = ⌈log₂(π / asin(h/2r))⌉ − 2
  (clamped to [0, 8], h ≤ 2r), so chords on the equator are at most h.
  Ellipsoid: the unit-sphere mesh for h / max(a, b, c), scaled by (a, b, c).
- Box: a tessellation that respects the medial axis (MA) and splits every box
  face into four triangles about its centre (the resolution hint is ignored):
  cube 24 tets, two equal short sides 40 tets, otherwise 44 tets.
- Cylinder: n = ⌈2πr/h⌉ rim vertices per circle, tets respecting the MA
  (a segment for long cylinders, a disk for short ones, a point otherwise).
- Capsule: n = clamp(2πr/h, 3, 706) (truncated) longitudes, ⌊n/2⌋ latitude
  circles per cap, pyramids/prisms/wedges to the two medial-axis end points.
- Convex: the convex hull, coned from the centroid of its enclosed volume.
Rigid surfaces are the boundaries of these volume meshes (a Box: 14 vertices,
24 triangles).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.hydroelastic.volume_mesh import ConvertVolumeToSurfaceMesh, VolumeMesh, \
    signed_tet_volumes


def _orient_positive(p_MV: np.ndarray, tets: np.ndarray) -> np.ndarray:
    """Reorders tets with negative signed volume so that all are positive (Drake's convention)."""
    tets = np.array(tets, dtype=np.int64).reshape(-1, 4)
    neg = signed_tet_volumes(p_MV, tets) < 0
    tets[neg] = tets[neg][:, [0, 2, 1, 3]]
    return tets


def _quad_to_triangles(q) -> list:
    """Two triangles for the quad q (cyclic), split on the diagonal through its smallest index.

    The rule depends only on the quad's vertex set, so two cells sharing the
    quad split it the same way (a conforming tessellation).
    """
    k = int(np.argmin(q))
    a, b, c, d = (q[(k + i) % 4] for i in range(4))
    return [(a, b, c), (a, c, d)]


def _split_hexahedron(v) -> list:
    """Tets of a (possibly degenerate) hexahedron v = (bottom quad v0..v3, top quad v4..v7).

    The tets fan around the diagonal v0–v6: one per consecutive pair of the
    cycle v1, v2, v3, v7, v4, v5 (Drake's scheme). Tets with a repeated
    vertex are skipped, so collapsed hexahedra (prisms, pyramids) give 3 or 2.
    """
    cycle = [v[1], v[2], v[3], v[7], v[4], v[5]]
    tets = []
    for a, b in zip(cycle, cycle[1:] + cycle[:1]):
        t = (a, b, v[0], v[6])
        if len(set(t)) == 4:
            tets.append(t)
    return tets


def _split_pyramid(b0, b1, b2, b3, apex) -> list:
    """Two tets of the pyramid on base quad (b0, b1, b2, b3), split on the diagonal b0–b2."""
    return [(b0, b1, b2, apex), (b0, b2, b3, apex)]


def _split_prism(v0, v1, v2, v3, v4, v5) -> list:
    """Three tets of the triangular prism (v0, v1, v2 | v3, v4, v5) sharing the edge v0–v5."""
    return [(v3, v4, v0, v5), (v4, v1, v0, v5), (v1, v2, v0, v5)]


# --- Sphere and ellipsoid ------------------------------------------------------------------
def sphere_refinement_level(radius: float, resolution_hint: float) -> int:
    """Drake's refinement level L for a sphere of `radius` [m] at `resolution_hint` [m]."""
    edge = min(resolution_hint, 2.0 * radius)
    L = math.ceil(math.log2(math.pi / math.asin(edge / (2.0 * radius)))) - 2
    return min(max(0, L), 8)


def make_unit_sphere_volume_mesh(level: int) -> VolumeMesh:
    """The unit sphere with one interior vertex (index 0, the centre): 8·4ᴸ tets."""
    p = [np.zeros(3), *np.vstack([np.eye(3), -np.eye(3)])[[0, 1, 3, 4, 2, 5]]]
    # Vertices: 0 centre, 1 +x, 2 +y, 3 -x, 4 -y, 5 +z, 6 -z.
    p_MV = np.array(p)
    tris = np.array([[1, 5, 2], [2, 5, 3], [3, 5, 4], [4, 5, 1],
                     [2, 6, 1], [3, 6, 2], [4, 6, 3], [1, 6, 4]], dtype=np.int64)
    for _ in range(level):
        # Edges (a,b), (a,c), (b,c) of every surface triangle, split once each.
        edges = np.concatenate([tris[:, [0, 1]], tris[:, [0, 2]], tris[:, [1, 2]]], axis=0)
        keys = np.sort(edges, axis=1)
        uniq, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")          # number new vertices by first use
        rank = np.empty_like(order)
        rank[order] = np.arange(order.shape[0])
        mid = p_MV[uniq[order, 0]] + p_MV[uniq[order, 1]]
        mid /= np.linalg.norm(mid, axis=1, keepdims=True)
        new_index = p_MV.shape[0] + rank[inverse.reshape(-1)]
        T = tris.shape[0]
        e_ab, f_ac, d_bc = new_index[:T], new_index[T:2 * T], new_index[2 * T:]
        a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
        tris = np.stack([np.stack([a, e_ab, f_ac], 1), np.stack([b, d_bc, e_ab], 1),
                         np.stack([c, f_ac, d_bc], 1), np.stack([e_ab, d_bc, f_ac], 1)],
                        axis=1).reshape(-1, 3)
        p_MV = np.vstack([p_MV, mid])
    tets = np.hstack([tris, np.zeros((tris.shape[0], 1), dtype=np.int64)])
    return VolumeMesh(tets, p_MV)


def make_sphere_volume_mesh(radius: float, resolution_hint: float) -> VolumeMesh:
    """Volume mesh of a sphere of `radius` [m] in its frame; centre is vertex 0."""
    unit = make_unit_sphere_volume_mesh(sphere_refinement_level(radius, resolution_hint))
    return VolumeMesh(unit.tetrahedra_array(), unit.vertices_array() * radius)


def make_ellipsoid_volume_mesh(a: float, b: float, c: float, resolution_hint: float) -> VolumeMesh:
    """Volume mesh of the ellipsoid with semi-axes (a, b, c) [m]; centre is vertex 0."""
    r = max(a, b, c)
    unit = make_unit_sphere_volume_mesh(sphere_refinement_level(1.0, resolution_hint / r))
    return VolumeMesh(unit.tetrahedra_array(), unit.vertices_array() * np.array([a, b, c]))


# --- Box -------------------------------------------------------------------------------------
def make_box_volume_mesh(width: float, depth: float, height: float) -> VolumeMesh:
    """Medial-axis box tessellation with four triangles per face (15, 17 or 18 vertices).

    The box is partitioned into the six regions closest to each face (bounded
    by the medial axis); each region is coned from its face centre over its
    other boundary faces. Quads are split by `_quad_to_triangles`; when the MA
    is a segment its midpoint (the box centre) is a vertex and the hip-roof
    trapezoids become three triangles about it.
    """
    h = np.array([width, depth, height], dtype=float) / 2.0
    m = h.min()
    c = h - m
    c[c <= 1e-14 * max(1.0, m)] = 0.0
    verts: list = []
    index: dict = {}

    def vid(p) -> int:
        key = tuple(float(x) for x in p)
        if key not in index:
            index[key] = len(verts)
            verts.append(np.array(key))
        return index[key]

    signs = [(i, j, k) for i in (-1, 1) for j in (-1, 1) for k in (-1, 1)]
    corner = {s: vid(np.array(s) * h) for s in signs}
    medial = {s: vid(np.array(s) * c) for s in signs}
    line_ma = int(np.count_nonzero(c)) == 1
    center = vid(np.zeros(3)) if line_ma else None
    tets = []
    for axis in range(3):
        u, w = [k for k in range(3) if k != axis]
        for sign in (-1, 1):
            s_face = []
            for su, sw in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                s = [0, 0, 0]
                s[axis], s[u], s[w] = sign, su, sw
                s_face.append(tuple(s))
            face_center = np.zeros(3)
            face_center[axis] = sign * h[axis]
            fc = vid(face_center)
            V = [corner[s] for s in s_face]
            M = [medial[s] for s in s_face]
            triangles = []
            if len(set(M)) == 4:                       # the MA rectangle is this region's top
                triangles += _quad_to_triangles(M)
            for i in range(4):
                j = (i + 1) % 4
                if M[i] == M[j]:
                    triangles.append((V[i], V[j], M[i]))
                elif line_ma:                          # trapezoid with the box centre on its MA edge
                    triangles += [(V[i], V[j], center), (V[j], M[j], center), (center, M[i], V[i])]
                else:
                    triangles += _quad_to_triangles([V[i], V[j], M[j], M[i]])
            tets += [(a, b, cc, fc) for a, b, cc in triangles]
    p_MV = np.array(verts)
    return VolumeMesh(_orient_positive(p_MV, tets), p_MV)


# --- Cylinder ----------------------------------------------------------------------------------
def make_cylinder_volume_mesh(radius: float, length: float, resolution_hint: float) -> VolumeMesh:
    """Medial-axis cylinder tessellation (axis along z), n = ⌈2πr/h⌉ rim vertices per circle.

    Long (half-length > r): MA segment, 5n tets; short (half-length < r): MA
    disk, 9n tets; otherwise a single MA point, 4n tets.
    """
    hz = length / 2.0
    shorter = min(hz, radius)
    tol = 1e-14 * max(1.0, shorter)
    kind = "long" if hz - radius > tol else ("short" if radius - hz > tol else "medium")
    n = int(math.ceil(2.0 * math.pi * radius / resolution_hint))
    verts = [np.array([0.0, 0.0, -hz]), np.array([0.0, 0.0, hz])]
    cv = (0, 1)
    v0, v1 = [], []
    step = 2.0 * math.pi / n
    for i in range(n):
        x, y = radius * math.cos(step * i), radius * math.sin(step * i)
        v0.append(len(verts))
        verts.append(np.array([x, y, -hz]))
        v1.append(len(verts))
        verts.append(np.array([x, y, hz]))
    offset_z = hz - shorter
    cm0 = len(verts)
    verts.append(np.array([0.0, 0.0, -offset_z]))
    cm1 = cm0
    if kind == "long":
        cm1 = len(verts)
        verts.append(np.array([0.0, 0.0, offset_z]))
    # Medial-axis partner of each rim vertex: the segment end (long), a point of the
    # MA disk's rim (short) or the single MA point (medium).
    m0, m1 = [cm0] * n, [cm1] * n
    if kind == "short":
        scale = (radius - shorter) / radius
        for i in range(n):
            m0[i] = m1[i] = len(verts)
            verts.append(np.array([verts[v0[i]][0] * scale, verts[v0[i]][1] * scale, 0.0]))
    tets = []
    for j in range(n):
        i = (j - 1) % n
        tets += _split_hexahedron((m0[j], m1[j], m1[i], m0[i], v0[j], v1[j], v1[i], v0[i]))
        tets += _split_hexahedron((m0[j], v0[j], v0[i], m0[i], cm0, cv[0], cv[0], cm0))
        tets += _split_hexahedron((m1[j], m1[i], v1[i], v1[j], cm1, cm1, cv[1], cv[1]))
    p_MV = np.array(verts)
    return VolumeMesh(_orient_positive(p_MV, tets), p_MV)


# --- Capsule -----------------------------------------------------------------------------------
def make_capsule_volume_mesh(radius: float, length: float, resolution_hint: float) -> VolumeMesh:
    """Capsule (axis z, `length` of the cylindrical part) meshed to its medial-axis end points.

    Vertices 0 and 1 are the MA end points (+z, −z); 2 and 3 the poles. With
    n longitudes and k = ⌊n/2⌋ latitude circles per cap there are 2nk + 4
    vertices and 4n(k − 1) + 5n tets.
    """
    n = int(min(max(2.0 * math.pi * radius / resolution_hint, 3.0), 706.0))
    k = n // 2
    zt = length / 2.0
    verts = [np.array([0.0, 0.0, zt]), np.array([0.0, 0.0, -zt]),
             np.array([0.0, 0.0, zt + radius]), np.array([0.0, 0.0, -zt - radius])]
    mt, mb, top, bottom = 0, 1, 2, 3
    top_cap = np.zeros((k, n), dtype=np.int64)
    bot_cap = np.zeros((k, n), dtype=np.int64)
    theta_step, phi_step = (math.pi / 2.0) / k, 2.0 * math.pi / n
    for i in range(k):
        theta = math.pi / 2.0 - i * theta_step
        s, zc = math.sin(theta), radius * math.cos(theta) + zt
        for j in range(n):
            x, y = radius * s * math.cos(j * phi_step), radius * s * math.sin(j * phi_step)
            top_cap[i, j] = len(verts)
            verts.append(np.array([x, y, zc]))
            bot_cap[i, j] = len(verts)
            verts.append(np.array([x, y, -zc]))
    tets = []
    for i in range(k - 1):
        for j in range(n):
            j1 = (j + 1) % n
            tets += _split_pyramid(top_cap[i + 1, j], top_cap[i + 1, j1], top_cap[i, j1],
                                   top_cap[i, j], mt)
            tets += _split_pyramid(bot_cap[i, j], bot_cap[i, j1], bot_cap[i + 1, j1],
                                   bot_cap[i + 1, j], mb)
    for j in range(n):
        j1 = (j + 1) % n
        tets.append((top, top_cap[k - 1, j1], top_cap[k - 1, j], mt))
        tets.append((bottom, bot_cap[k - 1, j], bot_cap[k - 1, j1], mb))
        tets += _split_prism(mb, bot_cap[0, j], bot_cap[0, j1], mt, top_cap[0, j], top_cap[0, j1])
    p_MV = np.array(verts)
    return VolumeMesh(_orient_positive(p_MV, tets), p_MV)


# --- Convex ------------------------------------------------------------------------------------
def convex_hull_triangles(points: np.ndarray):
    """(hull vertex positions (H, 3), outward triangles (F, 3) into them) of a point set [m]."""
    from scipy.spatial import ConvexHull

    pts = np.asarray(points, dtype=float).reshape(-1, 3)
    try:
        hull = ConvexHull(pts)
    except Exception as err:  # qhull raises for flat or too few points
        raise ValueError(f"cannot build a convex hull of {pts.shape[0]} points: it has no volume "
                         f"({type(err).__name__})") from None
    used = np.unique(hull.simplices)
    remap = np.full(pts.shape[0], -1, dtype=np.int64)
    remap[used] = np.arange(used.shape[0])
    tris = remap[hull.simplices]
    p_HV = pts[used]
    # Orient each facet outward: its normal must point away from the hull's interior.
    inside = p_HV.mean(axis=0)
    a, b, c = p_HV[tris[:, 0]], p_HV[tris[:, 1]], p_HV[tris[:, 2]]
    flip = np.einsum("ij,ij->i", np.cross(b - a, c - a), a - inside) < 0
    tris[flip] = tris[flip][:, [0, 2, 1]]
    return p_HV, tris


def volume_centroid(p_MV: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """(3,) centroid of the volume enclosed by a closed, outward-oriented triangle surface [m]."""
    a, b, c = p_MV[tris[:, 0]], p_MV[tris[:, 1]], p_MV[tris[:, 2]]
    six_vol = np.einsum("ij,ij->i", np.cross(a, b), c)
    return (six_vol @ (a + b + c)) / (4.0 * six_vol.sum())


def make_convex_volume_mesh(points) -> VolumeMesh:
    """The convex hull of `points` (N, 3) [m], coned from its volume centroid (the last vertex)."""
    p_HV, tris = convex_hull_triangles(points)
    centroid = volume_centroid(p_HV, tris)
    p_MV = np.vstack([p_HV, centroid])
    C = p_HV.shape[0]
    tets = np.hstack([np.full((tris.shape[0], 1), C, dtype=np.int64), tris])
    return VolumeMesh(_orient_positive(p_MV, tets), p_MV)


# --- Rigid surfaces ---------------------------------------------------------------------------
def make_sphere_surface_mesh(radius: float, resolution_hint: float):
    return ConvertVolumeToSurfaceMesh(make_sphere_volume_mesh(radius, resolution_hint))


def make_ellipsoid_surface_mesh(a: float, b: float, c: float, resolution_hint: float):
    return ConvertVolumeToSurfaceMesh(make_ellipsoid_volume_mesh(a, b, c, resolution_hint))


def make_box_surface_mesh(width: float, depth: float, height: float):
    """14 vertices, 24 triangles: each face split in four about its centre."""
    return ConvertVolumeToSurfaceMesh(make_box_volume_mesh(width, depth, height))


def make_cylinder_surface_mesh(radius: float, length: float, resolution_hint: float):
    return ConvertVolumeToSurfaceMesh(make_cylinder_volume_mesh(radius, length, resolution_hint))


def make_capsule_surface_mesh(radius: float, length: float, resolution_hint: float):
    return ConvertVolumeToSurfaceMesh(make_capsule_volume_mesh(radius, length, resolution_hint))


def make_convex_surface_mesh(points):
    from scenegraph.hydroelastic.surface_mesh import TriangleSurfaceMesh

    p_HV, tris = convex_hull_triangles(points)
    return TriangleSurfaceMesh._from_arrays(tris, p_HV)
