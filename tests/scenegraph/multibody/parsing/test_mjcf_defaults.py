"""MJCF default classes as MuJoCo applies them: nested classes start from their
parent's defaults, an element takes its class, else the enclosing body's
childclass, else "main"; its own attributes win, size is merged number by
number (a nested class's size over its parent's too) and an own orientation
drops the class's. The expected sizes and orientations are what MuJoCo 3's
own compiler gives for MODEL (geom_size, geom_quat)."""
import numpy as np
import pytest

from scenegraph import Role
from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
from systems.framework import DiagramBuilder

MODEL = """<mujoco model="defaults">
  <default>
    <geom type="box" size="0.1 0.2 0.3"/>
    <default class="small">
      <geom size="0.05"/>
      <default class="tilted">
        <geom euler="0 0 90"/>
      </default>
    </default>
    <default class="ball"><geom type="sphere" size="0.4"/></default>
  </default>
  <worldbody>
    <body name="plain"><geom name="from_main"/></body>
    <body name="classed"><geom name="from_small" class="small"/></body>
    <body name="inner" childclass="ball">
      <geom name="from_childclass"/>
      <geom name="own_wins" class="ball" size="0.25"/>
    </body>
    <body name="turned"><geom name="from_tilted" class="tilted"/>
      <geom name="own_orientation" class="tilted" quat="1 0 0 0"/></body>
  </worldbody>
</mujoco>"""


def _geometries(text=MODEL):
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    Parser(plant).AddModelsFromString(text, "xml")
    plant.Finalize()
    inspector = scene_graph.model_inspector()
    return {inspector.GetName(g).split("::")[-1]: (inspector.GetShape(g), inspector.GetPoseInFrame(g))
            for g in inspector.GetAllGeometryIds(Role.kProximity)}


def test_an_element_without_a_class_takes_main():
    box, _ = _geometries()["from_main"]
    # MJCF box sizes are half extents.
    assert (box.width(), box.depth(), box.height()) == pytest.approx((0.2, 0.4, 0.6))


def test_size_is_merged_number_by_number_over_the_parents_defaults():
    box, _ = _geometries()["from_small"]
    assert (box.width(), box.depth(), box.height()) == pytest.approx((0.1, 0.4, 0.6))


def test_the_enclosing_bodys_childclass_applies_and_own_attributes_win():
    geometries = _geometries()
    assert geometries["from_childclass"][0].radius() == pytest.approx(0.4)
    assert geometries["own_wins"][0].radius() == pytest.approx(0.25)


def test_a_nested_class_inherits_and_an_own_orientation_drops_the_classs():
    geometries = _geometries()
    _, X_tilted = geometries["from_tilted"]
    np.testing.assert_allclose(X_tilted.rotation().matrix(),
                               [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-12)
    _, X_own = geometries["own_orientation"]
    np.testing.assert_allclose(X_own.rotation().matrix(), np.eye(3), atol=1e-12)


def test_a_class_defined_twice_is_an_error_naming_it():
    text = MODEL.replace('<default class="ball">', '<default class="small">')
    with pytest.raises(Exception, match='class="small".*defined twice'):
        _geometries(text)
