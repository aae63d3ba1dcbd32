"""RenderEngine (pydrake's interface) and RenderEngineCpu, this library's engine.

A RenderEngine holds *visuals*: geometries registered with RegisterVisual
(id, shape, perception properties, pose X_WG) and drawn by RenderColorImage,
RenderDepthImage and RenderLabelImage from the viewpoint set by
UpdateViewpoint. SceneGraph keeps one engine per renderer name in every
GeometryState (the model's and each context's copy, cloned as Drake clones
them) and registers the state's perception geometries with it
(scenegraph/render/renderers.py).

RenderEngineCpu renders on the CPU with compiled kernels
(scenegraph/render/raster_kernels.py): analytic ray hits for the primitives,
rasterised triangles for Mesh and Convex, Lambertian (Phong diffuse) lighting,
textures. ``MakeRenderEngineVtk(params)`` and ``MakeRenderEngineGl(params)``
build it (there is no VTK or OpenGL here); ``GetRendererTypeName`` says so.

Properties read (Drake's names):
  ("phong", "diffuse")       Rgba (or (4,)/(3,) numbers): the colour; alpha < 1
                             blends the nearest such surface over what is
                             behind it in colour images.
  ("phong", "diffuse_map")   path of a texture image (PNG, JPEG, ...),
                             multiplied by the diffuse colour.
  ("phong", "diffuse_scale") (2,) scale of a Box's texture coordinates.
  ("label", "id")            RenderLabel (or an int): the label image value;
                             default kDontCare.
  ("renderer", "accepting")  set of renderer names that take the geometry
                             (read by SceneGraph: empty or absent means all).
A Mesh whose file has its own materials (OBJ+MTL, glTF, COLLADA) is drawn
with them and the phong properties are ignored (with a warning), as in Drake;
without them, a PNG next to an OBJ with the same name is its texture (Drake's
legacy rule).
"""
from __future__ import annotations

import copy
import logging
import os

import numpy as np

from scenegraph.geometry_properties import PerceptionProperties, Rgba
from scenegraph.identifiers import GeometryId
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.render import raster_kernels as rk
from scenegraph.render.cameras import ColorRenderCamera, DepthRenderCamera
from scenegraph.render.images import ImageDepth32F, ImageLabel16I, ImageRgba8U
from scenegraph.render.meshes import render_mesh, texture_texels
from scenegraph.render.params import (RenderEngineGlParams, RenderEngineVtkParams, light_table,
                                      params_yaml)
from scenegraph.render.render_label import RenderLabel
from scenegraph.render.shape_hits import (BOX, CAPSULE, CYLINDER, ELLIPSOID, HALF_SPACE, MESH,
                                          SPHERE)

__all__ = ["RenderEngine", "RenderEngineCpu", "MakeRenderEngineVtk", "MakeRenderEngineGl"]

_log = logging.getLogger("scenegraph.render")
#: Half the edge of the square a HalfSpace is drawn as [m] (Drake's VTK engine
#: draws a 100 m square).
HALF_SPACE_EXTENT = 50.0


class _Visual:
    """One registered geometry, in the kernels' terms (see scene arrays in
    RenderEngineCpu._pack)."""

    __slots__ = ("id", "shape", "properties", "R_WG", "p_WG", "needs_updates", "label",
                 "kind", "size", "box_c", "box_h", "diffuse", "texels", "uv_scale", "mesh",
                 "name")


def _rgba(value, what: str) -> np.ndarray:
    if isinstance(value, Rgba):
        return value.rgba
    a = np.asarray(value, dtype=float).reshape(-1)
    if a.shape == (3,):
        a = np.append(a, 1.0)
    if a.shape != (4,) or not np.isfinite(a).all():
        raise RuntimeError(f"{what}: ('phong', 'diffuse') must be an Rgba (or 3 or 4 "
                           f"numbers); got {value!r}")
    return np.clip(a, 0.0, 1.0)


def _pure_virtual(name: str) -> RuntimeError:
    """pydrake's error for a RenderEngine virtual a Python subclass did not define."""
    return RuntimeError(f'Tried to call pure virtual function "Base::{name}"')


class RenderEngine:
    """pydrake's RenderEngine interface over a registry of visuals.

    This library's engine (RenderEngineCpu) renders with compiled kernels and
    keeps its visuals itself. A **Python subclass** of RenderEngine (pydrake's
    trampoline) works as in pydrake: the public methods call its overrides —
    RegisterVisual -> DoRegisterVisual(id, shape, properties, X_WG) (returns
    whether it took the geometry), UpdatePoses -> DoUpdateVisualPose(id, X_WG)
    for the geometries registered with needs_updates, RemoveGeometry ->
    DoRemoveGeometry(id), Render*Image -> DoRender*Image(camera, image_out)
    after the image size is checked, GetParameterYaml -> DoGetParameterYaml(),
    Clone -> DoClone() or else copy.deepcopy (its ``__deepcopy__``). It must
    define UpdateViewpoint(X_WC). A virtual it does not define raises
    RuntimeError('Tried to call pure virtual function ...'). SceneGraph's
    QueryObject.Render*Image calls UpdatePoses, UpdateViewpoint(X_WC) and then
    the Render*Image method on the context's clone of the engine.
    """

    #: True for this library's engines (RenderEngineCpu), which draw the visuals
    #: they keep; False for Python subclasses, which render through Do* methods.
    _renders_natively = False

    def __init__(self):
        self._virtual = {}               # Python subclasses: GeometryId -> needs_updates
        self._visuals = {}               # GeometryId -> _Visual, in registration order
        self._X_WC = RigidTransform()
        self._default_label = RenderLabel.kDontCare
        self._revision = 0               # bumped by every registry change
        self._synced = None              # (state id, perception token) last synced with

    # --- registry --------------------------------------------------------------------
    def RegisterVisual(self, id, shape, properties, X_WG, needs_updates: bool = True) -> bool:
        """Registers `shape` (posed X_WG [m]) as geometry `id` with its perception
        properties; returns True if this engine takes it (every shape but
        MeshcatCone).

        Raises:
          RuntimeError: its label is kUnspecified or kEmpty (or not a label), a
            colour is malformed, or the mesh file cannot be read.
        """
        if not isinstance(id, GeometryId):
            raise TypeError(f"RegisterVisual(): id must be a GeometryId; got {type(id).__name__}")
        if not isinstance(properties, PerceptionProperties):
            raise TypeError(f"RegisterVisual(): properties must be PerceptionProperties; got "
                            f"{type(properties).__name__}")
        if not isinstance(X_WG, RigidTransform):
            raise TypeError(f"RegisterVisual(): X_WG must be a RigidTransform; got "
                            f"{type(X_WG).__name__}")
        if not self._renders_natively:
            accepted = bool(self.DoRegisterVisual(id, shape, properties, X_WG))
            if accepted:
                self._virtual[id] = bool(needs_updates)
            return accepted
        visual = self._make_visual(id, shape, properties, X_WG, bool(needs_updates), "")
        if visual is None:
            return False
        self._visuals.pop(id, None)
        self._visuals[id] = visual
        self._revision += 1
        return True

    def RemoveGeometry(self, id) -> bool:
        """Removes geometry `id`; False if this engine does not have it."""
        if not self._renders_natively:
            if id not in self._virtual:
                return False
            self.DoRemoveGeometry(id)
            del self._virtual[id]
            return True
        if self._visuals.pop(id, None) is None:
            return False
        self._revision += 1
        return True

    def has_geometry(self, id) -> bool:
        """True if geometry `id` is registered with this engine."""
        return id in (self._visuals if self._renders_natively else self._virtual)

    def UpdatePoses(self, X_WGs) -> None:
        """Sets X_WG of the registered geometries that need updates (dict
        GeometryId -> RigidTransform; Drake's C++ UpdatePoses)."""
        if not self._renders_natively:
            for gid, X_WG in X_WGs.items():
                if self._virtual.get(gid):
                    self.DoUpdateVisualPose(gid, X_WG)
            return
        for gid, X_WG in X_WGs.items():
            visual = self._visuals.get(gid)
            if visual is not None and visual.needs_updates:
                visual.R_WG, visual.p_WG = X_WG.rotation().matrix(), X_WG.translation()
                self._revision += 1

    def UpdateViewpoint(self, X_WR) -> None:
        """Sets the pose X_WR of the camera (sensor frame) used by the Render*Image
        methods of this engine (a Python subclass must define it)."""
        if not self._renders_natively:
            raise _pure_virtual("UpdateViewpoint")
        if not isinstance(X_WR, RigidTransform):
            raise TypeError(f"UpdateViewpoint(): X_WR must be a RigidTransform; got "
                            f"{type(X_WR).__name__}")
        if not np.isfinite(X_WR.GetAsMatrix34()).all():
            raise RuntimeError(f"UpdateViewpoint(): X_WR is not finite (translation "
                               f"{X_WR.translation().tolist()}); the viewpoint is unchanged")
        self._X_WC = RigidTransform(X_WR)

    def default_render_label(self) -> RenderLabel:
        """The label of geometries without a ("label", "id") property (kDontCare)."""
        return self._default_label

    def GetRenderLabelOrThrow(self, properties) -> RenderLabel:
        """The ("label", "id") of `properties` (or the default label), checked.

        Raises:
          RuntimeError: the label is kUnspecified or kEmpty, or not a label.
        """
        value = properties.GetPropertyOrDefault("label", "id", self._default_label)
        if not isinstance(value, RenderLabel):
            if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
                value = RenderLabel(int(value)) if 0 <= int(value) <= RenderLabel.kMaxUnreserved \
                    else RenderLabel._make(int(value))
            else:
                raise RuntimeError(f"The property ('label', 'id') must be a RenderLabel; got "
                                   f"{type(value).__name__} ({value!r})")
        if int(value) in (int(RenderLabel.kUnspecified), int(RenderLabel.kEmpty)) or \
                not 0 <= int(value) <= 32767:
            raise RuntimeError(
                "Cannot register a geometry with the 'unspecified' or 'empty' render labels. "
                "The bad label may have come from a default-constructed RenderLabel or the "
                "RenderEngine may have provided it as a default for missing render labels in "
                "the properties.")
        return value

    def SetDefaultLightPosition(self, X_DL) -> None:
        """Points the default (head) light from X_DL towards the camera's focal
        point, in Drake's frame D attached to the camera (camera at (0, 0, 1)
        looking at the origin, up +Dy). Used only when no lights are given."""
        p_DL = np.asarray(X_DL, dtype=float).reshape(3)
        direction = -p_DL / np.linalg.norm(p_DL) if np.linalg.norm(p_DL) > 0 else \
            np.array([0.0, 0.0, -1.0])
        # C (+z forward, +y down) from D (camera looking along −Dz, up +Dy).
        self._head_light = np.array([direction[0], -direction[1], -direction[2]])

    @staticmethod
    def ThrowIfInvalid(intrinsics, image, image_type: str) -> None:
        """Raises RuntimeError if `image` is not the size the intrinsics give."""
        if image.width() != intrinsics.width() or image.height() != intrinsics.height():
            raise RuntimeError(
                f"The {image_type} image to write has a size different from that specified "
                f"in the camera intrinsics. Image: ({image.width()}, {image.height()}), "
                f"intrinsics: ({intrinsics.width()}, {intrinsics.height()})")

    def Clone(self) -> "RenderEngine":
        """An independent copy (visuals, viewpoint and parameters; mesh and texture
        data are shared, never modified). A Python subclass is copied by its
        DoClone() or, without one, copy.deepcopy (its ``__deepcopy__``); the copy
        keeps the registrations."""
        if not self._renders_natively:
            do_clone = getattr(type(self), "DoClone", None)
            other = self.DoClone() if do_clone is not None else copy.deepcopy(self)
            if not isinstance(other, RenderEngine):
                raise TypeError(f"{type(self).__name__}.Clone(): DoClone/__deepcopy__ must "
                                f"return a RenderEngine; got {type(other).__name__}")
            if not hasattr(other, "_virtual"):
                raise TypeError(f"{type(other).__name__}.__init__ must call "
                                f"RenderEngine.__init__")
            other._virtual = dict(self._virtual)
            other._seen = dict(self.__dict__.get("_seen", {}))     # see renderers.sync
            other._synced = self._synced
            return other
        other = copy.copy(self)
        other._visuals = {gid: copy.copy(v) for gid, v in self._visuals.items()}
        other._clone_caches(self)
        return other

    def _clone_caches(self, source) -> None:
        """Hook for subclasses: reset per-instance caches in a clone."""

    def GetParameterYaml(self) -> str:
        """The engine's parameters as YAML (DoGetParameterYaml)."""
        return self.DoGetParameterYaml()

    def DoGetParameterYaml(self) -> str:
        """Override point of GetParameterYaml; Drake's default text."""
        return "UnknownRenderEngine: {}"

    # --- pydrake's virtuals, for Python subclasses -------------------------------------
    def DoRegisterVisual(self, id, shape, properties, X_WG) -> bool:
        """Override point of RegisterVisual: True if the engine takes the geometry."""
        raise _pure_virtual("DoRegisterVisual")

    def DoUpdateVisualPose(self, id, X_WG) -> None:
        """Override point of UpdatePoses: geometry `id` is now posed X_WG [m]."""
        raise _pure_virtual("DoUpdateVisualPose")

    def DoRemoveGeometry(self, id) -> None:
        """Override point of RemoveGeometry."""
        raise _pure_virtual("DoRemoveGeometry")

    def DoRenderColorImage(self, camera, color_image_out) -> None:
        """Override point of RenderColorImage: fill `color_image_out` (ImageRgba8U)."""
        raise _pure_virtual("DoRenderColorImage")

    def DoRenderDepthImage(self, camera, depth_image_out) -> None:
        """Override point of RenderDepthImage: fill `depth_image_out` (ImageDepth32F) [m]."""
        raise _pure_virtual("DoRenderDepthImage")

    def DoRenderLabelImage(self, camera, label_image_out) -> None:
        """Override point of RenderLabelImage: fill `label_image_out` (ImageLabel16I)."""
        raise _pure_virtual("DoRenderLabelImage")

    # --- rendering -------------------------------------------------------------------
    def RenderColorImage(self, camera, color_image_out) -> None:
        """Renders the registered geometry into `color_image_out` (an ImageRgba8U of
        the camera's size) from the viewpoint (UpdateViewpoint)."""
        _check_camera(camera, ColorRenderCamera, "RenderColorImage")
        self._render_into(rk.COLOR, camera, color_image_out, ImageRgba8U, "color")

    def RenderDepthImage(self, camera, depth_image_out) -> None:
        """Renders depths [m] into `depth_image_out` (an ImageDepth32F)."""
        _check_camera(camera, DepthRenderCamera, "RenderDepthImage")
        self._render_into(rk.DEPTH, camera, depth_image_out, ImageDepth32F, "depth")

    def RenderLabelImage(self, camera, label_image_out) -> None:
        """Renders labels into `label_image_out` (an ImageLabel16I)."""
        _check_camera(camera, ColorRenderCamera, "RenderLabelImage")
        self._render_into(rk.LABEL, camera, label_image_out, ImageLabel16I, "label")

    def _render_into(self, mode, camera, image, image_type, name) -> None:
        if not isinstance(image, image_type):
            raise TypeError(f"Render{name.capitalize()}Image(): expected an "
                            f"{image_type.__name__}; got {type(image).__name__}")
        self.ThrowIfInvalid(camera.core().intrinsics(), image, name)
        if not self._renders_natively:
            getattr(self, f"DoRender{name.capitalize()}Image")(camera, image)
            return
        self._render(mode, camera, self._X_WC, image.mutable_data, None)

    def _render(self, mode, camera, X_WS, out, poses) -> None:
        raise NotImplementedError(f"{type(self).__name__} does not render; use "
                                  f"MakeRenderEngineVtk or MakeRenderEngineGl")

    # --- visuals ---------------------------------------------------------------------
    def _default_diffuse(self) -> np.ndarray:
        return np.array([0.9, 0.45, 0.1, 1.0])

    def _make_visual(self, id, shape, properties, X_WG, needs_updates, name):
        """A _Visual for the shape, or None for a shape this engine does not draw."""
        from scenegraph import shapes as S
        what = f"Geometry {id}" + (f" ('{name}')" if name else "")
        label = self.GetRenderLabelOrThrow(properties)
        v = _Visual()
        v.id, v.shape, v.properties, v.name = id, shape, properties, name
        v.R_WG, v.p_WG = X_WG.rotation().matrix().copy(), np.array(X_WG.translation())
        v.needs_updates, v.label, v.mesh = needs_updates, int(label), None
        v.box_c = np.zeros(3)
        v.size = np.zeros(3)
        if isinstance(shape, S.Sphere):
            r = shape.radius()
            v.kind, v.size[0], v.box_h = SPHERE, r, np.full(3, r)
        elif isinstance(shape, S.Box):
            h = np.array([shape.width(), shape.depth(), shape.height()]) / 2.0
            v.kind, v.size, v.box_h = BOX, h, h.copy()
        elif isinstance(shape, S.Capsule):
            r, h = shape.radius(), shape.length() / 2.0
            v.kind, v.size[:2], v.box_h = CAPSULE, (r, h), np.array([r, r, h + r])
        elif isinstance(shape, S.Cylinder):
            r, h = shape.radius(), shape.length() / 2.0
            v.kind, v.size[:2], v.box_h = CYLINDER, (r, h), np.array([r, r, h])
        elif isinstance(shape, S.Ellipsoid):
            abc = np.array([shape.a(), shape.b(), shape.c()])
            v.kind, v.size, v.box_h = ELLIPSOID, abc, abc.copy()
        elif isinstance(shape, S.HalfSpace):
            e = HALF_SPACE_EXTENT
            v.kind, v.size[0], v.box_h = HALF_SPACE, e, np.array([e, e, 0.0])
        elif isinstance(shape, (S.Mesh, S.Convex)):
            try:
                mesh = render_mesh(shape)
            except RuntimeError as exc:
                raise RuntimeError(f"{what}: {exc}") from None
            v.kind, v.mesh = MESH, mesh
            lo, hi = mesh.p_GV.min(axis=0), mesh.p_GV.max(axis=0)
            v.box_c, v.box_h = (lo + hi) / 2.0, (hi - lo) / 2.0
        else:
            _warn_once(f"{what}: RenderEngine does not draw a {type(shape).__name__}; the "
                       f"geometry is not rendered")
            return None
        diffuse = properties.GetPropertyOrDefault("phong", "diffuse", None)
        v.texels = None
        diffuse_map = properties.GetPropertyOrDefault("phong", "diffuse_map", None)
        if diffuse_map is not None and str(diffuse_map) != "":
            if os.path.isfile(os.fspath(diffuse_map)):
                v.texels = texture_texels(diffuse_map)
            else:
                _warn_once(f"warning: The ('phong', 'diffuse_map') property referenced a map "
                           f"that could not be found: '{diffuse_map}'")
        elif isinstance(shape, S.Mesh) and v.mesh is not None and not v.mesh.has_materials:
            source = shape.source()
            if source.is_path() and v.mesh.uv is not None:
                png = os.path.splitext(os.fspath(source.path()))[0] + ".png"
                if os.path.isfile(png):
                    v.texels = texture_texels(png)
        if diffuse is not None:
            v.diffuse = _rgba(diffuse, what)
        elif v.texels is not None:
            v.diffuse = np.ones(4)      # a texture alone is not tinted (Drake's rule)
        else:
            v.diffuse = self._default_diffuse()
        if v.mesh is not None and v.mesh.has_materials and (
                diffuse is not None or diffuse_map is not None):
            _warn_once(f"warning: The mesh {shape.source().description()} has its own "
                       f"materials, but material properties have been defined as well. They "
                       f"will be ignored")
        scale = properties.GetPropertyOrDefault("phong", "diffuse_scale", None)
        v.uv_scale = np.ones(2) if scale is None else \
            np.asarray(scale, dtype=float).reshape(2).copy()
        return v


class RenderEngineCpu(RenderEngine):
    """This library's render engine (see the module docstring): what
    MakeRenderEngineVtk and MakeRenderEngineGl build. ``params`` is a
    RenderEngineVtkParams or RenderEngineGlParams (default: VTK's)."""

    _renders_natively = True

    def __init__(self, params=None):
        super().__init__()
        if params is None:
            params = RenderEngineVtkParams()
        if not isinstance(params, (RenderEngineVtkParams, RenderEngineGlParams)):
            raise TypeError(f"RenderEngineCpu(): params must be RenderEngineVtkParams or "
                            f"RenderEngineGlParams; got {type(params).__name__}")
        params._validate()
        self._params = copy.deepcopy(params)
        self._diffuse = params._diffuse().astype(float)
        self._clear = np.asarray(params._clear(), dtype=float)
        self._lights = list(self._params.lights)
        self._head_light = None
        unrendered = params._unrendered()
        if unrendered:
            _warn_once(f"RenderEngineCpu does not render {', '.join(unrendered)} (set in "
                       f"{type(params).__name__}); they are ignored")
        self._clone_caches(None)

    def _clone_caches(self, source) -> None:
        self._pack_cache = None          # (revision, _Pack)
        self._scratch = None
        self._rows = None                # (topology, revision, rows)

    def _default_diffuse(self) -> np.ndarray:
        return self._diffuse

    def GetParameterYaml(self) -> str:
        """The parameters as YAML, prefixed with their type's name (as Drake's)."""
        return params_yaml(self._params)

    def _render(self, mode, camera, X_WS, out, poses) -> None:
        """Renders image kind `mode` from the sensor pose X_WS into `out` ((H, W, C)
        array). poses: (R_WG (n, 3, 3), p_WG (n, 3)) in the pack's order, or
        None for the stored poses."""
        core = camera.core()
        info = core.intrinsics()
        W, H = info.width(), info.height()
        clipping = core.clipping()
        cam = np.array([W, H, info.focal_x(), info.focal_y(), info.center_x(),
                        info.center_y(), clipping.near(), clipping.far()])
        X_SW = X_WS.inverse()
        R_CW = np.ascontiguousarray(X_SW.rotation().matrix(), dtype=float)
        p_CW = np.ascontiguousarray(X_SW.translation(), dtype=float)
        pack = self._packed()
        R_WG, p_WG = (pack.R_WG, pack.p_WG) if poses is None else poses
        if self._lights or self._head_light is None:
            lights = light_table(self._lights, R_CW, p_CW)
        else:
            lights = light_table([], R_CW, p_CW)
            lights[0, 7:10] = self._head_light
        depth_range = np.zeros(2)
        if mode == rk.DEPTH:
            depth_range[:] = (camera.depth_range().min_depth(),
                              camera.depth_range().max_depth())
        scratch = self._buffers(H, W, pack)
        R_CG, p_CG, o_G, rect, key, p_CV, tedge, trect, zbuf, gbuf, tbuf = scratch
        visible = pack.visible_label if mode == rk.LABEL else pack.visible
        rk.setup_scene(cam, R_CW, p_CW, pack.kind, pack.box_c, pack.box_h, R_WG, p_WG, visible,
                       pack.closed, R_CG, p_CG, o_G, rect, key, pack.vert_geo, pack.p_GV, p_CV,
                       pack.tri, pack.tri_geo, tedge, trect)
        order = np.argsort(key, kind="stable")
        two_layers = mode == rk.COLOR and bool(
            (pack.translucent & (rect[:, 0] <= rect[:, 1])).any())
        dummy_f, dummy_l, dummy_c = _DUMMIES
        args = (two_layers, cam, order, rect, pack.kind, pack.size, R_CG, p_CG, o_G,
                pack.translucent, pack.geo_tri, trect, tedge, pack.tri, pack.n_V, pack.uv_V,
                pack.col_V, pack.tri_mat, pack.geo_mat, pack.mat_color, pack.mat_tex,
                pack.uv_scale, pack.tex_data, pack.tex_info, lights, self._clear, depth_range,
                pack.labels, np.int16(int(RenderLabel.kEmpty)), zbuf, gbuf, tbuf,
                out[:, :, 0] if mode == rk.DEPTH else dummy_f,
                out[:, :, 0] if mode == rk.LABEL else dummy_l,
                out if mode == rk.COLOR else dummy_c)
        _run_workers(mode, H, args)

    def _buffers(self, H, W, pack):
        """Scratch arrays for an H × W image of `pack` (kept between images)."""
        scratch = self._scratch
        if scratch is None or scratch[0] is not pack or scratch[1] != (H, W):
            n, nV, nT = len(pack.kind), len(pack.p_GV), len(pack.tri)
            arrays = (np.empty((n, 3, 3)), np.empty((n, 3)), np.empty((n, 3)),
                      np.empty((n, 5), dtype=np.int64), np.empty(n), np.empty((nV, 3)),
                      np.empty((nT, 10)), np.empty((nT, 4), dtype=np.int64))
            if scratch is not None and scratch[1] == (H, W):
                images = scratch[2][8:]
            else:
                images = (np.empty((2, H, W)), np.empty((2, H, W), dtype=np.int64),
                          np.empty((2, H, W), dtype=np.int64))
            scratch = self._scratch = (pack, (H, W), arrays + images)
        return scratch[2]

    def _packed(self) -> "_Pack":
        cached = self._pack_cache
        if cached is not None and cached[0] == self._revision:
            return cached[1]
        pack = _Pack(list(self._visuals.values()))
        self._pack_cache = (self._revision, pack)
        return pack

    def __repr__(self) -> str:
        return f"<RenderEngineCpu ({type(self._params).__name__}), {len(self._visuals)} visuals>"

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_pack_cache"] = state["_scratch"] = state["_rows"] = None
        return state


#: Threads that render one image (None: the number of CPUs); see set_render_threads.
_THREADS = {"count": None, "pool": None}


def set_render_threads(count) -> None:
    """Extension: the number of threads that render each image (default: one per
    CPU, os.cpu_count()). Each renders its own bands of rows."""
    count = None if count is None else int(count)
    if count is not None and count < 1:
        raise ValueError(f"set_render_threads(): count must be >= 1; got {count}")
    _THREADS["count"] = count


def render_threads() -> int:
    """The number of threads that render each image."""
    return _THREADS["count"] or os.cpu_count() or 1


def _run_workers(mode, H, args) -> None:
    """rk.render_bands for every worker: worker 0 on this thread, the others on
    a pool (the kernels release the GIL)."""
    n = max(1, min(render_threads(), (H + rk.BAND_ROWS - 1) // rk.BAND_ROWS))
    if n == 1:
        rk.render_bands(mode, 0, 1, *args)
        return
    pool = _THREADS["pool"]
    if pool is None or pool._max_workers < n - 1:
        from concurrent.futures import ThreadPoolExecutor
        pool = _THREADS["pool"] = ThreadPoolExecutor(max_workers=n - 1,
                                                     thread_name_prefix="render")
    futures = [pool.submit(rk.render_bands, mode, w, n, *args) for w in range(1, n)]
    rk.render_bands(mode, 0, n, *args)
    for future in futures:
        future.result()


_DUMMIES = (np.empty((1, 1), dtype=np.float32), np.empty((1, 1), dtype=np.int16),
            np.empty((1, 1, 4), dtype=np.uint8))


class _Pack:
    """The kernels' arrays for a list of visuals (see render_image)."""

    def __init__(self, visuals):
        n = len(visuals)
        self.ids = [v.id for v in visuals]
        self.kind = np.array([v.kind for v in visuals], dtype=np.int64)
        self.size = _stack([v.size for v in visuals], (0, 3))
        self.box_c = _stack([v.box_c for v in visuals], (0, 3))
        self.box_h = _stack([v.box_h for v in visuals], (0, 3))
        self.R_WG = _stack([v.R_WG for v in visuals], (0, 3, 3))
        self.p_WG = _stack([v.p_WG for v in visuals], (0, 3))
        self.labels = np.array([v.label for v in visuals], dtype=np.int16)
        self.visible = np.ones(n, dtype=np.bool_)
        self.visible_label = self.labels != np.int16(int(RenderLabel.kDoNotRender))
        self.uv_scale = _stack([v.uv_scale for v in visuals], (0, 2))
        textures, texture_index = [], {}

        def texture(texels):
            if texels is None:
                return -1
            key = id(texels)
            if key not in texture_index:
                texture_index[key] = len(textures)
                textures.append(texels)
            return texture_index[key]

        mat_color, mat_tex = [], []
        geo_mat = np.zeros(n, dtype=np.int64)
        geo_tri = np.zeros((n, 2), dtype=np.int64)
        tri, tri_geo, tri_mat = [], [], []
        P, N, UV, C, vert_geo = [], [], [], [], []
        translucent = np.zeros(n, dtype=np.bool_)
        n_vertices = n_triangles = 0
        for g, v in enumerate(visuals):
            geo_mat[g] = len(mat_color)
            mat_color.append(v.diffuse)
            mat_tex.append(texture(v.texels))
            translucent[g] = v.diffuse[3] < 1.0
            mesh = v.mesh
            if mesh is None:
                continue
            part_mat = []
            for diffuse, texels in mesh.parts:
                if diffuse is None:
                    part_mat.append(geo_mat[g])
                    continue
                part_mat.append(len(mat_color))
                mat_color.append(np.asarray(diffuse, dtype=float))
                mat_tex.append(-2 if isinstance(texels, str) else texture(texels))
            geo_tri[g] = (n_triangles, len(mesh.faces))
            tri.append(mesh.faces + n_vertices)
            tri_geo.append(np.full(len(mesh.faces), g, dtype=np.int64))
            tri_mat.append(np.asarray(part_mat, dtype=np.int64)[mesh.tri_part])
            P.append(mesh.p_GV)
            N.append(mesh.normals)
            UV.append(mesh.uv if mesh.uv is not None else np.zeros((len(mesh.p_GV), 2)))
            C.append(mesh.colors if mesh.colors is not None else np.ones((len(mesh.p_GV), 4)))
            vert_geo.append(np.full(len(mesh.p_GV), g, dtype=np.int64))
            n_vertices += len(mesh.p_GV)
            n_triangles += len(mesh.faces)
        self.translucent = translucent
        self.closed = np.array([v.mesh is not None and v.mesh.closed for v in visuals],
                               dtype=np.bool_)
        self.geo_mat, self.geo_tri = geo_mat, geo_tri
        self.mat_color = _stack(mat_color, (0, 4))
        self.mat_tex = np.array(mat_tex, dtype=np.int64)
        self.tri = _cat(tri, (0, 3), np.int64)
        self.tri_geo = _cat(tri_geo, (0,), np.int64)
        self.tri_mat = _cat(tri_mat, (0,), np.int64)
        self.p_GV = _cat(P, (0, 3), float)
        self.n_V = _cat(N, (0, 3), float)
        self.uv_V = _cat(UV, (0, 2), float)
        self.col_V = _cat(C, (0, 4), float)
        self.vert_geo = _cat(vert_geo, (0,), np.int64)
        info = np.zeros((len(textures), 3), dtype=np.int64)
        offset = 0
        for k, texels in enumerate(textures):
            h, w = texels.shape[:2]
            info[k] = (offset, w, h)
            offset += w * h
        self.tex_info = info
        self.tex_data = np.ascontiguousarray(
            np.concatenate([t.reshape(-1, 4) for t in textures]) if textures
            else np.zeros((0, 4), dtype=np.uint8), dtype=np.uint8)


def _stack(rows, empty_shape):
    if not rows:
        return np.zeros(empty_shape)
    return np.ascontiguousarray(np.stack(rows), dtype=float)


def _cat(parts, empty_shape, dtype):
    if not parts:
        return np.zeros(empty_shape, dtype=dtype)
    return np.ascontiguousarray(np.concatenate(parts), dtype=dtype)


def _check_camera(camera, cls, method: str) -> None:
    if not isinstance(camera, cls):
        raise TypeError(f"{method}(): camera must be a {cls.__name__}; got "
                        f"{type(camera).__name__}")


def MakeRenderEngineVtk(params) -> RenderEngine:
    """A RenderEngineCpu with RenderEngineVtk's parameters and defaults (this library
    has no VTK: GetRendererTypeName reports 'scenegraph.render.RenderEngineCpu').

    Raises:
      RuntimeError: an invalid backend or light (Drake's checks).
    """
    if not isinstance(params, RenderEngineVtkParams):
        raise TypeError(f"MakeRenderEngineVtk(): params must be a RenderEngineVtkParams; got "
                        f"{type(params).__name__}")
    return RenderEngineCpu(params)


def MakeRenderEngineGl(params=None) -> RenderEngine:
    """A RenderEngineCpu with RenderEngineGl's parameters and defaults (no OpenGL
    here: GetRendererTypeName reports 'scenegraph.render.RenderEngineCpu').

    Raises:
      RuntimeError: more than five lights, or an invalid light.
    """
    if params is None:
        params = RenderEngineGlParams()
    if not isinstance(params, RenderEngineGlParams):
        raise TypeError(f"MakeRenderEngineGl(): params must be a RenderEngineGlParams; got "
                        f"{type(params).__name__}")
    return RenderEngineCpu(params)


_WARNED: set = set()


def _warn_once(message: str) -> None:
    if message not in _WARNED:
        _WARNED.add(message)
        _log.warning(message)
