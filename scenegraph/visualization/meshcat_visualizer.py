"""MeshcatVisualizer(+Params): SceneGraph geometry of one role in meshcat.

The visualizer reads a QueryObject on its ``query_object`` input port. It
(re)loads the geometry of its role only when that role's GeometryVersion
changes, and every publish sends the world poses X_WF of the frames that
carry such geometry as one batch (``Meshcat.set_transforms``).

Scene-tree layout (Drake's): ``<prefix>/<frame name>/<geometry name>``,
"::" in names becoming "/"; anchored geometry sits at
``<prefix>/<geometry name>``. The object at a geometry path is the shape in
its geometry frame G; the geometry path carries X_FG; the frame path
carries X_WF.

Colours: a geometry's ``("phong", "diffuse")``, else ``default_color``; a
Mesh is drawn with its file's own materials and textures where Drake's
Meshcat does (OBJ+MTL, glTF), and also a COLLADA file's when the geometry has
no diffuse colour of its own (meshcat_meshes states the rule); a
``("phong", "diffuse_map")`` texture is drawn where the shape has texture
coordinates. A mesh file that cannot be read is skipped with one warning per
file naming the geometries that use it.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

import numpy as np

from systems.common.overloads import overloaded_function
from scenegraph.geometry_properties import Rgba
from scenegraph.geometry_roles import Role
from scenegraph.geometry_version import GeometryVersion
from scenegraph.shapes import Convex, Mesh
from scenegraph.visualization.meshcat_meshes import opacity_script, uses_file_materials
from scenegraph.visualization.meshcat_shapes import shape_object
from scenegraph.visualization.visualizer_base import QueryObjectVisualizer
from systems.framework import EventStatus

__all__ = ["MeshcatVisualizer", "MeshcatVisualizerParams"]

_log = logging.getLogger("scenegraph.meshcat")


@dataclass
class MeshcatVisualizerParams:
    """Options of MeshcatVisualizer (pydrake's ``MeshcatVisualizerParams``).

    publish_period [s] (0: publish after every simulator step); role
    (kIllustration, kProximity or kPerception);
    default_color for geometry without ("phong", "diffuse"); prefix of every
    path it writes (relative paths live under "/drake");
    delete_on_initialization_event; enable_alpha_slider with
    initial_alpha_slider_value in [0, 1]; visible_by_default;
    show_hydroelastic (proximity role: draw hydroelastic meshes instead of
    the primitives); include_unspecified_accepting (geometry without a
    ("meshcat", "accepting") property is shown).
    """
    publish_period: float = 1.0 / 64.0
    role: Role = Role.kIllustration
    default_color: Rgba = field(default_factory=lambda: Rgba(0.9, 0.9, 0.9, 1.0))
    prefix: str = "visualizer"
    delete_on_initialization_event: bool = True
    enable_alpha_slider: bool = False
    initial_alpha_slider_value: float = 1.0
    visible_by_default: bool = True
    show_hydroelastic: bool = False
    include_unspecified_accepting: bool = True


def _clean(name: str) -> str:
    return name.replace("::", "/").strip("/") or "unnamed"


class MeshcatVisualizer(QueryObjectVisualizer):
    """Publishes a SceneGraph's geometry of one role to Meshcat."""

    def __init__(self, meshcat, params: MeshcatVisualizerParams | None = None):
        super().__init__()
        params = MeshcatVisualizerParams() if params is None else params
        if not (params.publish_period >= 0 and math.isfinite(params.publish_period)):
            raise RuntimeError(f"MeshcatVisualizerParams.publish_period must be >= 0; got "
                               f"{params.publish_period}")
        if Role(params.role) == Role.kUnassigned:
            raise RuntimeError("MeshcatVisualizer cannot be used for geometries with the "
                               "Role::kUnassigned value. Please choose kProximity, "
                               "kPerception, or kIllustration")
        self._meshcat = meshcat
        self._params = params
        self._declare_query_port_and_publishing(params.publish_period,
                                                params.delete_on_initialization_event)
        self._alpha_slider = None
        if params.enable_alpha_slider:
            self._alpha_slider = f"{params.prefix} \u03b1"
            meshcat.AddSlider(self._alpha_slider, 0.02, 1.0, 0.02,
                              params.initial_alpha_slider_value)
        # What is in the browser (a visualizer mirrors external state, as Drake's).
        self._version = None
        self._frame_ids = []      # FrameIds of frames carrying our geometry
        self._frame_paths = []    # their meshcat paths
        self._colors = {}         # geometry path -> Rgba
        self._file_material_paths = []   # geometry paths drawn with a file's materials
        self._unreadable = {}     # file -> (error, geometries not drawn) in one load
        self._warned_unreadable = set()
        self._alpha = 1.0 if self._alpha_slider is None else meshcat.GetSliderValue(
            self._alpha_slider)
        self._pose_index = (None, None)   # (pose topology, frame rows)
        self.num_loads = 0        # how often the geometry was (re)sent (extension)

    # --- ports and builder -----------------------------------------------------------
    @overloaded_function(scene_graph=lambda v: hasattr(v, "get_query_output_port"))
    def AddToBuilder(builder, scene_graph, meshcat, params=None):
        """Adds a MeshcatVisualizer named "meshcat_visualizer(<prefix>)" (if that name
        is free) and connects `scene_graph`'s query port to it; or, in the
        ``(builder, query_object_port, meshcat, params)`` form, the given
        QueryObject-valued output port. params=None means MeshcatVisualizerParams()."""
        return MeshcatVisualizer._add(builder, scene_graph, meshcat, params)

    @AddToBuilder.overload
    def AddToBuilder(builder, query_object_port, meshcat, params=None):
        return MeshcatVisualizer._add(builder, query_object_port, meshcat, params)

    @staticmethod
    def _add(builder, scene_graph_or_port, meshcat, params):
        params = MeshcatVisualizerParams() if params is None else params
        return QueryObjectVisualizer._add_to_builder(
            builder, scene_graph_or_port, MeshcatVisualizer(meshcat, params),
            f"meshcat_visualizer({params.prefix})")

    def _convert_to_scalar(self, target_cls):
        """This visualizer as a `target_cls` (its AutoDiffXd class or back), sharing its
        Meshcat: scalar conversion, in autodiff_visualizers.py."""
        from scenegraph.visualization.autodiff_visualizers import convert_visualizer
        return convert_visualizer(self, target_cls)

    # --- Drake's methods ---------------------------------------------------------------
    def DoGetGraphvizFragment(self, params):
        """Drake's drawing: ``path=/drake/<prefix>`` and an edge to Meshcat."""
        from scenegraph.visualization.meshcat_graphviz import meshcat_graphviz_fragment
        return meshcat_graphviz_fragment(super().DoGetGraphvizFragment, params,
                                         self._params.prefix)

    def Delete(self) -> None:
        """Deletes everything under the prefix; the next publish reloads."""
        self._meshcat.Delete(self._params.prefix)
        self._version = None

    def StartRecording(self, set_transforms_while_recording: bool = True):
        """Records every later publish into the Meshcat's animation."""
        fps = 64.0 if self._params.publish_period <= 0 else 1.0 / self._params.publish_period
        self._meshcat.StartRecording(fps, set_transforms_while_recording)
        return self._meshcat.get_mutable_recording()

    def StopRecording(self) -> None:
        """Stops the Meshcat's recording (kept for PublishRecording)."""
        self._meshcat.StopRecording()

    def PublishRecording(self) -> None:
        """Sends the Meshcat's recording to the browsers as an animation."""
        self._meshcat.PublishRecording()

    def DeleteRecording(self) -> None:
        """Discards the Meshcat's recording."""
        self._meshcat.DeleteRecording()

    def get_mutable_recording(self):
        """The Meshcat's recording, a MeshcatAnimation."""
        return self._meshcat.get_mutable_recording()

    # --- events ------------------------------------------------------------------------
    def _on_initialization(self, context):
        self.Delete()
        return EventStatus.Succeeded()

    def _on_publish(self, context):
        query = self._query_port.Eval(context)
        inspector = query.inspector()
        version = inspector.geometry_version()
        if self._version is None or not version.IsSameAs(self._version, self._params.role):
            self._load(inspector)
            self._version = GeometryVersion(version)
        time = context.get_time()
        self._send_poses(query, time)
        if self._alpha_slider is not None:
            alpha = self._meshcat.GetSliderValue(self._alpha_slider)
            if alpha != self._alpha:
                self._alpha = alpha
                self._send_colors()
        self._meshcat.SetSimulationTime(time)
        return EventStatus.Succeeded()

    # --- loading ------------------------------------------------------------------------
    def _accepts(self, properties) -> bool:
        accepting = properties.GetPropertyOrDefault("meshcat", "accepting", None)
        if accepting is None:
            return self._params.include_unspecified_accepting
        return accepting == self._params.prefix

    def _load(self, inspector) -> None:
        """Replaces everything under the prefix with the role's geometry."""
        params, meshcat = self._params, self._meshcat
        meshcat.Delete(params.prefix)
        self._frame_ids, self._frame_paths, self._colors = [], [], {}
        self._file_material_paths = []
        self._pose_index = (None, None)
        world = inspector.world_frame_id()
        used = set()
        for frame_id in inspector.GetAllFrameIds():
            geometry_ids = inspector.GetGeometries(frame_id, params.role)
            if not geometry_ids:
                continue
            frame_path = params.prefix
            if frame_id != world:
                frame_path = f"{params.prefix}/{_clean(inspector.GetName(frame_id))}"
                if frame_path in used:
                    frame_path = f"{frame_path}_{frame_id.get_value()}"
            used.add(frame_path)
            shown = 0
            for geometry_id in geometry_ids:
                shown += self._load_geometry(inspector, geometry_id, frame_path)
            if shown and frame_id != world:
                self._frame_ids.append(frame_id)
                self._frame_paths.append(frame_path)
        meshcat.SetProperty(params.prefix, "visible", params.visible_by_default)
        self._warn_unreadable()
        if self._alpha < 1.0:
            self._send_file_alpha()
        self.num_loads += 1

    def _load_geometry(self, inspector, geometry_id, frame_path: str) -> int:
        params = self._params
        properties = inspector.GetProperties(geometry_id, params.role)
        if properties is None or not self._accepts(properties):
            return 0
        rgba = properties.GetPropertyOrDefault("phong", "diffuse", None)
        diffuse_map = None
        if params.role != Role.kProximity:
            diffuse_map = properties.GetPropertyOrDefault("phong", "diffuse_map", None) or None
            if diffuse_map is not None and rgba is not None and not rgba.rgba.any():
                rgba = None   # Drake's transparent black of a texture-only URDF material
        # Which colour wins: meshcat_meshes (Drake's rule; a COLLADA file's own
        # materials where the geometry has no colour of its own).
        materials = ("none" if params.role == Role.kProximity else
                     "drake" if rgba is not None else "file")
        if rgba is None:     # a texture without a colour is drawn as it is
            rgba = Rgba(1.0, 1.0, 1.0, 1.0) if diffuse_map else params.default_color
        name = inspector.GetName(geometry_id)
        path = f"{frame_path}/{_clean(name)}"
        if path in self._colors or path in self._file_material_paths:
            path = f"{path}_{geometry_id.get_value()}"
        shown = self._with_alpha(rgba)
        mesh = None
        if params.show_hydroelastic and params.role == Role.kProximity:
            mesh = _hydroelastic_surface(inspector.maybe_get_hydroelastic_mesh(geometry_id))
        shape = inspector.GetShape(geometry_id)
        try:
            if mesh is not None:
                self._meshcat.SetObject(path, mesh, shown)
                obj = None
            else:
                obj = shape_object(shape, shown, materials, diffuse_map)
        except TypeError as error:
            _log.warning("MeshcatVisualizer: geometry '%s' is not drawn: %s", name, error)
            return 0
        except RuntimeError as error:
            if not isinstance(shape, (Mesh, Convex)):
                raise
            frame = inspector.GetName(inspector.GetFrameId(geometry_id))
            source = getattr(shape, "_source", None)
            key = str(error) if source is None else source.description()
            self._unreadable.setdefault(key, (str(error), []))[1].append(
                f"'{name}' (frame '{frame}')")
            return 0
        if obj is not None:
            self._meshcat._set_object(path, obj)
        self._meshcat.SetTransform(path, inspector.GetPoseInFrame(geometry_id))
        if obj is not None and uses_file_materials(obj):
            self._file_material_paths.append(path)
        else:
            self._colors[path] = rgba
        return 1

    def _warn_unreadable(self) -> None:
        """One warning per mesh file that could not be read (per visualizer), naming
        the geometries that use it (they are not drawn)."""
        for key, (error, names) in self._unreadable.items():
            if key not in self._warned_unreadable:
                self._warned_unreadable.add(key)
                shown = ", ".join(names[:5])
                more = f" and {len(names) - 5} more" if len(names) > 5 else ""
                _log.warning("MeshcatVisualizer: %s; geometr%s %s%s %s not drawn", error,
                             "y" if len(names) == 1 else "ies", shown, more,
                             "is" if len(names) == 1 else "are")
        self._unreadable = {}

    def _with_alpha(self, rgba: Rgba) -> Rgba:
        if self._alpha_slider is None:
            return rgba
        return Rgba(rgba.r(), rgba.g(), rgba.b(), rgba.a() * self._alpha)

    def _send_colors(self) -> None:
        for path, rgba in self._colors.items():
            self._meshcat.SetProperty(f"{path}/<object>", "color",
                                      list(self._with_alpha(rgba).rgba))
        self._send_file_alpha()

    def _send_file_alpha(self) -> None:
        """Scales the opacity of materials from files (whose colours a "color"
        property would replace) by the alpha slider's value, in a viewer script
        that new browsers also run."""
        if self._alpha_slider is None or not self._file_material_paths:
            return
        from scenegraph.visualization.meshcat import _abs_path
        self._meshcat._run_script(f"alpha:{self._params.prefix}", opacity_script(
            _abs_path(self._params.prefix), self._alpha))

    # --- poses ----------------------------------------------------------------------------
    def _send_poses(self, query, time: float) -> None:
        """One batch of X_WF (4×4, m) for every frame carrying our geometry."""
        if not self._frame_ids:
            return
        X_WF = np.zeros((len(self._frame_ids), 4, 4))
        X_WF[:, 3, 3] = 1.0
        poses = query._poses() if hasattr(query, "_poses") else None
        topology = getattr(poses, "topology", None)
        if topology is not None:
            if self._pose_index[0] is not topology:
                rows = np.array([topology.frame_index[f] for f in self._frame_ids])
                self._pose_index = (topology, rows)
            rows = self._pose_index[1]
            X_WF[:, :3, :3] = poses.R_WF[rows]
            X_WF[:, :3, 3] = poses.p_WF[rows]
        else:  # any QueryObject-like object
            for k, frame_id in enumerate(self._frame_ids):
                X_WF[k] = np.asarray(query.GetPoseInWorld(frame_id).GetAsMatrix4())
        self._meshcat.set_transforms(self._frame_paths, X_WF, time)


def _hydroelastic_surface(mesh):
    """The surface of a hydroelastic representation (a TriangleSurfaceMesh-
    like object), or None."""
    if mesh is None:
        return None
    if hasattr(mesh, "triangles"):
        return mesh
    if hasattr(mesh, "tetrahedra") or hasattr(mesh, "num_elements"):
        from scenegraph.hydroelastic.volume_mesh import ConvertVolumeToSurfaceMesh
        return ConvertVolumeToSurfaceMesh(mesh)
    return None
