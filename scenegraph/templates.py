"""pydrake.geometry's template names: ``X_[float]`` / ``X_[None]`` are X; ``X_[AutoDiffXd]``
is offered for SceneGraph, QueryObject, FramePoseVector, GeometryConfigurationVector,
PenetrationAsPointPair, SignedDistancePair, SignedDistanceToPoint
(scenegraph/autodiff_scene_graph.py and autodiff_kinematics.py, loaded at first use),
MeshcatVisualizer and MeshcatPointCloudVisualizer (visualization/autodiff_visualizers.py); other
AutoDiffXd instantiations and symbolic scalars raise (see systems.common.scalar_templates). DrakeVisualizer_ is absent
with DrakeVisualizer (LCM is not offered)."""
from __future__ import annotations

from scenegraph.geometry_configuration_vector import GeometryConfigurationVector
from scenegraph.hydroelastic.contact_surface import ContactSurface
from scenegraph.hydroelastic.mesh_field import (PolygonSurfaceMeshFieldLinear,
                                                TriangleSurfaceMeshFieldLinear)
from scenegraph.hydroelastic.surface_mesh import PolygonSurfaceMesh, TriangleSurfaceMesh
from scenegraph.hydroelastic.volume_mesh import VolumeMesh
from scenegraph.kinematics_vector import FramePoseVector
from scenegraph.plane import Plane
from scenegraph.query_object import QueryObject
from scenegraph.query_results import (PenetrationAsPointPair, SignedDistancePair,
                                      SignedDistanceToPoint)
from scenegraph.scene_graph import SceneGraph
from scenegraph.scene_graph_inspector import SceneGraphInspector
from scenegraph.visualization.meshcat_point_cloud_visualizer import MeshcatPointCloudVisualizer
from scenegraph.visualization.meshcat_visualizer import MeshcatVisualizer
from systems.common.scalar_templates import define_templates


def _autodiff(name: str):
    """A factory of X_[AutoDiffXd] (imported at the first X_[AutoDiffXd])."""
    def make(float_cls):
        if name in ("FramePoseVector", "GeometryConfigurationVector"):
            from scenegraph import autodiff_kinematics as module
        elif name.startswith("Meshcat"):
            from scenegraph.visualization import autodiff_visualizers as module
        else:
            from scenegraph import autodiff_scene_graph as module
        return getattr(module, f"{name}_AutoDiffXd")
    return make


_TEMPLATES = define_templates(globals(), (
    "ContactSurface", "FramePoseVector", "GeometryConfigurationVector",
    "MeshcatPointCloudVisualizer", "MeshcatVisualizer", "PenetrationAsPointPair", "Plane",
    "PolygonSurfaceMesh", "PolygonSurfaceMeshFieldLinear", "QueryObject",
    "SceneGraph", "SceneGraphInspector", "SignedDistancePair", "SignedDistanceToPoint",
    "TriangleSurfaceMesh", "TriangleSurfaceMeshFieldLinear", "VolumeMesh"), "scenegraph",
    autodiff={name: _autodiff(name) for name in (
        "SceneGraph", "QueryObject", "FramePoseVector", "PenetrationAsPointPair",
        "SignedDistancePair", "SignedDistanceToPoint", "GeometryConfigurationVector",
        "MeshcatVisualizer", "MeshcatPointCloudVisualizer")})
globals().update(_TEMPLATES)
__all__ = sorted(_TEMPLATES)
