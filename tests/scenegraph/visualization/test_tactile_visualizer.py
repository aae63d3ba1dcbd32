"""TactileVisualizer (extension) in a real headless Chromium: the sensor
points arrive as one three.js Points object whose positions are the
sensors' world positions and whose colours are grey where nothing touches
and red (fully lit at the largest activation) where the skin is pressed; a
pose change followed by a publish moves and recolours them; the rendered
picture shows red only while pressed. Colour mapping checked offline."""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph.geometry_properties import Rgba
from scenegraph.math import RigidTransform
from scenegraph.visualization import Meshcat, TactileVisualizer
from systems.framework import DiagramBuilder
from tests.scenegraph.sensors.tactile_scene import R, Scene, _pressed

NODE = "viewer.scene_tree.find(['drake', 'tactile'])"
POINTS = f"{NODE}.object.children[0]"


@pytest.fixture
def meshcat():
    """A Meshcat on an ephemeral port, stopped at teardown."""
    m = Meshcat(port=0)
    yield m
    m._server.stop()
    assert not m._server._thread.is_alive()


def _publish(visualizer, scene):
    context = visualizer.CreateDefaultContext()
    visualizer.get_query_input_port().FixValue(context, scene.query())
    visualizer.get_touch_input_port().FixValue(context, scene.touch().reshape(-1))
    visualizer.ForcedPublish(context)


def _attributes(browser):
    P = np.array(browser.evaluate(f"Array.from({POINTS}.geometry.attributes.position.array)"))
    C = np.array(browser.evaluate(f"Array.from({POINTS}.geometry.attributes.color.array)"))
    return P.reshape(-1, 3), C.reshape(-1, 3)


def _red_pixels(image):
    r, g, b = (image[..., i].astype(int) for i in range(3))
    return int(((r > 180) & (g < 80) & (b < 80)).sum())


def test_skin_lights_up_where_pressed_in_the_browser(browser, meshcat):
    scene = Scene(touch_function="normal_force", response_function="spread_linear")
    _pressed(scene, 0.002)
    visualizer = TactileVisualizer(meshcat, scene.sensor)
    for path in ("/Background", "/Grid", "/Axes"):
        meshcat.SetProperty(path, "visible", False)
    meshcat.SetCameraPose([0.0, -0.12, -0.03], [0.0, 0.0, 0.0])   # looking up at the contact
    _publish(visualizer, scene)
    browser.open(meshcat.web_url(), min_messages=3)
    assert browser.evaluate(f"{POINTS}.type") == "Points"
    P, C = _attributes(browser)
    p_WS = scene.sensor.CalcSensorPositionsInWorld(scene.query())
    np.testing.assert_allclose(P, p_WS, atol=1e-7)             # float32 in the browser
    T = scene.touch()[:, 0]
    active = T > 0
    assert 3 < active.sum() < len(T) / 4
    np.testing.assert_allclose(C[~active], 0.6, atol=1 / 255)  # grey
    np.testing.assert_allclose(C[np.argmax(T)], [1, 0, 0], atol=1 / 255)
    np.testing.assert_allclose(C[active, 0], 0.6 + 0.4 * T[active] / T.max(), atol=1 / 255)
    pressed = _red_pixels(browser.screenshot())
    assert pressed > 20

    # Lifted off: the next publish moves every point and none is lit.
    scene.set_pose(RigidTransform([0.0, 0.0, R + 0.01]))
    _publish(visualizer, scene)
    browser.wait_for(f"{POINTS}.geometry.attributes.color.array[0] !== undefined && "
                     f"Math.abs({POINTS}.geometry.attributes.position.array[2] - "
                     f"{float(scene.sensor.CalcSensorPositionsInWorld(scene.query())[0, 2])})"
                     f" < 1e-6")
    P, C = _attributes(browser)
    np.testing.assert_allclose(P, scene.sensor.CalcSensorPositionsInWorld(scene.query()),
                               atol=1e-7)
    np.testing.assert_allclose(C, 0.6, atol=1 / 255)
    assert _red_pixels(browser.screenshot()) == 0


def test_colours_go_linearly_from_inactive_to_active(meshcat):
    scene = Scene(touch_function="force_vector_global")
    visualizer = TactileVisualizer(meshcat, scene.sensor, max_activation=2.0,
                                   rgba_inactive=Rgba(0, 0, 1), rgba_active=Rgba(1, 1, 0))
    touch = np.zeros((scene.sensor.num_sensors(), 3))
    touch[0] = [0, 0, 1.0]          # half of max_activation
    touch[1] = [3.0, 4.0, 0]        # |f| = 5 > max: fully lit
    rgb = visualizer.colors(touch.reshape(-1))
    np.testing.assert_allclose(rgb[0], [0.5, 0.5, 0.5])
    np.testing.assert_allclose(rgb[1], [1, 1, 0])
    np.testing.assert_allclose(rgb[2:], np.tile([0, 0, 1], (len(rgb) - 2, 1)))


def test_add_to_builder_connects_query_and_touch(meshcat):
    from scenegraph import GeometryInstance, ProximityProperties, SceneGraph, Sphere
    from scenegraph.sensors import TactileSensor
    builder = DiagramBuilder()
    sg = builder.AddSystem(SceneGraph())
    source = sg.RegisterSource("s")
    ball = sg.RegisterAnchoredGeometry(source, GeometryInstance(RigidTransform(), Sphere(0.02),
                                                                "ball"))
    sg.AssignRole(source, ball, ProximityProperties())
    sensor = builder.AddSystem(TactileSensor(sg, ball, 0.005))
    builder.Connect(sg.get_query_output_port(), sensor.get_query_input_port())
    visualizer = TactileVisualizer.AddToBuilder(builder, sensor, sg, meshcat, path="/skin")
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    assert not meshcat.HasPath("/skin")
    diagram.ForcedPublish(context)
    assert meshcat.HasPath("/skin")
    assert visualizer.get_touch_input_port().size() == sensor.num_sensors()


def test_bad_arguments_are_refused_by_value(meshcat):
    scene = Scene()
    with pytest.raises(ValueError, match="-1.0"):
        TactileVisualizer(meshcat, scene.sensor, max_activation=-1.0)
    with pytest.raises(ValueError, match="point_size"):
        TactileVisualizer(meshcat, scene.sensor, point_size=0.0)
    with pytest.raises(RuntimeError, match="meshcat"):
        TactileVisualizer(None, scene.sensor)
