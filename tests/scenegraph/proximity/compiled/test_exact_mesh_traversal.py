"""The two-tree traversal of the exact-mesh pairs (scenegraph/proximity/
compiled/exact_mesh_traversal.py) prunes node pairs by the gap between two
oriented boxes: a lower bound of the distance between them that combines the
per-axis gaps in a box's frame into one distance (tighter than the largest
single gap)."""
from __future__ import annotations

import numpy as np
from scipy.spatial.transform import Rotation

from scenegraph.proximity.compiled.exact_mesh_traversal import _obb_gap, _pose_node


def obb_row(centre, R, half):
    """A node_obbs row: centre (3), axes as rows (9), half extents (3)."""
    return np.concatenate([centre, np.asarray(R).T.ravel(), half])


def box_points(row, n=7):
    """Points filling the oriented box of a node_obbs row (a grid, n per axis)."""
    g = np.linspace(-1.0, 1.0, n)
    u = np.stack(np.meshgrid(g, g, g, indexing="ij"), -1).reshape(-1, 3) * row[12:15]
    return row[0:3] + u @ row[3:12].reshape(3, 3)


def gap(OA, OB, R, t):
    """_obb_gap of box OA and box OB posed in A's frame by (R, t)."""
    node_f = np.zeros((1, 13))
    boxes = np.empty((1, 6))
    posed = np.empty((1, 12))
    _pose_node(node_f, OB[None, :], 0, R, t, boxes, posed)
    return _obb_gap(OA[None, :], 0, OB[None, :], posed, 0)


def test_the_oriented_box_gap_is_a_lower_bound_of_the_boxes_distance():
    rng = np.random.default_rng(3)
    tighter = 0
    for _ in range(100):
        OA = obb_row(rng.uniform(-0.1, 0.1, 3), Rotation.random(random_state=rng).as_matrix(),
                     rng.uniform(0.001, 0.05, 3))
        OB = obb_row(rng.uniform(-0.1, 0.1, 3), Rotation.random(random_state=rng).as_matrix(),
                     rng.uniform(0.001, 0.05, 3))
        R = Rotation.random(random_state=rng).as_matrix()
        t = rng.uniform(-0.15, 0.15, 3)
        g = gap(OA, OB, R, t)
        PA = box_points(OA)
        PB = box_points(OB) @ R.T + t
        sampled = np.sqrt(((PA[:, None, :] - PB[None, :, :]) ** 2).sum(-1).min())
        assert g <= sampled + 1e-15
        # The largest single-axis gap (B's box seen along A's axes, then A's along B's).
        axes_a, axes_b = OA[3:12].reshape(3, 3), R @ OB[3:12].reshape(3, 3).T
        d = R @ OB[0:3] + t - OA[0:3]
        reach_b = np.abs(axes_a @ axes_b) @ OB[12:15]
        reach_a = np.abs(axes_b.T @ axes_a.T) @ OA[12:15]
        single = max((np.abs(axes_a @ d) - OA[12:15] - reach_b).max(),
                     (np.abs(axes_b.T @ d) - OB[12:15] - reach_a).max(), 0.0)
        assert g >= single - 1e-15
        tighter += g > single + 1e-6
    assert tighter > 10
