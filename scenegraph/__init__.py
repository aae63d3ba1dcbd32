"""pydrake.geometry-compatible SceneGraph. Public names are re-exported here.

``__all__`` lists the public names that are not modules, so ``from scenegraph import *``
never binds a submodule (``math``, ``all``, ``multibody``, ...) over the importer's own
names (the standard library's ``math``, the builtin ``all``).

Names whose modules a scene's queries do not need (Meshcat and the visualizers,
rendering, the depth-image sensor, the volume-mesh refiner, the ``X_`` template
names) are imported at their first use (`__getattr__`, PEP 562), so that
``import scenegraph`` does not load tornado, the renderer's kernels or the
sensors; ``from scenegraph import *`` and ``scenegraph.X`` give the same objects
as before."""
import importlib as _importlib
import types as _types

from scenegraph.bounding_boxes import (Aabb, CalcObb, ComputeAabbForTriangleMesh,
                                       ComputeAabbForVolumeMesh, ComputeObbForTriangleMesh,
                                       ComputeObbForVolumeMesh, Obb)
from scenegraph.collision_filter_manager import (CollisionFilterDeclaration,
                                                 CollisionFilterManager, CollisionFilterScope,
                                                 collision_groups_declaration)
from scenegraph.geometry_configuration_vector import GeometryConfigurationVector
from scenegraph.geometry_frame import GeometryFrame
from scenegraph.geometry_instance import GeometryInstance
from scenegraph.geometry_properties import (GeometryProperties, IllustrationProperties,
                                            MakePhongIllustrationProperties, PerceptionProperties,
                                            ProximityProperties, Rgba)
from scenegraph.geometry_roles import Role, RoleAssign
from scenegraph.geometry_set import GeometrySet
from scenegraph.geometry_state import GeometryState, ProximityView
from scenegraph.geometry_version import GeometryVersion
from scenegraph.hydroelastic.properties import (AddCompliantHydroelasticProperties,
                                                AddCompliantHydroelasticPropertiesForHalfSpace,
                                                AddContactMaterial,
                                                AddRigidHydroelasticProperties, CoulombFriction,
                                                HydroelasticType)
from scenegraph.identifiers import FilterId, FrameId, GeometryId, SourceId
from scenegraph.kinematics_vector import FramePoseVector, WorldPoses
from scenegraph.mesh_io import ReadObjToTriangleSurfaceMesh
from scenegraph.mesh_source import InMemoryMesh, MemoryFile
from scenegraph.plane import Plane
from scenegraph.point_cloud import BaseField, Fields, PointCloud
from scenegraph.scene_graph_config import DefaultProximityProperties, SceneGraphConfig
from scenegraph.scene_graph_inspector import SceneGraphInspector
from scenegraph.shapes import (Box, CalcVolume, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace,
                               Mesh, MeshcatCone, MeshSource, Shape, Sphere)
from scenegraph.query_object import QueryObject
from scenegraph.query_results import (PenetrationAsPointPair, SignedDistancePair,
                                      SignedDistanceToPoint)
from scenegraph.scene_graph import SceneGraph
from scenegraph.hydroelastic.contact_surface import (ContactSurface,
                                                     HydroelasticContactRepresentation)
from scenegraph.hydroelastic.mesh_field import (PolygonSurfaceMeshFieldLinear,
                                                TriangleSurfaceMeshFieldLinear,
                                                VolumeMeshFieldLinear)
from scenegraph.hydroelastic.surface_mesh import (PolygonSurfaceMesh, SurfacePolygon,
                                                  SurfaceTriangle, TriangleSurfaceMesh)
from scenegraph.hydroelastic.volume_mesh import (ConvertVolumeToSurfaceMesh, VolumeElement,
                                                 VolumeMesh)
# pydrake's build-configuration flags: MakeRenderEngineVtk and MakeRenderEngineGl work
# (both build this library's RenderEngineCpu; docs/render.md); no glTF client.
kHasRenderEngineGl = True
kHasRenderEngineGltfClient = False
kHasRenderEngineVtk = True

#: {module: names it exports here}, imported at a name's first use.
_LAZY = {
    "scenegraph.visualization": (
        "ContactVisualizer", "ContactVisualizerParams", "Meshcat", "MeshcatAnimation",
        "MeshcatParams", "MeshcatPointCloudVisualizer", "MeshcatVisualizer",
        "MeshcatVisualizerParams", "StartMeshcat"),
    "scenegraph.volume_mesh_refiner": (
        "RefineVolumeMesh", "RefineVolumeMeshIntoVtkFileContents"),
    "scenegraph.templates": (
        "ContactSurface_", "FramePoseVector_", "GeometryConfigurationVector_",
        "MeshcatPointCloudVisualizer_", "MeshcatVisualizer_", "PenetrationAsPointPair_",
        "Plane_", "PolygonSurfaceMeshFieldLinear_", "PolygonSurfaceMesh_", "QueryObject_",
        "SceneGraphInspector_", "SceneGraph_", "SignedDistancePair_",
        "SignedDistanceToPoint_", "TriangleSurfaceMeshFieldLinear_", "TriangleSurfaceMesh_",
        "VolumeMesh_"),
    "scenegraph.render": (
        "ClippingRange", "ColorRenderCamera", "DepthRange", "DepthRenderCamera",
        "EnvironmentMap", "EquirectangularMap", "GltfExtension", "LightParameter",
        "MakeRenderEngineGl", "MakeRenderEngineVtk", "NullTexture", "RenderCameraCore",
        "RenderEngine", "RenderEngineGlParams", "RenderEngineVtkParams", "RenderLabel",
        "SsaoParameter"),
    "scenegraph.sensors.depth_image_to_point_cloud": ("DepthImageToPointCloud",),
}
_LAZY_NAMES = {_name: _module for _module, _names in _LAZY.items() for _name in _names}
#: Submodules reachable as attributes (``scenegraph.render`` without
#: ``import scenegraph.render``): imported at first use.
_LAZY_SUBMODULES = ("_jit", "proximity", "render", "sensors", "tactile_points", "templates",
                    "visualization", "volume_mesh_refiner")


def __getattr__(name):
    """A lazily imported public name or submodule (see the module docstring)."""
    module = _LAZY_NAMES.get(name)
    if module is not None:
        value = getattr(_importlib.import_module(module), name)
    elif name in _LAZY_SUBMODULES:
        value = _importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    """The module's names, the lazily imported ones included."""
    return sorted(set(globals()) | set(_LAZY_NAMES) | set(_LAZY_SUBMODULES))


__all__ = [_name for _name, _value in dict(globals()).items()
           if not _name.startswith("_") and not isinstance(_value, _types.ModuleType)
           ] + list(_LAZY_NAMES)
