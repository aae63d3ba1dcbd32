"""Renderers in a GeometryState, and the QueryObject's Render*Image queries.

Each GeometryState (SceneGraph's model and every context's copy) holds its
render engines by name in ``state._renderers``; copying the state clones them.
An engine takes every geometry with the perception role whose
``("renderer", "accepting")`` property is empty, absent, or names it.

Registration is brought up to date at AddRenderer and before every render:
the state's perception version changes whenever perception data changes
while it has a renderer (GeometryState._bump), and an engine re-registers
what changed when the version it last saw is not the state's. A render of an
unchanged scene therefore costs one identity test here.

The compiled kernels are compiled (or loaded from numba's cache) at
AddRenderer, not at the first image (``warm_up``).
"""
from __future__ import annotations

import time

import numpy as np

from scenegraph.geometry_roles import Role
from scenegraph.identifiers import FrameId
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.render import raster_kernels as rk
from scenegraph.render.cameras import ColorRenderCamera, DepthRenderCamera
from scenegraph.render.engine import RenderEngine
from scenegraph.render.images import ImageDepth32F, ImageLabel16I, ImageRgba8U

__all__ = ["add_renderer", "prepare_renderer", "commit_renderer", "remove_renderer", "has_renderer", "renderer_count",
           "renderer_type_name", "renderer_parameter_yaml", "renderer_names", "render",
           "warm_up", "compile_seconds"]

#: Seconds the first warm_up of this process took (numba compile or cache load).
_COMPILE = {"seconds": None}


def _renderers(state) -> dict:
    renderers = getattr(state, "_renderers", None)
    if renderers is None:      # a state unpickled from before renderers existed
        renderers = state._renderers = {}
    return renderers


def _check_name(name, method: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"{method}(): name must be a str; got {type(name).__name__}")
    return name


def add_renderer(state, name, renderer) -> None:
    """Adds a clone of `renderer` to `state` as `name` and registers the state's
    perception geometries with it (the perception version changes if it takes
    any).

    Raises:
      RuntimeError: the name is taken, or a geometry's perception properties
        are refused (its label, a mesh file), naming the geometry; nothing
        changes.
      TypeError: `renderer` is not a RenderEngine.
    """
    engine, taken = prepare_renderer(state, name, renderer)
    commit_renderer(state, name, engine, taken)


def prepare_renderer(state, name, renderer) -> tuple:
    """(the clone of `renderer` registered with `state`'s perception geometries,
    whether it took any), checking everything add_renderer checks; `state` is
    only read."""
    _check_name(name, "AddRenderer")
    if not isinstance(renderer, RenderEngine):
        raise TypeError(f"AddRenderer(): renderer must be a RenderEngine (e.g. "
                        f"MakeRenderEngineVtk(RenderEngineVtkParams())); got "
                        f"{type(renderer).__name__}")
    if name in _renderers(state):
        raise RuntimeError(f"AddRenderer(): A renderer with the name '{name}' already exists")
    engine = renderer.Clone()
    engine._synced = None
    taken = sync(state, name, engine)
    return engine, taken


def commit_renderer(state, name, engine, taken) -> None:
    """Adds a prepared engine (prepare_renderer) to `state`."""
    _renderers(state)[name] = engine
    if taken:
        state._version._bump(Role.kPerception)
    warm_up()


def remove_renderer(state, name) -> None:
    """Removes the renderer `name` from `state`.

    Raises:
      RuntimeError: there is no renderer of that name.
    """
    _check_name(name, "RemoveRenderer")
    renderers = _renderers(state)
    if name not in renderers:
        raise RuntimeError(f"RemoveRenderer(): A renderer with the name '{name}' does not exist")
    del renderers[name]


def has_renderer(state, name) -> bool:
    """True if `state` has a renderer called `name`."""
    return _check_name(name, "HasRenderer") in _renderers(state)


def renderer_count(state) -> int:
    """How many renderers `state` has."""
    return len(_renderers(state))


def renderer_names(state) -> list:
    """The names of `state`'s renderers, sorted."""
    return sorted(_renderers(state))


def renderer_type_name(state, name) -> str:
    """The engine type of renderer `name` ('' if there is none); this library's
    engine is 'scenegraph.render.RenderEngineCpu' whichever factory made it."""
    engine = _renderers(state).get(_check_name(name, "GetRendererTypeName"))
    if engine is None:
        return ""
    cls = type(engine)
    module = cls.__module__
    if module.startswith("scenegraph.render."):
        module = "scenegraph.render"
    return f"{module}.{cls.__qualname__}"


def renderer_parameter_yaml(state, name) -> str:
    """The parameters of renderer `name` as YAML ('' if there is none)."""
    engine = _renderers(state).get(_check_name(name, "GetRendererParameterYaml"))
    return "" if engine is None else engine.GetParameterYaml()


def _accepts(properties, name: str) -> bool:
    accepting = properties.GetPropertyOrDefault("renderer", "accepting", None)
    if not accepting:
        return True
    if isinstance(accepting, str):
        return accepting == name
    return name in accepting


def sync(state, name: str, engine) -> bool:
    """Brings `engine`'s registrations up to date with `state`'s perception
    geometries; True if it registered or removed any."""
    token = state._version._tokens[Role.kPerception]
    if engine._synced is token:
        return False
    changed = False
    wanted = {}
    for gid, g in state._geometries.items():
        props = g.props.get(Role.kPerception)
        if props is not None and _accepts(props, name):
            wanted[gid] = (g, props)
    if not engine._renders_natively:
        changed = _sync_python_engine(engine, wanted)
        engine._synced = token
        return changed
    for gid in [gid for gid in engine._visuals if gid not in wanted]:
        engine.RemoveGeometry(gid)
        changed = True
    new_visuals = {}
    for gid, (g, props) in wanted.items():
        visual = engine._visuals.get(gid)
        if visual is not None and visual.shape is g.shape and visual.properties is props:
            new_visuals[gid] = visual
            continue
        anchored = g.is_anchored()
        X_WG = g.X_FG if anchored else RigidTransform()
        try:
            made = engine._make_visual(gid, g.shape, props, X_WG, not anchored, g.name)
        except RuntimeError as exc:
            raise RuntimeError(f"Renderer '{name}' cannot take geometry {gid} ('{g.name}'): "
                               f"{exc}") from None
        changed = True
        if made is not None:
            new_visuals[gid] = made
    if changed or len(new_visuals) != len(engine._visuals):
        engine._visuals = new_visuals
        engine._revision += 1
    engine._synced = token
    return changed


def _sync_python_engine(engine, wanted) -> bool:
    """sync() for a Python RenderEngine subclass: its RemoveGeometry and
    RegisterVisual (hence DoRemoveGeometry, DoRegisterVisual) for what changed."""
    seen = engine.__dict__.setdefault("_seen", {})     # gid -> (shape, properties) offered
    changed = False
    for gid in [gid for gid in seen if gid not in wanted or
                seen[gid][0] is not wanted[gid][0].shape or seen[gid][1] is not wanted[gid][1]]:
        engine.RemoveGeometry(gid)
        del seen[gid]
        changed = True
    for gid, (g, props) in wanted.items():
        if gid in seen:
            continue
        anchored = g.is_anchored()
        engine.RegisterVisual(gid, g.shape, props, g.X_FG if anchored else RigidTransform(),
                              not anchored)
        seen[gid] = (g.shape, props)
        changed = True
    return changed


def _render_python_engine(engine, image, camera, X_WS, poses, method) -> None:
    """A Python RenderEngine subclass renders as in pydrake: UpdatePoses of its
    moving geometries, UpdateViewpoint(X_WS), then its Render*Image method."""
    moving = [gid for gid, needs in engine._virtual.items() if needs]
    if moving:
        engine.UpdatePoses({gid: poses.X_WG(gid) for gid in moving})
    engine.UpdateViewpoint(X_WS)
    getattr(engine, method)(camera, image)


def _world_pose_rows(engine, pack, topology) -> np.ndarray:
    rows = engine._rows
    if rows is None or rows[0] is not topology or rows[1] is not pack:
        index = topology.geometry_index
        rows = engine._rows = (topology, pack,
                               np.array([index[gid] for gid in pack.ids], dtype=np.int64))
    return rows[2]


_IMAGES = {rk.COLOR: (ColorRenderCamera, ImageRgba8U),
           rk.DEPTH: (DepthRenderCamera, ImageDepth32F),
           rk.LABEL: (ColorRenderCamera, ImageLabel16I)}


def render(query_object, mode: int, camera, parent_frame, X_PC, method: str):
    """The image of kind `mode` taken by `camera` whose body B is posed X_PC in
    frame `parent_frame` (the sensor at X_WS = X_WP·X_PC·X_BS), from the
    geometry state and poses `query_object` reads.

    Raises:
      TypeError: arguments of the wrong type.
      RuntimeError: no renderer of the camera's name, an unregistered frame, or
        a camera pose that is not finite.
    """
    camera_type, image_type = _IMAGES[mode]
    if not isinstance(camera, camera_type):
        raise TypeError(f"{method}(): camera must be a {camera_type.__name__}; got "
                        f"{type(camera).__name__}")
    if not isinstance(parent_frame, FrameId):
        raise TypeError(f"{method}(): parent_frame must be a FrameId; got "
                        f"{type(parent_frame).__name__}")
    if not isinstance(X_PC, RigidTransform):
        raise TypeError(f"{method}(): X_PC must be a RigidTransform; got {type(X_PC).__name__}")
    state = query_object._state()
    state._frame(parent_frame)
    name = camera.core().renderer_name()
    renderers = _renderers(state)
    engine = renderers.get(name)
    if engine is None:
        have = ", ".join(f"'{n}'" for n in sorted(renderers)) or "none"
        raise RuntimeError(f"No renderer exists with name: '{name}' (this SceneGraph's "
                           f"renderers: {have}; add one with SceneGraph.AddRenderer)")
    poses = query_object._poses()
    X_BS = camera.core().sensor_pose_in_camera_body()
    X_WS = poses.X_WF(parent_frame) @ X_PC @ X_BS
    if not np.isfinite(X_WS.GetAsMatrix34()).all():
        raise RuntimeError(f"{method}(): the camera's pose is not finite (X_PC: translation "
                           f"{X_PC.translation().tolist()}, X_BS: translation "
                           f"{X_BS.translation().tolist()}); no image is rendered from it")
    sync(state, name, engine)
    info = camera.core().intrinsics()
    image = image_type(info.width(), info.height())
    if not engine._renders_natively:
        _render_python_engine(engine, image, camera, X_WS, poses, method)
        return image
    pack = engine._packed()
    rows = _world_pose_rows(engine, pack, poses.topology)
    engine._render(mode, camera, X_WS, image.mutable_data,
                   (np.ascontiguousarray(poses.R_WG[rows]),
                    np.ascontiguousarray(poses.p_WG[rows])))
    return image


def warm_up() -> None:
    """Compiles (or loads from numba's cache) the render kernel once per process,
    so the first image inside a simulation does not pay for it."""
    if _COMPILE["seconds"] is not None:
        return
    from scenegraph.render.cameras import ClippingRange, RenderCameraCore
    from scenegraph.render.camera_info import CameraInfo
    from scenegraph.render.engine import RenderEngineCpu
    start = time.perf_counter()
    engine = RenderEngineCpu()
    camera = ColorRenderCamera(RenderCameraCore("warm-up", CameraInfo(2, 2, 1.0),
                                                ClippingRange(0.1, 1.0), RigidTransform()))
    engine.RenderLabelImage(camera, ImageLabel16I(2, 2))
    _COMPILE["seconds"] = time.perf_counter() - start


def compile_seconds():
    """Seconds this process spent compiling or loading the render kernel (None
    before the first warm_up)."""
    return _COMPILE["seconds"]
