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
"""
from __future__ import annotations

import numpy as np

from scenegraph.hydroelastic.mesh_field import VolumeMeshFieldLinear
from scenegraph.hydroelastic.volume_mesh import VolumeMesh, boundary_faces

_EXTENT_EPS = 1e-14


def _field(mesh: VolumeMesh, extent: np.ndarray, E: float) -> VolumeMeshFieldLinear:
    return VolumeMeshFieldLinear(E * extent, mesh)


def make_sphere_pressure_field(mesh: VolumeMesh, radius: float, E: float) -> VolumeMeshFieldLinear:
    """p = E·(1 − |p_GV|/radius) [Pa] at each vertex of a sphere mesh."""
    e = 1.0 - np.linalg.norm(mesh.vertices_array(), axis=1) / radius
    e[np.abs(e) < _EXTENT_EPS] = 0.0
    return _field(mesh, e, E)


def make_ellipsoid_pressure_field(mesh: VolumeMesh, a: float, b: float, c: float,
                                  E: float) -> VolumeMeshFieldLinear:
    """p = E·(1 − |p_GV ⊘ (a, b, c)|) [Pa]: the unit-sphere extent mapped onto the ellipsoid."""
    e = 1.0 - np.linalg.norm(mesh.vertices_array() / np.array([a, b, c]), axis=1)
    e[e < _EXTENT_EPS] = 0.0
    return _field(mesh, e, E)


def make_box_pressure_field(mesh: VolumeMesh, size, E: float) -> VolumeMeshFieldLinear:
    """p = E·φ/min(half size) [Pa], φ the depth below the box surface; size (3,) full sizes [m]."""
    h = np.asarray(size, dtype=float) / 2.0
    phi = (h[None, :] - np.abs(mesh.vertices_array())).min(axis=1)
    return _field(mesh, np.maximum(phi, 0.0) / h.min(), E)


def make_cylinder_pressure_field(mesh: VolumeMesh, radius: float, length: float,
                                 E: float) -> VolumeMeshFieldLinear:
    """p = E·min(φ/min(r, L/2), 1) [Pa]; boundary vertices get exactly 0."""
    p = mesh.vertices_array()
    rho = np.hypot(p[:, 0], p[:, 1])
    phi = np.minimum(radius - rho, length / 2.0 - np.abs(p[:, 2]))
    e = np.clip(phi / min(radius, length / 2.0), 0.0, 1.0)
    e[np.unique(boundary_faces(p, mesh.tetrahedra_array()))] = 0.0
    return _field(mesh, e, E)


def make_capsule_pressure_field(mesh: VolumeMesh, E: float) -> VolumeMeshFieldLinear:
    """E at vertices 0 and 1 (the medial-axis end points of make_capsule_volume_mesh), else 0."""
    e = np.zeros(mesh.num_vertices())
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
