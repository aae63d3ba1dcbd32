"""Pressure fields p = E·e on compliant volume meshes (Drake's definitions).

E is the hydroelastic modulus [Pa]; the extent e ∈ [0, 1] is 0 on the surface
and rises to 1 inside. Each function returns a VolumeMeshFieldLinear [Pa] on
the given mesh (expressed in the shape's frame G), interpolating per-vertex
values:

- Sphere: e = 1 − |p_GV|/R; Ellipsoid: e = 1 − |p_GV ⊘ (a, b, c)| (values
  within 1e-14 of zero snap to zero).
- Box: e = φ/min(half sizes), φ the distance to the box surface (exactly
  linear inside each medial-axis region of the mesh).
- Cylinder: e = min(φ/min(r, L/2), 1), boundary vertices exactly 0.
- Capsule: E at the two medial-axis end points (vertices 0 and 1), 0 elsewhere.
- Convex: E at the interior centroid vertex (the last one), 0 elsewhere.
- A general tetrahedral mesh (.vtk): e = d/max(d), d each vertex's distance
  to the mesh's boundary surface.

With a margin δ > 0 [m] (Drake's hydroelastic "margin") the mesh is of the
shape inflated by δ and the field is redefined so that its zero level set is
the original surface: the extent is the scaled depth below the original
surface, negative in the δ-thick outer layer. The sphere, box, cylinder,
capsule and ellipsoid functions take `margin` and expect the inflated mesh
(and, where they take sizes, the inflated sizes), as Drake's do.
"""
from __future__ import annotations

import numpy as np

from scenegraph.hydroelastic.mesh_field import VolumeMeshFieldLinear
from scenegraph.hydroelastic.volume_mesh import VolumeMesh, boundary_faces

_EXTENT_EPS = 1e-14


def _field(mesh: VolumeMesh, extent: np.ndarray, E: float) -> VolumeMeshFieldLinear:
    return VolumeMeshFieldLinear(E * extent, mesh)


def make_sphere_pressure_field(mesh: VolumeMesh, radius: float, E: float,
                               margin: float = 0.0) -> VolumeMeshFieldLinear:
    """p = E·e [Pa] at each vertex of a sphere mesh of `radius` [m].

    margin 0: e = 1 − |p_GV|/radius (|e| < 1e-14 snaps to 0). margin δ > 0
    (radius is the inflated R + δ): e = (radius − |p_GV| − δ)/(radius − δ), i.e.
    1 − |p_GV|/R, and vertices on the inflated surface get exactly −δ/R.
    """
    r = np.linalg.norm(mesh.vertices_array(), axis=1)
    if margin == 0.0:
        e = 1.0 - r / radius
        e[np.abs(e) < _EXTENT_EPS] = 0.0
        return _field(mesh, e, E)
    distance = radius - r
    e = (distance - margin) / (radius - margin)
    e[np.abs(distance / radius) < _EXTENT_EPS] = -margin / (radius - margin)
    return _field(mesh, e, E)


def make_ellipsoid_pressure_field(mesh: VolumeMesh, a: float, b: float, c: float,
                                  E: float, margin: float = 0.0) -> VolumeMeshFieldLinear:
    """p = E·(1 − |p_GV ⊘ (a − δ, b − δ, c − δ)|) [Pa]: the unit-sphere extent mapped onto the
    ellipsoid with semi-axes (a, b, c) (inflated by δ = margin); with no margin,
    values below 1e-14 snap to zero."""
    e = 1.0 - np.linalg.norm(mesh.vertices_array() / (np.array([a, b, c]) - margin), axis=1)
    if margin == 0.0:
        e[e < _EXTENT_EPS] = 0.0
    return _field(mesh, e, E)


def make_box_pressure_field(mesh: VolumeMesh, size, E: float,
                            margin: float = 0.0) -> VolumeMeshFieldLinear:
    """p = E·(φ − δ)/(min(half size) − δ) [Pa], φ the depth below the surface of the box of
    full sizes `size` (3,) [m] (inflated by δ = margin)."""
    h = np.asarray(size, dtype=float) / 2.0
    phi = np.maximum((h[None, :] - np.abs(mesh.vertices_array())).min(axis=1), 0.0)
    return _field(mesh, (phi - margin) / (h.min() - margin), E)


def make_cylinder_pressure_field(mesh: VolumeMesh, radius: float, length: float,
                                 E: float, margin: float = 0.0) -> VolumeMeshFieldLinear:
    """p = E·min((φ − δ)/(min(r, L/2) − δ), 1) [Pa], φ the depth below the surface of the
    cylinder (r, L) (inflated by δ = margin); boundary vertices get exactly
    −E·δ/(min(r, L/2) − δ) (0 without margin)."""
    p = mesh.vertices_array()
    rho = np.hypot(p[:, 0], p[:, 1])
    phi = np.minimum(radius - rho, length / 2.0 - np.abs(p[:, 2]))
    m = min(radius, length / 2.0)
    e = np.minimum((phi - margin) / (m - margin), 1.0)
    if margin == 0.0:
        e = np.maximum(e, 0.0)
    e[np.unique(boundary_faces(p, mesh.tetrahedra_array()))] = \
        -margin / (m - margin) if margin > 0.0 else 0.0
    return _field(mesh, e, E)


def make_capsule_pressure_field(mesh: VolumeMesh, E: float, radius: float = 1.0,
                                margin: float = 0.0) -> VolumeMeshFieldLinear:
    """E at vertices 0 and 1 (the medial-axis end points of make_capsule_volume_mesh), and on
    every other (surface) vertex of the capsule of `radius` (inflated by δ = margin) the
    linear extrapolation −E·δ/(radius − δ) (0 without margin)."""
    e = np.full(mesh.num_vertices(), -margin / (radius - margin) if margin > 0.0 else 0.0)
    e[:2] = 1.0
    return _field(mesh, e, E)


def make_convex_pressure_field(mesh: VolumeMesh, E: float) -> VolumeMeshFieldLinear:
    """E at the last vertex (the interior centroid of make_convex_volume_mesh), else 0."""
    e = np.zeros(mesh.num_vertices())
    e[-1] = 1.0
    return _field(mesh, e, E)


def point_triangle_distances(p_Q: np.ndarray, tri_p: np.ndarray) -> np.ndarray:
    """(N, F) unsigned distances from points p_Q (N, 3) to triangles tri_p (F, 3, 3) [m]."""
    a, b, c = tri_p[None, :, 0], tri_p[None, :, 1], tri_p[None, :, 2]
    p = p_Q[:, None, :]
    ab, ac, ap = b - a, c - a, p - a
    d1, d2 = (ab * ap).sum(-1), (ac * ap).sum(-1)
    bp = p - b
    d3, d4 = (ab * bp).sum(-1), (ac * bp).sum(-1)
    cp = p - c
    d5, d6 = (ab * cp).sum(-1), (ac * cp).sum(-1)
    va = d3 * d6 - d5 * d4
    vb = d5 * d2 - d1 * d6
    vc = d1 * d4 - d3 * d2
    with np.errstate(invalid="ignore", divide="ignore"):
        denom = va + vb + vc
        v = np.where(denom != 0, vb / denom, 0.0)
        w = np.where(denom != 0, vc / denom, 0.0)
        closest = a + ab * v[..., None] + ac * w[..., None]          # interior
        t_ab = np.clip(np.where(d1 - d3 != 0, d1 / (d1 - d3), 0.0), 0, 1)
        t_ac = np.clip(np.where(d2 - d6 != 0, d2 / (d2 - d6), 0.0), 0, 1)
        t_bc = np.clip(np.where((d4 - d3) + (d5 - d6) != 0,
                                (d4 - d3) / ((d4 - d3) + (d5 - d6)), 0.0), 0, 1)
    on_ab = (vc <= 0) & (d1 >= 0) & (d3 <= 0)
    on_ac = (vb <= 0) & (d2 >= 0) & (d6 <= 0)
    on_bc = (va <= 0) & (d4 - d3 >= 0) & (d5 - d6 >= 0)
    closest = np.where(on_bc[..., None], b + (c - b) * t_bc[..., None], closest)
    closest = np.where(on_ac[..., None], a + ac * t_ac[..., None], closest)
    closest = np.where(on_ab[..., None], a + ab * t_ab[..., None], closest)
    closest = np.where(((d6 >= 0) & (d5 <= d6))[..., None], c, closest)
    closest = np.where(((d3 >= 0) & (d4 <= d3))[..., None], b, closest)
    closest = np.where(((d1 <= 0) & (d2 <= 0))[..., None], a, closest)
    return np.linalg.norm(p - closest, axis=-1)


def make_volume_mesh_pressure_field(mesh: VolumeMesh, E: float) -> VolumeMeshFieldLinear:
    """p = E·d/max(d) [Pa], d the distance from each vertex to the mesh's boundary surface.

    Raises ValueError if no vertex is strictly inside (the mesh has no interior vertex).
    """
    p = mesh.vertices_array()
    faces = boundary_faces(p, mesh.tetrahedra_array())
    tri_p = p[faces]
    d = np.empty(p.shape[0])
    chunk = max(1, 2_000_000 // max(1, faces.shape[0]))
    for s in range(0, p.shape[0], chunk):
        d[s:s + chunk] = point_triangle_distances(p[s:s + chunk], tri_p).min(axis=1)
    d[np.unique(faces)] = 0.0
    if d.max() <= 0.0:
        raise ValueError("the computed maximum distance to the boundary among all mesh vertices is "
                         "non-positive: the tetrahedral mesh has no interior vertex")
    return _field(mesh, d / d.max(), E)
