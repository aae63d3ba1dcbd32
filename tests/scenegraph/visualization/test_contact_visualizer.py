"""ContactVisualizer: point-contact arrows along nhat_BA_W with length ∝ depth,
stale arrows hidden, hydroelastic surfaces coloured by pressure with the net
force arrow, and graceful fallback when contact surfaces are unavailable."""
import logging

import numpy as np
import pytest

from scenegraph import (AddCompliantHydroelasticProperties, AddRigidHydroelasticProperties,
                        ProximityProperties, Sphere)
from scenegraph.hydroelastic.contact_surface import (ContactSurface,
                                                     HydroelasticContactRepresentation)
from scenegraph.hydroelastic.mesh_field import (PolygonSurfaceMeshFieldLinear,
                                                TriangleSurfaceMeshFieldLinear)
from scenegraph.hydroelastic.surface_mesh import PolygonSurfaceMesh, TriangleSurfaceMesh
from scenegraph.math import RigidTransform
from scenegraph.query_object import QueryObject
from scenegraph.visualization import ContactVisualizer, ContactVisualizerParams
from scenegraph.visualization.contact_visualizer import surface_force_W
from tests.scenegraph.visualization.scene_reader import array, fold, read_scene
from tests.scenegraph.visualization.scenes import build
from scenegraph import Box, HalfSpace

PREFIX = "/drake/contact_forces"


def _two_spheres(meshcat, proximity=None, params=None, gap=-0.05):
    """'top' (registered first, so it is A) above 'bottom', both r = 0.1;
    centres 0.2 + gap apart along z (gap < 0: penetration of depth -gap)."""
    def add(bodies):
        bodies.add("top", Sphere(0.1), roles=("proximity",), proximity=proximity and proximity(),
                   X_WF=RigidTransform([0.0, 0.0, 0.2 + gap]))
        bodies.add("bottom", Sphere(0.1), roles=("proximity",),
                   proximity=proximity and proximity())

    def add_systems(builder, scene_graph):
        return ContactVisualizer.AddToBuilder(builder, scene_graph, meshcat, params)
    diagram, scene_graph, bodies, visualizer = build(add, add_systems=add_systems)
    context = diagram.CreateDefaultContext()
    return diagram, bodies, visualizer, context


def _publish(visualizer, context):
    visualizer.ForcedPublish(visualizer.GetMyContextFromRoot(context))


def test_add_to_builder(meshcat):
    _, _, visualizer, _ = _two_spheres(meshcat)
    assert visualizer.get_name() == "contact_visualizer"
    assert visualizer.query_object_input_port().get_name() == "query_object"
    assert visualizer.num_output_ports() == 0


def test_point_contact_arrow_along_nhat_with_length_proportional_to_depth(meshcat):
    params = ContactVisualizerParams(depth_scale=20.0, radius=0.002)
    _, _, visualizer, context = _two_spheres(meshcat, params=params)
    _publish(visualizer, context)
    state = fold(read_scene(meshcat))
    path = f"{PREFIX}/top+bottom"
    X_WP = state["transforms"][path]
    np.testing.assert_allclose(X_WP[:3, 3], [0, 0, 0.075], atol=1e-9)   # between Ca and Cb
    np.testing.assert_allclose(X_WP[:3, 2], [0, 0, 1], atol=1e-9)       # nhat_BA_W: B into A
    np.testing.assert_allclose(X_WP[:3, :3].T @ X_WP[:3, :3], np.eye(3), atol=1e-12)
    length = 0.05 * 20.0
    props = state["properties"]
    head = 4 * params.radius
    X_PH = state["transforms"][f"{path}/head"]
    X_PS = state["transforms"][f"{path}/shaft"]
    assert X_PH[:3, 3] == pytest.approx([0, 0, length])          # head at the tip
    np.testing.assert_allclose(X_PH[:3, :3], np.diag([1, -1, -1]), atol=1e-12)  # cone flipped
    np.testing.assert_allclose(np.diag(X_PS)[:3], [1, 1, length - head])   # shaft scaled
    assert X_PS[:3, 3] == pytest.approx([0, 0, (length - head) / 2])
    assert props[(path, "visible")] is True
    shaft = state["objects"][f"{path}/shaft"]["geometries"][0]
    assert shaft["type"] == "CylinderGeometry" and shaft["radiusTop"] == params.radius
    assert state["objects"][f"{path}/shaft"]["materials"][0]["color"] == 0xFF0000


def test_stale_arrows_are_hidden_and_come_back(meshcat):
    _, bodies, visualizer, context = _two_spheres(meshcat)
    _publish(visualizer, context)
    bodies_context = bodies.GetMyContextFromRoot(context)
    bodies.set_pose(bodies_context, "top", RigidTransform([0.0, 0.0, 1.0]))
    _publish(visualizer, context)
    path = f"{PREFIX}/top+bottom"
    assert fold(read_scene(meshcat))["properties"][(path, "visible")] is False
    bodies.set_pose(bodies_context, "top", RigidTransform([0.0, 0.0, 0.19]))
    _publish(visualizer, context)
    state = fold(read_scene(meshcat))
    assert state["properties"][(path, "visible")] is True
    # The head sits at the arrow's tip: z = length (its transform carries the
    # scale too).
    assert state["transforms"][f"{path}/head"][:3, 3] == pytest.approx([0, 0, 0.5])


def test_initialization_event_clears_old_contacts(meshcat):
    meshcat.SetObject("contact_forces/old+pair/shaft", Sphere(1.0))
    diagram, _, _, _ = _two_spheres(meshcat, gap=0.1)
    from systems.analysis import Simulator
    Simulator(diagram).Initialize()
    assert not meshcat.HasPath("contact_forces/old+pair")


def _surface_pieces(kind):
    """A 0.2 m square in z = 0 (normal +z) with pressure p = 1e4·(x + 0.1) [Pa]."""
    p_WV = np.array([[-0.1, -0.1, 0.0], [0.1, -0.1, 0.0], [0.1, 0.1, 0.0], [-0.1, 0.1, 0.0]])
    pressure = 1e4 * (p_WV[:, 0] + 0.1)
    if kind == "triangles":
        mesh = TriangleSurfaceMesh([[0, 1, 2], [0, 2, 3]], p_WV)
        field = TriangleSurfaceMeshFieldLinear(pressure, mesh)
    else:
        mesh = PolygonSurfaceMesh([4, 0, 1, 2, 3], list(p_WV))
        field = PolygonSurfaceMeshFieldLinear(pressure, mesh, [[1e4, 0.0, 0.0]])
    return mesh, field, pressure


@pytest.mark.parametrize("kind", ["triangles", "polygons"])
def test_hydroelastic_surface_coloured_by_pressure_with_net_force_arrow(meshcat, monkeypatch,
                                                                        kind):
    """A stand-in engine returns one known ContactSurface (Drake's API)."""
    rigid = ProximityProperties
    def hydro():
        props = rigid()
        AddRigidHydroelasticProperties(0.1, props)
        return props
    params = ContactVisualizerParams(newtons_per_meter=1000.0)
    _, bodies, visualizer, context = _two_spheres(meshcat, proximity=hydro, params=params,
                                                  gap=0.5)
    id_M, id_N = bodies.geometries["top"], bodies.geometries["bottom"]
    mesh, field, pressure = _surface_pieces(kind)
    surface = ContactSurface(id_M, id_N, mesh, field)
    calls = []

    def stand_in(self, representation):
        calls.append(representation)
        return [surface], []
    monkeypatch.setattr(QueryObject, "ComputeContactSurfacesWithFallback", stand_in)
    _publish(visualizer, context)
    assert calls == [HydroelasticContactRepresentation.kPolygon]
    state = fold(read_scene(meshcat))
    base = f"{PREFIX}/hydroelastic/top+bottom"
    geometry = state["objects"][f"{base}/surface"]["geometries"][0]
    p = array(geometry["data"]["attributes"]["position"])
    colors = array(geometry["data"]["attributes"]["color"])
    np.testing.assert_allclose(p, mesh.vertices_array(), atol=1e-7)
    np.testing.assert_allclose(colors[np.argmax(pressure)], [1, 0, 0])   # largest: red
    np.testing.assert_allclose(colors[np.argmin(pressure)], [0, 0, 1])   # zero: blue
    f_W = surface.calc_force_W()
    np.testing.assert_allclose(f_W, [0, 0, 1e4 * 0.1 * 0.04])            # ∫p dA along +z
    X_WP = state["transforms"][f"{base}/force"]
    np.testing.assert_allclose(X_WP[:3, 3], surface.centroid(), atol=1e-7)
    np.testing.assert_allclose(X_WP[:3, 2], f_W / np.linalg.norm(f_W), atol=1e-7)
    length = np.linalg.norm(f_W) / 1000.0
    assert state["transforms"][f"{base}/force/head"][:3, 3] == pytest.approx([0, 0, length])
    # The surface goes away when the contact does.
    monkeypatch.setattr(QueryObject, "ComputeContactSurfacesWithFallback",
                        lambda self, representation: ([], []))
    _publish(visualizer, context)
    state = fold(read_scene(meshcat))
    assert f"{base}/surface" not in state["objects"]
    assert state["properties"][(f"{base}/force", "visible")] is False


def test_surface_force_matches_contact_surface_force():
    rng = np.random.default_rng(3)
    p_WV = rng.normal(size=(6, 3))
    tris = np.array([[0, 1, 2], [1, 3, 2], [3, 4, 5], [0, 2, 5]])
    pressure = rng.uniform(0, 1e5, 6)
    mesh = TriangleSurfaceMesh(tris, p_WV)
    surface = ContactSurface(*_two_ids(), mesh, TriangleSurfaceMeshFieldLinear(pressure, mesh))
    np.testing.assert_allclose(surface_force_W(mesh.vertices_array(), mesh.triangles_array(),
                                               pressure), surface.calc_force_W(), rtol=1e-12)


def _two_ids():
    from scenegraph.identifiers import GeometryId
    return GeometryId.get_new_id(), GeometryId.get_new_id()


def test_real_hydroelastic_contact_draws_a_surface_or_falls_back(meshcat):
    def soft():
        props = ProximityProperties()
        AddCompliantHydroelasticProperties(0.05, 1e6, props)
        return props
    _, _, visualizer, context = _two_spheres(meshcat, proximity=soft, gap=-0.02)
    _publish(visualizer, context)
    state = fold(read_scene(meshcat))
    base = f"{PREFIX}/hydroelastic/top+bottom"
    if f"{base}/surface" in state["objects"]:
        X_WP = state["transforms"][f"{base}/force"]
        np.testing.assert_allclose(X_WP[:3, 3], [0, 0, 0.09], atol=0.01)
        assert abs(X_WP[2, 2]) > 0.99                        # force along ±z
    else:
        assert f"{PREFIX}/top+bottom" in state["transforms"]


def test_skips_hydroelastic_drawing_when_contact_surfaces_are_not_implemented(
        meshcat, monkeypatch, caplog):
    def soft():
        props = ProximityProperties()
        AddCompliantHydroelasticProperties(0.05, 1e6, props)
        return props
    _, _, visualizer, context = _two_spheres(meshcat, proximity=soft)
    calls = []

    def not_yet(self, representation):
        calls.append(1)
        raise NotImplementedError("contact surfaces land later")
    monkeypatch.setattr(QueryObject, "ComputeContactSurfacesWithFallback", not_yet)
    with caplog.at_level(logging.WARNING, logger="scenegraph.meshcat"):
        _publish(visualizer, context)
        _publish(visualizer, context)
    assert calls == [1]                                      # tried once, then skipped
    assert sum("contact surfaces are not available" in r.message for r in caplog.records) == 1
    state = fold(read_scene(meshcat))
    assert state["properties"][(f"{PREFIX}/top+bottom", "visible")] is True


def test_rejects_bad_params(meshcat):
    with pytest.raises(RuntimeError, match="newtons_per_meter"):
        ContactVisualizer(meshcat, ContactVisualizerParams(newtons_per_meter=0.0))
    with pytest.raises(RuntimeError, match="publish_period"):
        ContactVisualizer(meshcat, ContactVisualizerParams(publish_period=float("nan")))


def test_manifold_points_draw_one_arrow_per_corner_of_a_resting_box(meshcat):
    params = ContactVisualizerParams(depth_scale=100.0, radius=0.002, manifold_points=True)

    def add(bodies):
        bodies.add("ground", HalfSpace(), roles=("proximity",))
        bodies.add("brick", Box(0.2, 0.1, 0.08), roles=("proximity",),
                   X_WF=RigidTransform([0.0, 0.0, 0.039]))

    def add_systems(builder, scene_graph):
        return ContactVisualizer.AddToBuilder(builder, scene_graph, meshcat, params)
    diagram, _, _, visualizer = build(add, add_systems=add_systems)
    context = diagram.CreateDefaultContext()
    visualizer.ForcedPublish(visualizer.GetMyContextFromRoot(context))
    state = fold(read_scene(meshcat))
    bases = []
    for i in range(4):
        path = f"{PREFIX}/ground+brick/{i}"
        assert state["properties"][(path, "visible")] is True
        X_WP = state["transforms"][path]
        bases.append(X_WP[:3, 3])
        # Length depth·scale = 0.1 m: the head sits at the tip.
        assert state["transforms"][f"{path}/head"][:3, 3] == pytest.approx([0, 0, 0.1])
    assert f"{PREFIX}/ground+brick/4" not in state["transforms"]
    # Bases halfway between the corners and the ground: z = -0.0005 (float32 on the wire).
    bases = np.array(bases)[np.lexsort(np.array(bases).T[::-1])]
    expected = [[sx * 0.1, sy * 0.05, -0.0005] for sx in (-1, 1) for sy in (-1, 1)]
    np.testing.assert_allclose(bases, expected, atol=1e-6)
