"""Mass properties of a mesh file as a solid of unit density (MJCF geoms
without an <inertial> body).

The triangles are read with numpy for binary STL (MuJoCo's usual format: a
dog of 160 bone meshes reads in a fraction of a second) and through trimesh
for every other format (the self-contained ones through
scenegraph.mesh_cache: trimesh's arrays, kept on disk). The volume, centroid
and inertia follow from the divergence theorem over the tetrahedra that
join each triangle to the origin (Drake's and MuJoCo's method). A surface
that does not bound a positive volume (open, or wound inwards) is replaced
by its convex hull, as both do.
"""
from __future__ import annotations

import numpy as np

__all__ = ["unit_density_inertia", "read_triangles"]


def read_triangles(path: str) -> np.ndarray:
    """(N, 3, 3) triangle corners of the mesh file at `path`, in file units."""
    import os

    if path.lower().endswith(".stl") and os.path.getsize(path) >= 84:
        with open(path, "rb") as f:
            head = f.read(84)
            count = int(np.frombuffer(head[80:84], dtype="<u4")[0])
            if os.path.getsize(path) == 84 + 50 * count:      # binary STL
                record = np.dtype([("normal", "<f4", 3), ("corners", "<f4", (3, 3)),
                                   ("attribute", "<u2")])
                return np.fromfile(f, dtype=record, count=count)["corners"].astype(float)
    from scenegraph.mesh_cache import CACHED_EXTENSIONS
    from scenegraph.mesh_io import load_mesh_file, mesh_extension

    extension = mesh_extension(path)
    if extension in CACHED_EXTENSIONS and extension != ".obj":   # trimesh's arrays, kept
        V, F = load_mesh_file(path)
        return V[F]
    import trimesh

    mesh = trimesh.load(path, force="mesh", process=False)
    return np.asarray(mesh.vertices, dtype=float)[np.asarray(mesh.faces)]


def _integrals(T: np.ndarray):
    """(volume, centroid (3,), inertia about the origin (3, 3)) of the solid
    bounded by triangles T (N, 3, 3), density 1."""
    a, b, c = T[:, 0], T[:, 1], T[:, 2]
    det = np.einsum("ij,ij->i", a, np.cross(b, c))          # 6 × signed tet volumes
    volume = det.sum() / 6.0
    if volume <= 0:
        return volume, None, None
    centroid = (det[:, None] * (a + b + c)).sum(axis=0) / (24.0 * volume)
    # Second moments ∫ x_i x_j dV over each tetrahedron (origin, a, b, c).
    s = a + b + c
    outer = (np.einsum("ni,nj->nij", a, a) + np.einsum("ni,nj->nij", b, b)
             + np.einsum("ni,nj->nij", c, c) + np.einsum("ni,nj->nij", s, s))
    C = (det[:, None, None] * outer).sum(axis=0) / 120.0
    inertia = np.trace(C) * np.eye(3) - C
    return volume, centroid, inertia


def unit_density_inertia(path: str, scale3):
    """SpatialInertia of the mesh (file units × scale3 → m) of density
    1 kg/m³ about the mesh frame's origin, expressed in the mesh frame (its
    mass is its volume [m³]); SpatialInertia.Zero() for a degenerate mesh."""
    from scenegraph.multibody.inertia import RotationalInertia, SpatialInertia

    T = read_triangles(path) * np.asarray(scale3, dtype=float)
    volume, centroid, inertia = _integrals(T)
    if volume is None or volume <= 0 or centroid is None:
        from scipy.spatial import ConvexHull, QhullError

        points = T.reshape(-1, 3)
        try:
            hull = ConvexHull(points)
        except (QhullError, ValueError):
            return SpatialInertia.Zero()
        faces = points[hull.simplices]
        inside = points[hull.vertices].mean(axis=0)
        normals = np.cross(faces[:, 1] - faces[:, 0], faces[:, 2] - faces[:, 0])
        flip = np.einsum("ij,ij->i", normals, faces[:, 0] - inside) < 0
        faces[flip] = faces[flip][:, ::-1]
        volume, centroid, inertia = _integrals(faces)
        if volume is None or volume <= 0:
            return SpatialInertia.Zero()
    # Inertia about the centroid, then as a spatial inertia about the origin.
    d = centroid
    I_cm = inertia - volume * (np.dot(d, d) * np.eye(3) - np.outer(d, d))
    return SpatialInertia.MakeFromCentralInertia(
        volume, centroid, RotationalInertia(I_cm[0, 0], I_cm[1, 1], I_cm[2, 2], I_cm[0, 1],
                                            I_cm[0, 2], I_cm[1, 2]))
