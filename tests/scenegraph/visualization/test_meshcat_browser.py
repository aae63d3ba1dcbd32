"""Real-browser tests: headless Chromium renders what MeshcatVisualizer and
Meshcat send.

(a) a red box, a green sphere and a blue capsule appear at plausible places;
(b) a pose change moves them in the next screenshot;
(c) sliders and buttons moved in the page are read back by Meshcat;
(d) StaticHtml renders the same picture from a file with the server gone;
plus recordings playing in the viewer and contact arrows posed by
properties. Protocol-level checks live in the other test modules.
"""
import numpy as np
import pytest

from scenegraph import Sphere
from scenegraph.math import RigidTransform
from scenegraph.visualization import ContactVisualizer, MeshcatVisualizer
from systems.analysis import Simulator
from tests.scenegraph.visualization.browser import HEIGHT, WIDTH
from tests.scenegraph.visualization.scenes import GREEN, build, three_shapes


def _masks(image):
    r, g, b = (image[..., i].astype(int) for i in range(3))
    return {"red": (r > 150) & (g < 60) & (b < 60),
            "green": (g > 100) & (r < 60) & (b < 60),
            "blue": (b > 150) & (r < 60) & (g < 60)}


def _centroids(image):
    """colour -> (pixel count, column, row) of its pixels."""
    out = {}
    for name, mask in _masks(image).items():
        rows, cols = np.nonzero(mask)
        out[name] = (len(rows), cols.mean() if len(rows) else np.nan,
                     rows.mean() if len(rows) else np.nan)
    return out


def _plain_view(meshcat):
    """White background, no grid or axes, camera on +x looking at the shapes."""
    for path in ("/Background", "/Grid", "/Axes"):
        meshcat.SetProperty(path, "visible", False)
    meshcat.SetCameraPose([2.2, 0.0, 0.8], [0.0, 0.0, 0.25])


@pytest.fixture
def shapes(meshcat):
    diagram, scene_graph, bodies, visualizer = build(
        three_shapes, add_systems=lambda b, sg: MeshcatVisualizer.AddToBuilder(b, sg, meshcat))
    context = diagram.CreateDefaultContext()
    visualizer.ForcedPublish(visualizer.GetMyContextFromRoot(context))
    _plain_view(meshcat)
    return diagram, bodies, visualizer, context


def test_three_colours_at_plausible_places(browser, meshcat, shapes):
    browser.open(meshcat.web_url(), min_messages=5)
    # SetCameraPose in Drake's z-up W is (x, z, -y) in three.js's y-up world.
    assert browser.evaluate("viewer.controls.target.toArray()") == pytest.approx([0, 0.25, 0])
    assert browser.evaluate("viewer.camera.position.toArray()") == pytest.approx([2.2, 0.8, 0])
    c = _centroids(browser.screenshot())
    for name in ("red", "green", "blue"):
        assert c[name][0] > 1500, f"too few {name} pixels: {c[name][0]}"
    # Camera on +x looking along -x: the world's +y is to the right.
    assert c["red"][1] < c["green"][1] < c["blue"][1]
    assert abs(c["green"][1] - WIDTH / 2) < 20            # the sphere is at y = 0
    for name in ("red", "green", "blue"):                  # all rest on z = 0: mid-height
        assert HEIGHT * 0.3 < c[name][2] < HEIGHT * 0.7


def test_a_pose_change_moves_the_picture(browser, meshcat, shapes):
    diagram, bodies, visualizer, context = shapes
    browser.open(meshcat.web_url(), min_messages=5)
    before = browser.screenshot()
    bodies_context = bodies.GetMyContextFromRoot(context)
    bodies.set_pose(bodies_context, "box", RigidTransform([0.0, 0.6, 0.9]))   # above the capsule
    bodies.set_pose(bodies_context, "sphere", RigidTransform([0.0, -0.6, 0.22]))  # to the left
    visualizer.ForcedPublish(visualizer.GetMyContextFromRoot(context))
    meshcat.Flush()
    browser.wait_for("viewer.scene_tree.find(['drake', 'visualizer', 'box'])"
                     ".object.position.z > 0.89")
    after = browser.screenshot()
    assert np.abs(after.astype(int) - before).sum() > 0
    b, a = _centroids(before), _centroids(after)
    assert a["red"][1] > b["blue"][1] - 20 and a["red"][2] < b["red"][2] - 40   # right, up
    assert a["green"][1] < b["green"][1] - 60                                  # moved left
    assert abs(a["blue"][1] - b["blue"][1]) < 1 and abs(a["blue"][2] - b["blue"][2]) < 1


def test_static_html_renders_the_same_scene_without_a_server(browser, meshcat, shapes, tmp_path):
    browser.open(meshcat.web_url(), min_messages=5)
    live = browser.screenshot()
    page = tmp_path / "scene.html"
    page.write_text(meshcat.StaticHtml())
    meshcat._server.stop()                                 # nothing to connect to any more
    browser.open(page.as_uri())
    static = browser.screenshot()
    assert np.abs(static.astype(int) - live).mean() < 1.0
    c = _centroids(static)
    assert c["red"][1] < c["green"][1] < c["blue"][1]


def test_sliders_and_buttons_moved_in_the_page_are_read_back(browser, meshcat):
    meshcat.AddSlider("gain", 0.0, 10.0, 0.5, 2.0, decrement_keycode="ArrowLeft",
                      increment_keycode="ArrowRight")
    meshcat.AddButton("go", "KeyG")
    browser.open(meshcat.web_url(), min_messages=2)
    controllers = "viewer.gui_controllers"
    assert browser.evaluate(f"{controllers}['gain'].getValue()") == 2.0
    browser.evaluate(f"{controllers}['gain'].setValue(7.5); 0")   # what dragging does
    _wait(lambda: meshcat.GetSliderValue("gain") == 7.5)
    browser.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {code: 'ArrowLeft'})); 0")
    _wait(lambda: meshcat.GetSliderValue("gain") == 7.0)
    browser.evaluate(f"{controllers}['go'].fire(); 0")            # what a click does
    browser.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {code: 'KeyG'})); 0")
    _wait(lambda: meshcat.GetButtonClicks("go") == 2)
    meshcat.SetSliderValue("gain", 3.0)
    browser.wait_for(f"{controllers}['gain'].getValue() === 3")
    assert meshcat.GetSliderValue("gain") == 3.0               # no echo from the page
    meshcat.DeleteButton("go")
    browser.wait_for(f"!('go' in {controllers})")


def test_a_recording_plays_in_the_viewer(browser, meshcat):
    def add(bodies):
        bodies.add("ball", Sphere(0.1), GREEN, v_WF=(1.0, 0.0, 0.0))
    diagram, _, _, visualizer = build(
        add, add_systems=lambda b, sg: MeshcatVisualizer.AddToBuilder(b, sg, meshcat))
    visualizer.StartRecording()
    Simulator(diagram).AdvanceTo(1.0)
    visualizer.StopRecording()
    visualizer.PublishRecording()
    browser.open(meshcat.web_url(), min_messages=3)
    assert browser.evaluate("viewer.animator.actions.length") == 1
    assert browser.evaluate("viewer.animator.duration") == pytest.approx(1.0, abs=1e-6)
    node = "viewer.scene_tree.find(['drake', 'visualizer', 'ball']).object.position.x"
    browser.evaluate("viewer.animator.pause(); 0")
    for t in (0.25, 0.5):
        browser.evaluate(f"viewer.animator.seek({t}); 0")
        assert browser.evaluate(node) == pytest.approx(t, abs=1e-6)


def test_contact_arrows_are_posed_in_the_viewer(browser, meshcat):
    def add(bodies):
        bodies.add("top", Sphere(0.1), roles=("proximity",), X_WF=RigidTransform([0, 0, 0.15]))
        bodies.add("bottom", Sphere(0.1), roles=("proximity",))
    diagram, _, _, contact = build(
        add, add_systems=lambda b, sg: ContactVisualizer.AddToBuilder(b, sg, meshcat))
    context = diagram.CreateDefaultContext()
    contact.ForcedPublish(contact.GetMyContextFromRoot(context))
    browser.open(meshcat.web_url(), min_messages=5)
    arrow = "viewer.scene_tree.find(['drake', 'contact_forces', 'top+bottom'])"
    assert browser.evaluate(f"{arrow}.object.visible") is True
    world = browser.evaluate(
        f"(() => {{ const o = {arrow}.children['head'].object; o.updateWorldMatrix(true, false);"
        " const v = new MeshCat.THREE.Vector3(); v.setFromMatrixPosition(o.matrixWorld);"
        " return [v.x, v.y, v.z]; })()")
    # The head's tip is 0.05 m · 50 = 2.5 m above the contact at z = 0.075 (Drake's z-up
    # world is three.js's y-up world: (x, z, -y)).
    np.testing.assert_allclose(world, [0.0, 0.075 + 2.5, 0.0], atol=1e-6)


def _wait(predicate, timeout=5.0):
    import time
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise TimeoutError("condition not met")
