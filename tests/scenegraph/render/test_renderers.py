"""SceneGraph's renderers and the QueryObject's Render*Image queries: closed forms
(depths and labels of shapes in front of a camera, exact to float32), the camera
conventions, the perception properties read, renderer management on the model and
on contexts, and bad input."""
import copy
import math

import numpy as np
import pytest

from scenegraph import (Box, ClippingRange, ColorRenderCamera, DepthRange, DepthRenderCamera,
                        FramePoseVector, GeometryFrame, GeometryInstance, HalfSpace,
                        MakeRenderEngineVtk, Mesh, PerceptionProperties, RenderCameraCore,
                        RenderEngineVtkParams, RenderLabel, Rgba, Role, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.sensors import CameraInfo

W, H, FOV = 64, 48, 0.9
EMPTY = int(RenderLabel.kEmpty)


def _props(label=None, diffuse=None):
    props = PerceptionProperties()
    if label is not None:
        props.AddProperty("label", "id", RenderLabel(label))
    if diffuse is not None:
        props.AddProperty("phong", "diffuse", Rgba(*diffuse))
    return props


def _cameras(name="renderer", near=0.1, far=10.0, depth=(0.15, 9.0), X_BS=None):
    core = RenderCameraCore(name, CameraInfo(W, H, FOV), ClippingRange(near, far),
                            RigidTransform() if X_BS is None else X_BS)
    return ColorRenderCamera(core), DepthRenderCamera(core, DepthRange(*depth))


class Scene:
    """A SceneGraph with a renderer, anchored shapes and one moving frame."""

    def __init__(self, renderer=True):
        self.sg = SceneGraph()
        if renderer:
            self.sg.AddRenderer("renderer", MakeRenderEngineVtk(RenderEngineVtkParams()))
        self.source = self.sg.RegisterSource("source")
        self.frame = self.sg.RegisterFrame(self.source, GeometryFrame("frame"))
        self.context = None

    def add(self, shape, X_WG, props, on_frame=False, name=None):
        instance = GeometryInstance(X_WG, shape, name or f"g{np.random.randint(1 << 30)}")
        if on_frame:
            gid = self.sg.RegisterGeometry(self.source, self.frame, instance)
        else:
            gid = self.sg.RegisterAnchoredGeometry(self.source, instance)
        if props is not None:
            self.sg.AssignRole(self.source, gid, props)
        return gid

    def query(self, X_WF=RigidTransform()):
        if self.context is None:
            self.context = self.sg.CreateDefaultContext()
        poses = FramePoseVector()
        poses.set_value(self.frame, X_WF)
        self.sg.get_source_pose_port(self.source).FixValue(self.context, poses)
        return self.sg.get_query_output_port().Eval(self.context)

    def render(self, kind, X_WC=RigidTransform(), **camera_kw):
        color, depth = _cameras(**camera_kw)
        q = self.query()
        world = SceneGraph.world_frame_id()
        if kind == "depth":
            return q.RenderDepthImage(depth, world, X_WC).data[:, :, 0]
        if kind == "label":
            return q.RenderLabelImage(color, world, X_WC).data[:, :, 0]
        return q.RenderColorImage(color, world, X_WC).data


def _rays():
    """d_C (H, W, 3) of every pixel: through (u + ½, v + ½), z = 1."""
    info = CameraInfo(W, H, FOV)
    u, v = np.meshgrid(np.arange(W) + 0.5, np.arange(H) + 0.5)
    return np.stack([(u - info.center_x()) / info.focal_x(),
                     (v - info.center_y()) / info.focal_y(), np.ones((H, W))], axis=-1)


def test_sphere_depth_and_label_are_the_closed_form():
    scene = Scene()
    center, r = np.array([0.1, -0.05, 2.0]), 0.4
    scene.add(Sphere(r), RigidTransform(center), _props(7))
    d = _rays()
    a, b = (d * d).sum(-1), d @ center
    disc = b * b - a * (center @ center - r * r)
    t = np.where(disc >= 0, (b - np.sqrt(np.maximum(disc, 0))) / a, np.inf)
    depth, label = scene.render("depth"), scene.render("label")
    hit = np.isfinite(t)
    assert hit.sum() > 300
    np.testing.assert_array_equal(np.isfinite(depth), hit)
    np.testing.assert_allclose(depth[hit], t[hit], rtol=2e-7)
    np.testing.assert_array_equal(label, np.where(hit, 7, EMPTY))


def test_camera_axes_x_right_y_down_and_sensor_offset():
    scene = Scene()
    scene.add(Sphere(0.1), RigidTransform([0.5, 0, 2]), _props(1))     # +Cx: right
    scene.add(Sphere(0.1), RigidTransform([0, 0.5, 2]), _props(2))     # +Cy: down
    label = scene.render("label")
    v1, u1 = np.argwhere(label == 1).mean(axis=0)
    v2, u2 = np.argwhere(label == 2).mean(axis=0)
    assert u1 > W / 2 + 5 and abs(v1 - H / 2) < 2
    assert v2 > H / 2 + 5 and abs(u2 - W / 2) < 2
    # The sensor at X_BS in the camera body: moving the body by −X_BS undoes it.
    X_BS = RigidTransform([0.5, 0, 0])
    shifted = scene.render("label", X_WC=RigidTransform([-0.5, 0, 0]), X_BS=X_BS)
    np.testing.assert_array_equal(shifted, label)


def test_box_face_plane_and_mesh_square_are_exact():
    scene = Scene()
    scene.add(Box(0.6, 0.6, 0.4), RigidTransform([0, 0, 3.2]), _props(3))     # face at 3.0
    scene.add(HalfSpace(), RigidTransform(RollPitchYaw(-math.pi / 2, 0, 0), [0, 0.5, 0]),
              _props(4))                                                 # floor, 0.5 below
    quad = np.array([[-0.2, -0.2, 0], [0.2, -0.2, 0], [0.2, 0.2, 0], [-0.2, 0.2, 0]]).T
    scene.add(Mesh(quad, faces=np.array([[0, 1, 2], [0, 2, 3]])),
              RigidTransform([-0.6, -0.2, 2.0]), _props(5))
    d = _rays()
    depth, label = scene.render("depth", far=20.0, depth=(0.15, 19.0)), scene.render(
        "label", far=20.0, depth=(0.15, 19.0))
    box = (np.abs(d[..., 0] * 3.0) <= 0.3) & (np.abs(d[..., 1] * 3.0) <= 0.3)
    np.testing.assert_allclose(depth[box & (label == 3)], 3.0, rtol=1e-7)
    assert ((label == 3) == box).mean() > 0.995
    floor = label == 4
    np.testing.assert_allclose(depth[floor], 0.5 / d[..., 1][floor], rtol=1e-6)
    square = (np.abs(d[..., 0] * 2.0 + 0.6) <= 0.2) & (np.abs(d[..., 1] * 2.0 + 0.2) <= 0.2)
    assert ((label == 5) == square).mean() > 0.995
    np.testing.assert_allclose(depth[label == 5], 2.0, rtol=1e-7)


def test_depth_range_and_clipping_give_drakes_values():
    scene = Scene()
    scene.add(Box(0.1, 0.1, 0.1), RigidTransform([-0.06, 0, 0.35]), _props(1))  # at 0.3 < 0.4
    scene.add(Box(0.6, 0.6, 0.2), RigidTransform([1.0, 0, 3.1]), _props(2))    # at 3 > 2.5
    scene.add(Box(0.6, 0.6, 0.2), RigidTransform([0, 1.0, 6.1]), _props(3))    # beyond far 5
    depth = scene.render("depth", near=0.1, far=5.0, depth=(0.4, 2.5))
    label = scene.render("label", near=0.1, far=5.0, depth=(0.4, 2.5))
    assert (depth[label == 1] == 0).all() and (label == 1).any()
    assert np.isposinf(depth[label == 2]).all() and (label == 2).any()
    assert not (label == 3).any()
    assert np.isposinf(depth[label == EMPTY]).all()


def test_near_clipping_shows_the_inside_of_a_cut_sphere():
    scene = Scene()
    scene.add(Sphere(0.5), RigidTransform([0, 0, 0.6]), _props(1, (1, 0, 0, 1)))
    depth = scene.render("depth", near=0.4, depth=(0.45, 9.0))
    # The front surface (at 0.1) is clipped; the ray meets the back surface near 1.1.
    assert depth[H // 2, W // 2] == pytest.approx(1.1, abs=2e-3)
    color = scene.render("color", near=0.4, depth=(0.45, 9.0))
    assert color[H // 2, W // 2, 0] > 240     # lit: back faces face the camera


def test_headlight_colour_is_diffuse_times_cosine():
    scene = Scene()
    tilt = 0.6
    scene.add(Box(2, 2, 0.01), RigidTransform(RollPitchYaw(tilt, 0, 0), [0, 0, 3]),
              _props(1, (0.2, 0.4, 0.6, 1.0)))
    color = scene.render("color")
    expected = np.round(np.array([0.2, 0.4, 0.6]) * math.cos(tilt) * 255)
    np.testing.assert_array_equal(color[H // 2, W // 2, :3], expected)
    assert color[H // 2, W // 2, 3] == 255
    assert color[0, 0].tolist() == [204, 229, 255, 255]      # Drake's clear colour


def test_default_label_do_not_render_and_translucency():
    scene = Scene()
    scene.add(Sphere(0.3), RigidTransform([0, 0, 2]), _props(None, (1, 0, 0, 1)))
    glass = scene.add(Box(1, 1, 0.02), RigidTransform([0, 0, 1.2]),
                      _props(None, (0, 0, 1, 0.5)))
    label, depth = scene.render("label"), scene.render("depth")
    assert label[H // 2, W // 2] == int(RenderLabel.kDontCare)
    assert depth[H // 2, W // 2] == pytest.approx(1.19, rel=1e-6)     # the glass's front
    color = scene.render("color")
    # Half the glass's blue over the (lit) red sphere behind it.
    assert color[H // 2, W // 2, :3].tolist() == pytest.approx([127, 0, 128], abs=2)
    scene2 = Scene()
    scene2.add(Sphere(0.3), RigidTransform([0, 0, 2]), _props(1))
    props = _props(None)
    props.AddProperty("label", "id", RenderLabel.kDoNotRender)
    scene2.add(Box(1, 1, 0.02), RigidTransform([0, 0, 1.2]), props)
    assert scene2.render("label")[H // 2, W // 2] == 1          # seen through
    assert scene2.render("depth")[H // 2, W // 2] == pytest.approx(1.19, rel=1e-6)
    assert glass is not None


def test_geometry_on_a_moving_frame_follows_its_pose():
    scene = Scene()
    scene.add(Sphere(0.2), RigidTransform([0, 0, 2]), _props(1), on_frame=True)
    color, _ = _cameras()
    world = SceneGraph.world_frame_id()
    left = scene.query(RigidTransform([-0.5, 0, 0])).RenderLabelImage(color, world,
                                                                      RigidTransform())
    right = scene.query(RigidTransform([0.5, 0, 0])).RenderLabelImage(color, world,
                                                                      RigidTransform())
    u_left = np.argwhere(left.data[:, :, 0] == 1)[:, 1].mean()
    u_right = np.argwhere(right.data[:, :, 0] == 1)[:, 1].mean()
    assert u_right - u_left > 20
    # A camera on the frame sees the sphere where it is in the frame.
    on_frame = scene.query(RigidTransform([0.5, 0, 0])).RenderLabelImage(
        color, scene.frame, RigidTransform())
    # (Pixel u looks through u + ½: the image is symmetric about c_x − ½.)
    cx = CameraInfo(W, H, FOV).center_x()
    assert abs(np.argwhere(on_frame.data[:, :, 0] == 1)[:, 1].mean() - (cx - 0.5)) < 0.1


def test_renderer_added_after_geometry_and_on_contexts():
    scene = Scene(renderer=False)
    gid = scene.add(Sphere(0.3), RigidTransform([0, 0, 2]), _props(1))
    context = scene.sg.CreateDefaultContext()
    version = scene.sg.model_inspector().geometry_version()
    scene.sg.AddRenderer("renderer", MakeRenderEngineVtk(RenderEngineVtkParams()))
    assert not version.IsSameAs(scene.sg.model_inspector().geometry_version(), Role.kPerception)
    assert scene.sg.HasRenderer("renderer") and scene.sg.RendererCount() == 1
    assert scene.sg.GetRendererTypeName("renderer") == "scenegraph.render.RenderEngineCpu"
    assert scene.sg.GetRendererTypeName("nope") == "" and scene.sg.GetRendererParameterYaml(
        "nope") == ""
    # The context made earlier has no renderer; one can be added to it alone.
    assert not scene.sg.HasRenderer(context, "renderer") and scene.sg.RendererCount(context) == 0
    scene.sg.AddRenderer(context, "mine", MakeRenderEngineVtk(RenderEngineVtkParams()))
    assert scene.sg.HasRenderer(context, "mine") and not scene.sg.HasRenderer("mine")
    color, _ = _cameras("mine")
    poses = FramePoseVector()
    poses.set_value(scene.frame, RigidTransform())
    scene.sg.get_source_pose_port(scene.source).FixValue(context, poses)
    query = scene.sg.get_query_output_port().Eval(context)
    world = SceneGraph.world_frame_id()
    assert (query.RenderLabelImage(color, world, RigidTransform()).data == 1).any()
    # Geometry registered on the context after the renderer is rendered too.
    extra = scene.sg.RegisterGeometry(context, scene.source, scene.frame, GeometryInstance(
        RigidTransform([0.5, 0, 2]), Box(0.2, 0.2, 0.2), "extra"))
    scene.sg.AssignRole(context, scene.source, extra, _props(2))
    query = scene.sg.get_query_output_port().Eval(context)
    assert set(np.unique(query.RenderLabelImage(color, world, RigidTransform()).data)) == \
        {1, 2, EMPTY}
    # A role removed from the context leaves its images.
    scene.sg.RemoveRole(context, scene.source, gid, Role.kPerception)
    query = scene.sg.get_query_output_port().Eval(context)
    assert 1 not in query.RenderLabelImage(color, world, RigidTransform()).data
    scene.sg.RemoveRenderer(context, "mine")
    assert scene.sg.RendererCount(context) == 0


def test_accepting_property_and_baked_query_objects():
    scene = Scene()
    scene.sg.AddRenderer("other", MakeRenderEngineVtk(RenderEngineVtkParams()))
    props = _props(1)
    props.AddProperty("renderer", "accepting", {"other"})
    scene.add(Sphere(0.3), RigidTransform([0, 0, 2]), props)
    assert not (scene.render("label") == 1).any()
    color, _ = _cameras("other")
    query = scene.query()
    world = SceneGraph.world_frame_id()
    assert (query.RenderLabelImage(color, world, RigidTransform()).data == 1).any()
    baked = copy.copy(query)
    scene.query(RigidTransform([5, 0, 0]))   # the live one moves on; the baked one keeps
    assert (baked.RenderLabelImage(color, world, RigidTransform()).data == 1).any()


def test_perception_version_changes_only_while_a_renderer_exists():
    for with_renderer in (False, True):
        scene = Scene(renderer=with_renderer)
        version = scene.sg.model_inspector().geometry_version()
        scene.add(Sphere(0.3), RigidTransform([0, 0, 2]), _props(1))
        changed = not version.IsSameAs(scene.sg.model_inspector().geometry_version(),
                                       Role.kPerception)
        assert changed == with_renderer


def test_bad_input_raises_naming_what_is_wrong():
    scene = Scene()
    scene.add(Sphere(0.3), RigidTransform([0, 0, 2]), _props(1))
    query = scene.query()
    world = SceneGraph.world_frame_id()
    color, depth = _cameras("nope")
    for render, camera in ((query.RenderColorImage, color), (query.RenderDepthImage, depth),
                           (query.RenderLabelImage, color)):
        with pytest.raises(RuntimeError, match=r"^No renderer exists with name: 'nope'"):
            render(camera, world, RigidTransform())
    with pytest.raises(TypeError, match="ColorRenderCamera"):
        query.RenderColorImage(depth, world, RigidTransform())
    # A camera pose that is not finite renders nothing silently: it is refused.
    color_ok, depth_ok = _cameras()
    with pytest.raises(RuntimeError, match=r"^RenderLabelImage\(\): the camera's pose is not "
                                           r"finite \(X_PC: translation \[nan, 0.0, 0.0\]"):
        query.RenderLabelImage(color_ok, world, RigidTransform([math.nan, 0, 0]))
    with pytest.raises(RuntimeError, match=r"^RenderDepthImage\(\): .* not finite"):
        query.RenderDepthImage(depth_ok, world, RigidTransform([0, math.inf, 0]))
    engine = MakeRenderEngineVtk(RenderEngineVtkParams())
    with pytest.raises(RuntimeError, match=r"^UpdateViewpoint\(\): X_WR is not finite"):
        engine.UpdateViewpoint(RigidTransform([0, 0, math.nan]))
    with pytest.raises(RuntimeError, match="AddRenderer\\(\\): A renderer with the name "
                                           "'renderer' already exists"):
        scene.sg.AddRenderer("renderer", MakeRenderEngineVtk(RenderEngineVtkParams()))
    with pytest.raises(RuntimeError, match="RemoveRenderer\\(\\): A renderer with the name "
                                           "'x' does not exist"):
        scene.sg.RemoveRenderer("x")
    with pytest.raises(TypeError, match="RenderEngine"):
        scene.sg.AddRenderer("x", object())
    # A label the renderer refuses: named at the first image (or at AddRenderer).
    bad = PerceptionProperties()
    bad.AddProperty("label", "id", RenderLabel.kEmpty)
    scene.sg.AssignRole(scene.source, scene.add(Sphere(0.1), RigidTransform(), None,
                                                name="bad"), bad)
    color, _ = _cameras()
    fresh = Scene(renderer=False)
    fresh_id = fresh.add(Sphere(0.1), RigidTransform(), None, name="bad")
    fresh.sg.AssignRole(fresh.source, fresh_id, bad)
    with pytest.raises(RuntimeError, match=r"cannot take geometry .* \('bad'\).*'unspecified' "
                                           r"or 'empty' render labels"):
        fresh.sg.AddRenderer("renderer", MakeRenderEngineVtk(RenderEngineVtkParams()))
    assert fresh.sg.RendererCount() == 0
    context = scene.sg.CreateDefaultContext()
    poses = FramePoseVector()
    poses.set_value(scene.frame, RigidTransform())
    scene.sg.get_source_pose_port(scene.source).FixValue(context, poses)
    with pytest.raises(RuntimeError, match=r"\('bad'\)"):
        scene.sg.get_query_output_port().Eval(context).RenderLabelImage(
            color, world, RigidTransform())
