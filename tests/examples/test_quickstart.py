"""examples/quickstart.py: the bodies settle on the table on their true shapes,
the command prints its summary and writes a page that replays the whole run,
and in a real browser that page shows every body and the contact arrows,
which point up out of the table."""
import colorsys
import math
import warnings

import numpy as np
import pytest

from examples import quickstart
from scenegraph import Role
from scenegraph.visualization import Meshcat

DURATION = 3.0


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """One recorded run of the demo: (diagram, bodies, simulator, monitor,
    path of its replay page)."""
    meshcat = Meshcat(port=0)
    try:
        diagram, bodies, simulator, monitor, _ = quickstart.run(DURATION, meshcat)
        html = tmp_path_factory.mktemp("quickstart") / "quickstart.html"
        html.write_text(meshcat.StaticHtml())
    finally:
        meshcat._server.stop()
    return diagram, bodies, simulator, monitor, html


def _final_state(demo):
    diagram, bodies, simulator, _, _ = demo
    return bodies.split(bodies.state_vector(
        diagram.GetSubsystemContext(bodies, simulator.get_context())))


def test_every_body_comes_to_rest_on_the_table_at_its_resting_height(demo):
    bodies = demo[1]
    p_WB, _, v_WB, w_WB = _final_state(demo)
    gem_base = -quickstart.make_bodies()[-1].shape.mesh_vertices()[:, 2].min()
    # Height of each centre of mass above the table top (z = 0) when lying on
    # the face it lands on: sphere radii, the blue box on its 8 cm face, the
    # cube, the capsule on its side, the puck on its cap, the gem on its base.
    expected = {"red_ball": 0.05, "green_ball": 0.04, "blue_box": 0.04, "yellow_box": 0.05,
                "cyan_capsule": 0.03, "orange_cylinder": 0.04, "purple_gem": gem_base}
    for body, p in zip(bodies.bodies, p_WB):
        assert p[2] == pytest.approx(expected[body.name], abs=1e-3), body.name
        assert np.abs(p[:2]).max() < 0.45, body.name          # on the 1 m table
    assert np.abs(v_WB).max() < 1e-3 and np.abs(w_WB).max() < 1e-2
    assert 0.0 < demo[3].max_resting_depth <= 1e-3


def test_contact_uses_the_bodies_true_shapes(demo):
    diagram, bodies = demo[0], demo[1]
    inspector = diagram.GetSubsystemByName("scene_graph").model_inspector()
    for spec, frame_id in zip(bodies.bodies, bodies.frame_ids):
        (geometry,) = inspector.GetGeometries(frame_id, Role.kProximity)
        assert type(inspector.GetShape(geometry)) is type(spec.shape)
    kinds = {type(spec.shape).__name__ for spec in bodies.bodies}
    assert kinds == {"Sphere", "Box", "Capsule", "Cylinder", "Convex"}


def test_help_describes_the_demo(capsys):
    with pytest.raises(SystemExit) as exit_:
        quickstart.main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "--no-wait" in out and "--duration" in out and "quickstart.html" in out


def test_command_prints_its_summary_and_writes_the_replay_page(tmp_path, capsys):
    html = tmp_path / "replay.html"
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # the demo prints no warning
        assert quickstart.main(["--no-wait", "--duration", "0.2", "--html", str(html)]) == 0
    out = capsys.readouterr().out
    assert "http://" in out
    factor = float(out.split("real-time factor ")[1].split()[0])
    assert factor > 0
    for body in quickstart.COLORS:
        assert body in out
    page = html.read_text()
    assert "<html" in page[:200].lower() and len(page) > 100_000


def _hue_mask(image, rgba, tolerance=12.0):
    """Pixels of `image` (H, W, 3 uint8) with the hue of `rgba` (±tolerance°),
    saturated (> 0.4) and not dark (> 0.15)."""
    rgb = image.astype(float) / 255.0
    high, low = rgb.max(axis=2), rgb.min(axis=2)
    spread = np.where(high > low, high - low, 1.0)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    hue = np.where(high == r, ((g - b) / spread) % 6.0,
                   np.where(high == g, (b - r) / spread + 2.0, (r - g) / spread + 4.0)) * 60.0
    saturation = np.where(high > 0, (high - low) / np.maximum(high, 1e-9), 0.0)
    target = colorsys.rgb_to_hsv(rgba.r(), rgba.g(), rgba.b())[0] * 360.0
    distance = np.abs((hue - target + 180.0) % 360.0 - 180.0)
    return (distance < tolerance) & (saturation > 0.4) & (high > 0.15)


def _shown_by(browser, path, image):
    """Pixels that change when the node at `path` is hidden."""
    node = f"viewer.scene_tree.find({path!r})"
    browser.evaluate(f"{node}.object.visible = false; 0")
    hidden = browser.screenshot()
    browser.evaluate(f"{node}.object.visible = true; 0")
    return np.abs(image.astype(int) - hidden.astype(int)).max(axis=2) > 30


def test_the_replay_page_plays_the_run_and_shows_every_body_and_upward_arrows(demo, browser):
    browser.open(demo[4].as_uri())
    # The recording starts playing when the page opens, and it is the whole run.
    assert browser.evaluate("viewer.animator.playing") is True
    assert browser.evaluate("viewer.animator.duration") == pytest.approx(DURATION, abs=0.05)
    browser.evaluate(f"viewer.animator.pause(); viewer.animator.seek({DURATION - 0.1}); 0")
    image = browser.screenshot()
    for name, rgba in quickstart.COLORS.items():
        shown = _shown_by(browser, ["drake", "visualizer", name], image)
        of_its_colour = (shown & _hue_mask(image, rgba)).sum()
        assert of_its_colour > 150, (name, of_its_colour)
    arrows = _shown_by(browser, ["drake", "contact_forces"], image)
    magenta = (arrows & _hue_mask(image, quickstart.ARROW_COLOR)).sum()
    assert magenta > 400, magenta
    # Every visible arrow of a body on the table points up (three.js' y is Drake's z).
    directions = browser.evaluate(
        "(() => { const out = {}; const root = viewer.scene_tree.find(['drake', "
        "'contact_forces']); for (const [name, node] of Object.entries(root.children)) {"
        " const o = node.object; if (!o.visible) continue; o.updateWorldMatrix(true, false);"
        " const z = new MeshCat.THREE.Vector3().setFromMatrixColumn(o.matrixWorld, 2);"
        " out[name] = [z.x, z.y, z.z]; } return out; })()")
    on_table = {name: d for name, d in directions.items() if name.startswith("table+")}
    assert len(on_table) == len(quickstart.COLORS)
    for name, d in on_table.items():
        assert d[1] > math.cos(0.05), (name, d)


_FIRST_USES_SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
import scenegraph._jit  # noqa: F401  (installs the library's dispatcher hooks first)
from numba.core import dispatcher
from examples import quickstart
from scenegraph.visualization import Meshcat
from systems.analysis import Simulator

armed, inside, first_used = [False], [False], []
add_overload, advance_to = dispatcher.Dispatcher.add_overload, Simulator.AdvanceTo

def recording_add_overload(self, cres):
    if inside[0]:
        first_used.append(self.py_func.__module__ + "." + self.py_func.__qualname__)
    return add_overload(self, cres)

def recording_advance_to(self, time):
    inside[0] = armed[0]
    try:
        return advance_to(self, time)
    finally:
        inside[0] = False

dispatcher.Dispatcher.add_overload = recording_add_overload
Simulator.AdvanceTo = recording_advance_to
meshcat = Meshcat(port=0)
try:
    quickstart.run(quickstart.WARM_UP, None)     # the demo's untimed warm-up
    armed[0] = True
    quickstart.run(1.0, meshcat)                  # its timed run, with the viewer
finally:
    meshcat._server.stop()
print(json.dumps(first_used))
"""


def test_no_kernel_is_first_compiled_or_loaded_inside_the_timed_advance_to():
    # A new process runs the demo's warm-up, then its run with the viewer
    # (Initialize, then AdvanceTo): every compiled kernel the run uses must
    # have been compiled (cold cache) or loaded (warm cache) by the warm-up
    # or by Initialize, never inside AdvanceTo, where a compile is a spike
    # of seconds in the timed run.
    import json
    import pathlib
    import subprocess
    import sys
    root = str(pathlib.Path(quickstart.__file__).resolve().parents[1])
    done = subprocess.run([sys.executable, "-c", _FIRST_USES_SCRIPT.format(root=root)],
                          capture_output=True, text=True, cwd=root, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    first_used = json.loads(done.stdout.strip().splitlines()[-1])
    assert first_used == []
