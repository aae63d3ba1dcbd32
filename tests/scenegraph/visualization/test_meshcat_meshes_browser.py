"""Real-browser screenshots of materials and textures: headless
Chromium renders what Meshcat sends.

(a) textured quads from an OBJ+MTL and a glTF file are drawn right side up (the
    texture's top-left pixel where OpenGL's texture convention puts it);
(b) Panda, loaded by the Parser and drawn by MeshcatVisualizer, shows its COLLADA
    files' own colours (white and dark grey links), not the default colour;
(c) ANYmal C shows its COLLADA files' textures (its red shells are texture images).

The screenshots are written to the test's folder, and also to
$SCENEGRAPH_SCREENSHOTS when that is set.
"""
import os
import shutil

import numpy as np
import pytest

from scenegraph import Mesh, Rgba
from scenegraph.math import RigidTransform, RotationMatrix
from scenegraph.visualization import MeshcatVisualizer, MeshcatVisualizerParams
from scenegraph.visualization import meshcat_meshes
from tests.scenegraph.visualization import materials as M

GREEN = Rgba(0.0, 1.0, 0.0, 1.0)    # the default colour: must not show anywhere


def _save(image, tmp_path, name):
    from PIL import Image
    path = tmp_path / name
    Image.fromarray(image).save(path)
    folder = os.environ.get("SCENEGRAPH_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        shutil.copy(path, os.path.join(folder, name))
    return path


def _plain_view(meshcat, p_WC, p_WT):
    for path in ("/Background", "/Grid", "/Axes"):
        meshcat.SetProperty(path, "visible", False)
    meshcat.SetCameraPose(p_WC, p_WT)


def _show(browser, meshcat, timeout=60.0):
    """Loads the page and waits for every command of the scene (and its images)."""
    n = len(meshcat._server.replay_messages(include_controls=True))
    browser.call("Page.navigate", url=meshcat.web_url())
    browser.wait_for("typeof viewer !== 'undefined' && document.readyState === 'complete'")
    browser.wait_for(f"viewer.num_messages_received >= {n}", timeout=timeout)
    browser.wait_for("new Promise(r => setTimeout(() => r(true), 300))")   # image decoding
    return browser.screenshot()


def _masks(image):
    r, g, b = (image[..., i].astype(int) for i in range(3))
    return {"blue": (b > r + 60) & (b > g + 60), "red": (r > b + 60) & (r > g + 40),
            "green": (g > r + 60) & (g > b + 60),
            "object": (r < 245) | (g < 245) | (b < 245)}


def test_textures_are_drawn_right_side_up(browser, meshcat, tmp_path):
    # Each unit quad stands in a plane facing +x: its x along W's y, its y along W's z.
    R_WQ = RotationMatrix(np.array([[0.0, 0, 1], [1, 0, 0], [0, 1, 0]]))
    meshcat.SetObject("obj", Mesh(str(M.write_obj_mtl(tmp_path))), GREEN)
    meshcat.SetObject("glb", Mesh(str(M.write_glb(tmp_path))), GREEN)
    meshcat.SetTransform("obj", RigidTransform(R_WQ, [0.0, -1.1, 0.0]))
    meshcat.SetTransform("glb", RigidTransform(R_WQ, [0.0, 0.1, 0.0]))
    _plain_view(meshcat, [3.0, 0.0, 0.5], [0.0, 0.0, 0.5])
    image = _show(browser, meshcat)
    _save(image, tmp_path, "textured_quads.png")
    masks = _masks(image)
    assert masks["green"].sum() == 0
    h, w = image.shape[:2]
    for left, right in ((0, w // 2), (w // 2, w)):          # the OBJ, then the glTF quad
        blue = masks["blue"][:, left:right]
        red = masks["red"][:, left:right]
        assert blue.sum() > 1000 and red.sum() > 3 * 1000
        rows, cols = np.nonzero(blue)
        red_rows, red_cols = np.nonzero(red)
        # Blue is the quad's top-left quarter: above and left of the red L.
        assert rows.mean() < red_rows.mean() and cols.mean() < red_cols.mean()
        assert abs(blue.sum() / red.sum() - 1 / 3) < 0.1


def _robot(meshcat, urdf, camera):
    from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
    from systems.framework import DiagramBuilder
    from tests.scenegraph.multibody.robot_data import PACKAGE, package_root, urdf_path
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    parser.package_map().Add(PACKAGE, str(package_root()))
    parser.AddModels(str(urdf_path(urdf)))
    plant.Finalize()
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat,
                                   MeshcatVisualizerParams(default_color=GREEN))
    diagram = builder.Build()
    diagram.ForcedPublish(diagram.CreateDefaultContext())
    _plain_view(meshcat, *camera)


@pytest.mark.filterwarnings("ignore")
def test_panda_shows_the_colours_of_its_collada_files(browser, meshcat, tmp_path):
    _robot(meshcat, "panda_description/urdf/panda.urdf", ([1.4, 0.8, 0.9], [0, 0, 0.45]))
    image = _show(browser, meshcat)
    _save(image, tmp_path, "panda.png")
    masks = _masks(image)
    r, g, b = (image[..., i].astype(int) for i in range(3))
    grey = (np.maximum(np.maximum(r, g), b) - np.minimum(np.minimum(r, g), b)) < 30
    assert masks["object"].sum() > 5000                     # a robot fills the view
    assert masks["green"].sum() == 0                        # not the default colour
    assert (grey & (r < 90) & masks["object"]).sum() > 1000       # the dark grey joints
    assert (grey & (r > 150) & masks["object"]).sum() > 3000      # the white links


@pytest.mark.filterwarnings("ignore")
def test_anymal_shows_the_textures_of_its_collada_files(browser, meshcat, tmp_path,
                                                        monkeypatch):
    monkeypatch.setattr(meshcat_meshes, "MAX_TEXTURE_SIZE", 512)   # a smaller page
    _robot(meshcat, "anymal_c_simple_description/urdf/anymal.urdf",
           ([0.9, 0.7, 0.5], [0, 0, 0]))
    objects = [m for m in meshcat._server.replay_messages(True) if b"data:image/" in m]
    assert len(objects) >= 10
    image = _show(browser, meshcat)
    _save(image, tmp_path, "anymal_c.png")
    masks = _masks(image)
    assert masks["green"].sum() == 0
    # Its red shells are texture images (their materials are white).
    assert masks["red"].sum() > 3000
