"""compiled/mesh_kernels: the nearest-triangle search's scratch."""
from __future__ import annotations

import numpy as np
import trimesh

from scenegraph.proximity.compiled import mesh_kernels as mk
from scenegraph.proximity.mesh_bvh import TriangleMeshBvh
from scenegraph.proximity.mesh_distance import _kernel_args


def test_nearest_with_stack_in_the_scratch_answers_as_with_short_scratch():
    # _SCRATCH-long scratch holds the traversal stack (no allocation per
    # query); _CANDIDATES-long scratch (other callers) allocates it. Same
    # answers, bit for bit, and the cube's closed forms: from (0.2, 0.1, 0.9)
    # the nearest point of the unit cube [-0.5, 0.5]³ is (0.2, 0.1, 0.5), 0.4 m
    # away; from the centre the depth is 0.5 m.
    m = trimesh.creation.box((1.0, 1.0, 1.0))
    bvh = TriangleMeshBvh(m.vertices, m.faces)
    tri, pseudo, node_f, node_i, tri_id, closed, eps, tol, beta = _kernel_args(bvh, True)
    assert mk._SCRATCH == mk._CANDIDATES + mk._STACK
    points = np.array([[0.2, 0.1, 0.9], [0.0, 0.0, 0.0], [0.7, -0.6, 0.55]])
    answers = []
    for size in (mk._CANDIDATES, mk._SCRATCH):
        cand_k = np.empty(size, dtype=np.int64)
        cand_d2 = np.empty(size)
        answers.append([mk._signed_one(x, y, z, tri, pseudo, node_f, node_i, tri_id, closed,
                                       eps, tol, beta, cand_k, cand_d2)[:7]
                        for x, y, z in points])
    assert answers[0] == answers[1]
    d, qx, qy, qz = answers[1][0][:4]
    assert abs(d - 0.4) < 1e-15
    np.testing.assert_allclose((qx, qy, qz), (0.2, 0.1, 0.5), atol=1e-15)
    assert abs(answers[1][1][0] + 0.5) < 1e-15
    expected = np.linalg.norm([0.2, 0.1, 0.05])      # outside a corner
    assert abs(answers[1][2][0] - expected) < 1e-15
