"""ContactVisualizer's arrows point out of anchored geometry (the force on the
moving body) whichever of the two was registered first; between two moving
geometries they keep pydrake's order (the force on A, along nhat_BA_W)."""
import numpy as np
import pytest

from scenegraph import (AddCompliantHydroelasticProperties, AddRigidHydroelasticProperties,
                        Box, GeometryInstance, ProximityProperties, Sphere)
from scenegraph.math import RigidTransform
from scenegraph.visualization import ContactVisualizer, ContactVisualizerParams
from tests.scenegraph.visualization.scene_reader import fold, read_scene
from tests.scenegraph.visualization.scenes import build

PREFIX = "/drake/contact_forces"
DEPTH = 0.01          # the ball (r = 0.1) sinks 1 cm into the table top at z = 0


def _ball_on_table(meshcat, table_first: bool, hydroelastic: bool = False):
    """A table (anchored 1 x 1 x 0.1 box, top face z = 0) and a moving ball
    'ball' centred at z = 0.1 - DEPTH, registered in the given order; the
    visualizer published once. Returns the folded scene."""
    def table_props():
        props = ProximityProperties()
        if hydroelastic:
            AddRigidHydroelasticProperties(0.5, props)
        return props

    def ball_props():
        props = ProximityProperties()
        if hydroelastic:
            AddCompliantHydroelasticProperties(0.02, 1e6, props)
        return props

    def add_table(bodies):
        sg = bodies.scene_graph
        table = sg.RegisterAnchoredGeometry(
            bodies.source_id,
            GeometryInstance(RigidTransform([0.0, 0.0, -0.05]), Box(1.0, 1.0, 0.1), "table"))
        sg.AssignRole(bodies.source_id, table, table_props())
        return table

    def add(bodies):
        ids = {}
        if table_first:
            ids["table"] = add_table(bodies)
        ids["ball"] = bodies.add("ball", Sphere(0.1), roles=("proximity",), proximity=ball_props(),
                                 X_WF=RigidTransform([0.0, 0.0, 0.1 - DEPTH]))
        if not table_first:
            ids["table"] = add_table(bodies)
        assert (ids["table"].get_value() < ids["ball"].get_value()) == table_first

    params = ContactVisualizerParams(depth_scale=20.0, newtons_per_meter=10.0)
    diagram, _, _, visualizer = build(
        add, add_systems=lambda b, sg: ContactVisualizer.AddToBuilder(b, sg, meshcat, params))
    context = diagram.CreateDefaultContext()
    visualizer.ForcedPublish(visualizer.GetMyContextFromRoot(context))
    return fold(read_scene(meshcat))


@pytest.mark.parametrize("table_first", [True, False])
def test_point_contact_arrow_points_up_out_of_the_table(meshcat, table_first):
    state = _ball_on_table(meshcat, table_first)
    path = next(p for p in state["transforms"]
                if p.startswith(PREFIX) and p.count("/") == 3)
    X_WP = state["transforms"][path]
    np.testing.assert_allclose(X_WP[:3, 2], [0.0, 0.0, 1.0], atol=1e-6)    # up, out of the table
    np.testing.assert_allclose(X_WP[:3, 3], [0.0, 0.0, -DEPTH / 2], atol=1e-6)  # midpoint
    # The tip (head) is depth · depth_scale above the base.
    assert state["transforms"][f"{path}/head"][2, 3] == pytest.approx(DEPTH * 20.0, rel=1e-6)
    assert state["properties"][(path, "visible")] is True


@pytest.mark.parametrize("table_first", [True, False])
def test_hydroelastic_force_arrow_points_up_out_of_the_table(meshcat, table_first):
    state = _ball_on_table(meshcat, table_first, hydroelastic=True)
    paths = [p for p in state["transforms"]
             if p.startswith(f"{PREFIX}/hydroelastic/") and p.endswith("/force")]
    assert len(paths) == 1
    X_WP = state["transforms"][paths[0]]
    np.testing.assert_allclose(X_WP[:3, 2], [0.0, 0.0, 1.0], atol=1e-6)
    assert abs(X_WP[2, 3]) < 1e-6                       # centroid on the table top
