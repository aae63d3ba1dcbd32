"""pydrake.geometry-compatible SceneGraph. Public names are re-exported here."""
from scenegraph.collision_filter_manager import (CollisionFilterDeclaration,
                                                 CollisionFilterManager,
                                                 collision_groups_declaration)
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
                                      MeshcatAnimation, MeshcatParams, MeshcatVisualizer,
                                      MeshcatVisualizerParams, StartMeshcat)
