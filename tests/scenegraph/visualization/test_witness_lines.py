"""Issue 31: ContactVisualizerParams(manifold_points=True) draws an arrow at
each contact manifold point; draw_witness_lines draws one segment per
estimate row, grouped and coloured by method, and forgets stale groups."""
import numpy as np
import pytest

from scenegraph import Box, HalfSpace
from scenegraph.math import RigidTransform
from scenegraph.proximity.batched_queries import ProximityMethod, SignedDistanceEstimates
from scenegraph.visualization import ContactVisualizer, ContactVisualizerParams
from scenegraph.visualization.meshcat_shapes import rgba_to_int
from scenegraph.visualization.witness_lines import METHOD_COLORS, draw_witness_lines
from tests.scenegraph.visualization.scene_reader import array, fold, read_scene
from tests.scenegraph.visualization.scenes import build

PREFIX = "/drake/contact_forces"


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


def _estimates(rows):
    """SignedDistanceEstimates of rows (p_WCa, p_WCb, method)."""
    a = np.array([r[0] for r in rows], float).reshape(-1, 3)
    b = np.array([r[1] for r in rows], float).reshape(-1, 3)
    d = np.linalg.norm(a - b, axis=1)
    return SignedDistanceEstimates([None] * len(rows), [None] * len(rows), d, a, b,
                                   (a - b) / d[:, None], np.array([int(r[2]) for r in rows]))


def test_witness_lines_are_grouped_by_method_and_stale_groups_deleted(meshcat):
    first = _estimates([([0, 0, 1], [0, 0, 0], ProximityMethod.kBoundingSphere),
                        ([1, 0, 1], [1, 0, 0], ProximityMethod.kVertexToFace),
                        ([2, 0, 1], [2, 0, 0], ProximityMethod.kVertexToFace)])
    drawn = draw_witness_lines(meshcat, first, "lines")
    assert drawn == {ProximityMethod.kBoundingSphere: 1, ProximityMethod.kVertexToFace: 2}
    state = fold(read_scene(meshcat))
    segments = state["objects"]["/drake/lines/VertexToFace"]
    assert segments["object"]["type"] == "LineSegments"
    position = array(segments["geometries"][0]["data"]["attributes"]["position"]).reshape(-1, 3)
    np.testing.assert_allclose(position, [[1, 0, 1], [1, 0, 0], [2, 0, 1], [2, 0, 0]])
    assert segments["materials"][0]["color"] == rgba_to_int(
        METHOD_COLORS[ProximityMethod.kVertexToFace])
    # A later call without bounding-sphere rows removes that group.
    draw_witness_lines(meshcat, _estimates([([0, 0, 1], [0, 0, 0],
                                             ProximityMethod.kConvexHull)]), "lines")
    state = fold(read_scene(meshcat))
    assert "/drake/lines/BoundingSphere" not in state["objects"]
    assert "/drake/lines/VertexToFace" not in state["objects"]
    assert "/drake/lines/ConvexHull" in state["objects"]


def test_witness_lines_refuse_results_without_world_witnesses(meshcat):
    with pytest.raises(TypeError, match="p_WCa and p_WCb"):
        draw_witness_lines(meshcat, [1, 2, 3])
