"""Render scenes as plain data, built the same way by this library and by pydrake.

This module imports only numpy and the standard library. The very same
scenes are rendered by tools/render_drake_reference.py and
tools/drake_bench_render.py (pydrake 1.51.1) and by the tests and
benchmarks/bench_render.py (this library): ``build(scene, ns)`` takes a
namespace of either library's classes (``pydrake_namespace()`` /
``scenegraph_namespace()``), so both see identical shapes, poses, colours,
labels and cameras.

A scene:

    {"name": str, "size": (W, H), "fov_y": rad, "clipping": (near, far) [m],
     "depth_range": (min, max) [m], "X_WC": {"R": (3, 3), "p": (3,)},
     "lights": None or [{"type", "frame", "position", "direction", "color",
                         "intensity", "attenuation_values", "cone_angle"}],
     "geometries": [{"name", "shape": {"type", ...Drake parameter names...},
                     "R": (3, 3), "p": (3,) (X_WG), "diffuse": (4,) or None,
                     "diffuse_map": file name in ASSETS or None,
                     "label": int or None}]}

Shapes: Sphere{radius}, Box{width, depth, height}, Capsule/Cylinder{radius,
length}, Ellipsoid{a, b, c}, HalfSpace{}, Mesh/Convex{file (in ASSETS),
scale}. Geometries are anchored except those named "moving*", which hang on
one frame "body" whose pose ``body_pose(k)`` changes per benchmark call.
"""
from __future__ import annotations

import math
import pathlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[3]
ASSETS = ROOT / "tests" / "reference_data" / "render"
REFERENCE = ASSETS / "drake_render_reference.npz"


def look_at(eye, target, up=(0.0, 0.0, 1.0)) -> dict:
    """X_WC of a camera at `eye` looking at `target` (+Cz forward, +Cy down,
    image up along `up`)."""
    eye, target, up = (np.asarray(v, dtype=float) for v in (eye, target, up))
    z = target - eye
    z /= np.linalg.norm(z)
    x = np.cross(z, up)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    return {"R": np.column_stack([x, y, z]).tolist(), "p": eye.tolist()}


def rpy(roll, pitch, yaw) -> list:
    """R = Rz(yaw)·Ry(pitch)·Rx(roll) (Drake's RollPitchYaw) as nested lists."""
    cr, sr, cp, sp, cy, sy = (math.cos(roll), math.sin(roll), math.cos(pitch),
                              math.sin(pitch), math.cos(yaw), math.sin(yaw))
    Rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    Ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    Rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    return (Rz @ Ry @ Rx).tolist()


def _geometry(name, shape, R, p, diffuse=None, label=None, diffuse_map=None) -> dict:
    return {"name": name, "shape": shape, "R": R, "p": list(p), "diffuse": diffuse,
            "label": label, "diffuse_map": diffuse_map}


def _scene(name, geometries, eye, target, size=(128, 96), fov_y=0.8, clipping=(0.1, 20.0),
           depth_range=(0.15, 15.0), lights=None) -> dict:
    return {"name": name, "size": list(size), "fov_y": fov_y, "clipping": list(clipping),
            "depth_range": list(depth_range), "X_WC": look_at(eye, target), "lights": lights,
            "geometries": geometries}


def reference_scenes() -> list:
    """The scenes rendered side by side with pydrake (see the module docstring)."""
    I3 = np.eye(3).tolist()
    primitives = _scene("primitives", [
        _geometry("sphere", {"type": "Sphere", "radius": 0.3}, I3, (-0.8, 0.0, 0.3),
                  (0.8, 0.2, 0.2, 1.0), 1),
        _geometry("box", {"type": "Box", "width": 0.4, "depth": 0.3, "height": 0.5},
                  rpy(0.3, 0.2, 0.6), (0.0, 0.0, 0.3), (0.2, 0.7, 0.3, 1.0), 2),
        _geometry("capsule", {"type": "Capsule", "radius": 0.15, "length": 0.4},
                  rpy(0.9, 0.1, 0.3), (0.8, 0.0, 0.35), (0.2, 0.3, 0.8, 1.0), 3),
        _geometry("cylinder", {"type": "Cylinder", "radius": 0.2, "length": 0.4},
                  rpy(1.1, 0.4, 0.0), (-0.4, 0.7, 0.3), (0.8, 0.8, 0.2, 1.0), 4),
        _geometry("ellipsoid", {"type": "Ellipsoid", "a": 0.3, "b": 0.15, "c": 0.2},
                  rpy(0.2, -0.4, 0.9), (0.5, 0.75, 0.3), (0.7, 0.3, 0.7, 1.0), 5),
    ], eye=(0.0, -2.6, 1.4), target=(0.0, 0.3, 0.3))
    meshes = _scene("meshes", [
        _geometry("convex", {"type": "Convex", "file": "ico_smooth.obj", "scale": 0.3},
                  rpy(0.1, 0.2, 0.3), (-0.6, 0.0, 0.3), (0.3, 0.6, 0.9, 1.0), 11),
        _geometry("mesh", {"type": "Mesh", "file": "ico_smooth.obj", "scale": 0.3},
                  rpy(0.1, 0.2, 0.3), (0.1, 0.1, 0.3), (0.9, 0.5, 0.3, 1.0), 12),
        _geometry("textured_mesh", {"type": "Mesh", "file": "cube_tex.obj", "scale": 0.45},
                  rpy(0.4, 0.3, 0.5), (0.75, 0.1, 0.3), None, 13),
    ], eye=(0.2, -2.2, 1.2), target=(0.1, 0.1, 0.3))
    textures = _scene("textures", [
        _geometry("tex_box", {"type": "Box", "width": 0.5, "depth": 0.5, "height": 0.5},
                  rpy(0.3, 0.2, 0.6), (-0.7, 0.0, 0.3), None, 21, "quad.png"),
        _geometry("tex_sphere", {"type": "Sphere", "radius": 0.3}, rpy(0.2, 0.1, 0.4),
                  (0.0, 0.0, 0.3), (0.9, 1.0, 1.0, 1.0), 22, "quad.png"),
        _geometry("tex_ellipsoid", {"type": "Ellipsoid", "a": 0.3, "b": 0.2, "c": 0.25},
                  rpy(0.5, 0.1, 0.2), (0.7, 0.0, 0.3), None, 23, "quad.png"),
    ], eye=(0.0, -2.4, 1.0), target=(0.0, 0.0, 0.3))
    floor = _scene("floor", [
        _geometry("floor", {"type": "HalfSpace"}, I3, (0.0, 0.0, 0.0), (0.6, 0.6, 0.6, 1.0),
                  31),
        _geometry("block", {"type": "Box", "width": 0.3, "depth": 0.3, "height": 0.3},
                  rpy(0.0, 0.0, 0.5), (0.2, 0.3, 0.15), (0.8, 0.4, 0.1, 1.0), 32),
        _geometry("ball", {"type": "Sphere", "radius": 0.2}, I3, (-0.4, 0.1, 0.2),
                  (0.2, 0.5, 0.8, 1.0), 33),
    ], eye=(0.0, -1.8, 1.3), target=(0.0, 0.3, 0.0), clipping=(0.1, 8.0),
        depth_range=(0.15, 6.0))
    lights = _scene("lights", [
        _geometry("floor", {"type": "HalfSpace"}, I3, (0.0, 0.0, 0.0), (0.7, 0.7, 0.7, 1.0),
                  41),
        _geometry("ball", {"type": "Sphere", "radius": 0.25}, I3, (0.0, 0.0, 0.25),
                  (0.9, 0.9, 0.9, 1.0), 42),
        _geometry("post", {"type": "Cylinder", "radius": 0.1, "length": 0.6}, I3,
                  (0.6, 0.3, 0.3), (0.5, 0.8, 0.5, 1.0), 43),
    ], eye=(0.0, -2.0, 1.5), target=(0.1, 0.1, 0.2), clipping=(0.1, 8.0),
        depth_range=(0.15, 6.0),
        lights=[{"type": "directional", "frame": "world", "position": [0, 0, 0],
                 "direction": [0.3, 0.5, -1.0], "color": [1.0, 0.9, 0.8, 1.0],
                 "intensity": 0.8, "attenuation_values": [1, 0, 0], "cone_angle": 0.0},
                {"type": "point", "frame": "world", "position": [-0.8, -0.6, 1.0],
                 "direction": [0, 0, 1], "color": [0.6, 0.6, 1.0, 1.0], "intensity": 0.6,
                 "attenuation_values": [1, 0, 0], "cone_angle": 0.0}])
    return [primitives, meshes, textures, floor, lights, mixed_scene(24, size=(160, 120))]


def mixed_scene(n: int, seed: int = 0, size=(640, 480), floor: bool = True) -> dict:
    """n seeded primitives of every kind (sphere, box, capsule, cylinder,
    ellipsoid, in turn) scattered over a 2 m × 1.4 m patch, with a floor
    (counted in n) seen from 2.5 m: the benchmark scene."""
    rng = np.random.default_rng(seed)
    shapes = [lambda: {"type": "Sphere", "radius": 0.1},
              lambda: {"type": "Box", "width": 0.15, "depth": 0.1, "height": 0.2},
              lambda: {"type": "Capsule", "radius": 0.05, "length": 0.15},
              lambda: {"type": "Cylinder", "radius": 0.06, "length": 0.15},
              lambda: {"type": "Ellipsoid", "a": 0.1, "b": 0.06, "c": 0.08}]
    geometries = []
    if floor:
        geometries.append(_geometry("floor", {"type": "HalfSpace"}, np.eye(3).tolist(),
                                    (0.0, 0.0, 0.0), (0.6, 0.6, 0.6, 1.0), 100))
    for i in range(n - len(geometries)):
        R = rpy(*rng.uniform(-3, 3, 3))
        p = (rng.uniform(-1, 1), rng.uniform(-0.7, 0.7), rng.uniform(0.05, 0.5))
        name = f"moving{i}" if i % 2 else f"g{i}"
        geometries.append(_geometry(name, shapes[i % 5](), R, p,
                                    tuple(rng.uniform(0.2, 1.0, 3)) + (1.0,), i + 1))
    return _scene(f"mixed{n}", geometries, eye=(0.0, -2.5, 2.0), target=(0.0, 0.0, 0.2),
                  size=size, fov_y=math.pi / 4, clipping=(0.1, 10.0), depth_range=(0.15, 9.0))


def body_pose(k: int) -> tuple:
    """(R, p) of the "body" frame at benchmark call k: a small seeded wobble."""
    rng = np.random.default_rng(1000 + k)
    return np.array(rpy(*rng.normal(0, 0.02, 3))), rng.normal(0, 0.01, 3)


def _namespace(module_names) -> dict:
    import importlib
    ns = {}
    for module_name in module_names:
        module = importlib.import_module(module_name)
        ns.update({k: getattr(module, k) for k in dir(module) if not k.startswith("_")})
    return ns


def pydrake_namespace() -> dict:
    """pydrake's classes (tools/ only: the library and its tests never import pydrake)."""
    return _namespace(["pydrake.geometry", "pydrake.math", "pydrake.systems.sensors"])


def scenegraph_namespace() -> dict:
    """This library's classes under pydrake's names."""
    return _namespace(["scenegraph", "scenegraph.math", "scenegraph.sensors",
                       "scenegraph.render"])


def build(scene: dict, ns: dict, renderer_name: str = "renderer"):
    """(scene_graph, context, body_frame_id or None, source_id, cameras) for the
    scene in library `ns`; cameras = (ColorRenderCamera, DepthRenderCamera,
    X_WC). The renderer is MakeRenderEngineVtk with the scene's lights."""
    sg = ns["SceneGraph"]()
    lights = []
    for light in scene["lights"] or []:
        lights.append(ns["LightParameter"](
            type=light["type"], frame=light["frame"],
            position=np.asarray(light["position"], dtype=float),
            direction=np.asarray(light["direction"], dtype=float),
            color=ns["Rgba"](*light["color"]), intensity=float(light["intensity"]),
            attenuation_values=np.asarray(light["attenuation_values"], dtype=float),
            cone_angle=float(light["cone_angle"])))
    params = ns["RenderEngineVtkParams"](lights=lights) if lights else \
        ns["RenderEngineVtkParams"]()
    sg.AddRenderer(renderer_name, ns["MakeRenderEngineVtk"](params))
    source_id = sg.RegisterSource("scene")
    body = None
    RigidTransform, RotationMatrix = ns["RigidTransform"], ns["RotationMatrix"]
    for geometry in scene["geometries"]:
        shape = _shape(geometry["shape"], ns)
        X = RigidTransform(RotationMatrix(np.asarray(geometry["R"], dtype=float)),
                           np.asarray(geometry["p"], dtype=float))
        instance = ns["GeometryInstance"](X, shape, geometry["name"])
        if geometry["name"].startswith("moving"):
            if body is None:
                body = sg.RegisterFrame(source_id, ns["GeometryFrame"]("body"))
            gid = sg.RegisterGeometry(source_id, body, instance)
        else:
            gid = sg.RegisterAnchoredGeometry(source_id, instance)
        props = ns["PerceptionProperties"]()
        if geometry["diffuse"] is not None:
            props.AddProperty("phong", "diffuse", ns["Rgba"](*geometry["diffuse"]))
        if geometry["diffuse_map"] is not None:
            props.AddProperty("phong", "diffuse_map", str(ASSETS / geometry["diffuse_map"]))
        if geometry["label"] is not None:
            props.AddProperty("label", "id", ns["RenderLabel"](int(geometry["label"])))
        sg.AssignRole(source_id, gid, props)
    context = sg.CreateDefaultContext()
    if body is not None:
        set_body_pose(sg, context, source_id, body, ns, 0)
    W, H = scene["size"]
    core = ns["RenderCameraCore"](renderer_name, ns["CameraInfo"](W, H, scene["fov_y"]),
                                  ns["ClippingRange"](*scene["clipping"]), RigidTransform())
    color = ns["ColorRenderCamera"](core)
    depth = ns["DepthRenderCamera"](core, ns["DepthRange"](*scene["depth_range"]))
    X_WC = RigidTransform(RotationMatrix(np.asarray(scene["X_WC"]["R"], dtype=float)),
                          np.asarray(scene["X_WC"]["p"], dtype=float))
    return sg, context, body, source_id, (color, depth, X_WC)


def set_body_pose(sg, context, source_id, body, ns, k: int) -> None:
    """Fixes the "body" frame's pose to body_pose(k) on SceneGraph's pose port."""
    R, p = body_pose(k)
    poses = ns["FramePoseVector"]()
    poses.set_value(body, ns["RigidTransform"](ns["RotationMatrix"](R), p))
    sg.get_source_pose_port(source_id).FixValue(context, poses)


def _shape(spec: dict, ns: dict):
    kind = spec["type"]
    if kind == "Sphere":
        return ns["Sphere"](spec["radius"])
    if kind == "Box":
        return ns["Box"](spec["width"], spec["depth"], spec["height"])
    if kind in ("Capsule", "Cylinder"):
        return ns[kind](spec["radius"], spec["length"])
    if kind == "Ellipsoid":
        return ns["Ellipsoid"](spec["a"], spec["b"], spec["c"])
    if kind == "HalfSpace":
        return ns["HalfSpace"]()
    if kind in ("Mesh", "Convex"):
        return ns[kind](str(ASSETS / spec["file"]), spec["scale"])
    raise ValueError(f"unknown shape type {kind}")


def render_all(sg, context, cameras, ns):
    """(color (H, W, 3) uint8, depth (H, W) float32, label (H, W) int16) from the
    scene's camera."""
    color_camera, depth_camera, X_WC = cameras
    query = sg.get_query_output_port().Eval(context)
    world = sg.world_frame_id()
    color = query.RenderColorImage(color_camera, world, X_WC).data[:, :, :3].copy()
    depth = query.RenderDepthImage(depth_camera, world, X_WC).data[:, :, 0].copy()
    label = query.RenderLabelImage(color_camera, world, X_WC).data[:, :, 0].copy()
    return color, depth, label


# --- benchmark scenes and timing (benchmarks/bench_render.py, tools/drake_bench_render.py)

#: Benchmark rows: (key, geometries, (width, height), meshes?). Geometry scaling at
#: 640 × 480, resolution scaling with the 40-geometry scene of the speed target, and
#: 40 meshes.
BENCH_ROWS = (("n10_640x480", 10, (640, 480), False), ("n40_640x480", 40, (640, 480), False),
              ("n160_640x480", 160, (640, 480), False), ("n40_320x240", 40, (320, 240), False),
              ("n40_1280x960", 40, (1280, 960), False),
              ("mesh40_640x480", 40, (640, 480), True))
KINDS = ("depth", "label", "color")


def bench_scene(n: int, size, meshes: bool) -> dict:
    """mixed_scene(n) at `size`; with `meshes`, every geometry but the floor is the
    smooth icosphere mesh (320 triangles) of radius 0.1 m."""
    scene = mixed_scene(n, size=size)
    if meshes:
        for g in scene["geometries"]:
            if g["shape"]["type"] != "HalfSpace":
                g["shape"] = {"type": "Mesh", "file": "ico_smooth.obj", "scale": 0.1}
    scene["name"] = f"{'mesh' if meshes else 'n'}{n}_{size[0]}x{size[1]}"
    return scene


def time_renders(scene: dict, ns: dict, budget_s: float = 0.6, min_repeats: int = 5,
                 max_repeats: int = 40) -> dict:
    """{kind: {"median_s", "min_s", "repeats"}} for depth, label and colour images of
    `scene` in library `ns`: before each timed call the "body" frame moves
    (body_pose(k)), outside the timed region; a call evaluates the query port and
    renders. Two untimed calls first (warm)."""
    import time
    sg, context, body, source_id, (color, depth, X_WC) = build(scene, ns)
    world = sg.world_frame_id()
    port = sg.get_query_output_port()
    calls = {"depth": lambda q: q.RenderDepthImage(depth, world, X_WC),
             "label": lambda q: q.RenderLabelImage(color, world, X_WC),
             "color": lambda q: q.RenderColorImage(color, world, X_WC)}
    out = {}
    k = 1
    for kind in KINDS:
        call = calls[kind]
        for _ in range(2):
            call(port.Eval(context))
        times = []
        start = time.perf_counter()
        while len(times) < max_repeats and (len(times) < min_repeats
                                            or time.perf_counter() - start < budget_s):
            if body is not None:
                set_body_pose(sg, context, source_id, body, ns, k)
                k += 1
            t0 = time.perf_counter()
            call(port.Eval(context))
            times.append(time.perf_counter() - t0)
        times.sort()
        out[kind] = {"median_s": times[len(times) // 2], "min_s": times[0],
                     "repeats": len(times)}
    return out
