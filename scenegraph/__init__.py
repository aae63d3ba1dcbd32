"""pydrake.geometry-compatible SceneGraph. Public names are re-exported here."""
from scenegraph.shapes import (Box, CalcVolume, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace,
                               Mesh, MeshcatCone, MeshSource, Shape, Sphere)
from scenegraph.mesh_io import ReadObjToTriangleSurfaceMesh
