"""draw_witness_lines draws one segment per estimate row, grouped and coloured by method,
forgets stale groups, and refuses results without world witnesses."""
import numpy as np
import pytest

from scenegraph.proximity.batched_queries import ProximityMethod, SignedDistanceEstimates
from scenegraph.visualization.meshcat_shapes import rgba_to_int
from scenegraph.visualization.witness_lines import METHOD_COLORS, draw_witness_lines
from tests.scenegraph.visualization.scene_reader import array, fold, read_scene


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
