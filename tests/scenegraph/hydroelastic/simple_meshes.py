"""Small meshes shared by the hydroelastic mesh tests: the unit tetrahedron and a right
triangle."""

import numpy as np

from scenegraph.hydroelastic.surface_mesh import SurfaceTriangle, TriangleSurfaceMesh
from scenegraph.hydroelastic.volume_mesh import VolumeElement, VolumeMesh


def right_triangle_mesh():
    # Two triangles: a unit right triangle in z = 0 and one standing in x = 0.
    p = [np.array(v, float) for v in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 2)]]
    return TriangleSurfaceMesh([SurfaceTriangle(0, 1, 2), SurfaceTriangle(0, 2, 3)], p)


def unit_tet():
    return VolumeMesh([VolumeElement(0, 1, 2, 3)], [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
