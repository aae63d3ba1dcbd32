"""pydrake.geometry-compatible SceneGraph. Public names are re-exported here.

``__all__`` lists the public names that are not modules, so ``from scenegraph import *``
never binds a submodule (``math``, ``all``, ``multibody``, ...) over the importer's own
names (the standard library's ``math``, the builtin ``all``)."""
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
from scenegraph.visualization import (ContactVisualizer, ContactVisualizerParams, Meshcat,
                                      MeshcatAnimation, MeshcatParams,
                                      MeshcatPointCloudVisualizer, MeshcatVisualizer,
                                      MeshcatVisualizerParams, StartMeshcat)
from scenegraph.volume_mesh_refiner import (RefineVolumeMesh,
                                            RefineVolumeMeshIntoVtkFileContents)
from scenegraph.templates import *  # noqa: F401,F403  (SceneGraph_, QueryObject_, ...)
from scenegraph.render import (ClippingRange, ColorRenderCamera, DepthRange, DepthRenderCamera,
                               EnvironmentMap, EquirectangularMap, GltfExtension,
                               LightParameter, MakeRenderEngineGl, MakeRenderEngineVtk,
                               NullTexture, RenderCameraCore, RenderEngine,
                               RenderEngineGlParams, RenderEngineVtkParams, RenderLabel,
                               SsaoParameter)
from scenegraph.sensors.depth_image_to_point_cloud import DepthImageToPointCloud

# pydrake's build-configuration flags: MakeRenderEngineVtk and MakeRenderEngineGl work
# (both build this library's RenderEngineCpu; docs/render.md); no glTF client.
kHasRenderEngineGl = True
kHasRenderEngineGltfClient = False
kHasRenderEngineVtk = True

__all__ = [_name for _name, _value in dict(globals()).items()
           if not _name.startswith("_") and not isinstance(_value, _types.ModuleType)]
