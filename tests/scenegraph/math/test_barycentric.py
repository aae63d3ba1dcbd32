"""BarycentricMesh reproduces linear functions and gives pydrake's weights."""

import numpy as np

from scenegraph import math as dm


def test_barycentric_mesh_reproduces_linear_functions_and_pydrakes_weights():
    mesh = dm.BarycentricMesh([{0.0, 1.0}, {0.0, 1.0, 2.0}])
    indices, weights = mesh.EvalBarycentricWeights([0.5, 1.5])
    assert indices.tolist() == [5, 4, 2] and weights.tolist() == [0.5, 0.0, 0.5]  # pydrake
    values = mesh.MeshValuesFrom(lambda x: np.array([3 * x[0] - x[1] + 1, x[1]]))
    for x in ([0.2, 0.7], [0.9, 1.9], [0.0, 2.0]):
        np.testing.assert_allclose(mesh.Eval(values, x), [3 * x[0] - x[1] + 1, x[1]])
