"""BsplineBasis: basis values against closed forms and the partition of unity."""

import numpy as np
import pytest

from scenegraph import math as dm


def test_bspline_basis_values_and_partition_of_unity():
    basis = dm.BsplineBasis(3, 5)
    assert basis.knots() == pytest.approx([0, 0, 0, 1 / 3, 2 / 3, 1, 1, 1])  # pydrake's
    assert basis.EvaluateBasisFunctionI(1, 0.3) == pytest.approx(0.585)     # pydrake's
    assert basis.ComputeActiveBasisFunctionIndices(0.3) == [0, 1, 2]
    for t in np.linspace(0.0, 1.0, 11):
        assert basis.EvaluateLinearInControlPoints(t).sum() == pytest.approx(1.0)
    # Clamped: the curve starts and ends at its first and last control points.
    points = [np.array([float(i), float(i * i)]) for i in range(5)]
    np.testing.assert_allclose(basis.EvaluateCurve(points, 0.0), points[0])
    np.testing.assert_allclose(basis.EvaluateCurve(points, 1.0), points[-1])
