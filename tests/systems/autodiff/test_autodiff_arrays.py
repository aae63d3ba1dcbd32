"""Linear algebra on object arrays of AutoDiffXd: products, solves and inverses carry
derivatives that match finite differences; InitializeAutoDiff and ExtractGradient as
pydrake's."""

from __future__ import annotations

import numpy as np
import pytest

import scenegraph.math as sgmath
from systems.autodiff import (AutoDiffXd, ExtractGradient, ExtractValue, InitializeAutoDiff,
                              InitializeAutoDiffTuple, autodiff_equal_to)


AD = AutoDiffXd


def test_linear_algebra_on_object_arrays():
    a, b = AD(1, [1.0, 0]), AD(2, [0, 1.0])
    A, B = np.array([[a, a]]), np.array([[b, b]]).T
    assert autodiff_equal_to(np.dot(A, B)[0, 0], AD(4, [4.0, 2]))
    assert autodiff_equal_to((A @ B)[0, 0], AD(4, [4.0, 2]))
    assert autodiff_equal_to((A @ np.array([[2.0], [2.0]]))[0, 0], AD(4, [4.0, 0]))
    X = np.array([[a, b], [b, a]])
    assert autodiff_equal_to(np.trace(X), AD(2, [2.0, 0]))
    with pytest.raises(TypeError):
        np.linalg.inv(X)
    with pytest.raises(TypeError):
        np.array([a, b]).astype(float)


def test_inv_derivatives_match_finite_differences():
    A0 = np.array([[2.0, 1.0], [0.5, 3.0]])
    A_inv = sgmath.inv(InitializeAutoDiff(A0))
    np.testing.assert_allclose(ExtractValue(A_inv), np.linalg.inv(A0), rtol=1e-14)
    h, fd = 1e-6, []
    for k in range(4):
        E = np.zeros(4)
        E[k] = h
        dA = E.reshape(2, 2, order="F")
        fd.append(((np.linalg.inv(A0 + dA) - np.linalg.inv(A0 - dA)) / (2 * h))
                  .reshape(-1, order="F"))
    np.testing.assert_allclose(ExtractGradient(A_inv), np.array(fd).T, atol=1e-8)


def test_initialize_and_extract_are_pydrakes():
    a = InitializeAutoDiff(value=[1, 2, 3], num_derivatives=3, deriv_num_start=0)
    assert a.shape == (3, 1)
    np.testing.assert_array_equal(ExtractValue(auto_diff_matrix=a), [[1], [2], [3]])
    np.testing.assert_array_equal(ExtractGradient(auto_diff_matrix=a), np.eye(3))
    # Column-major numbering of a matrix's elements (Eigen's).
    M = InitializeAutoDiff(np.array([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_array_equal(M[0, 1].derivatives(), [0, 0, 1, 0])
    np.testing.assert_array_equal(ExtractGradient(M), np.eye(4))
    a, b = InitializeAutoDiffTuple([1], [2, 3])
    np.testing.assert_array_equal(ExtractGradient(a), np.eye(1, 3))
    np.testing.assert_array_equal(ExtractGradient(b), np.hstack((np.zeros((2, 1)), np.eye(2))))
    c = InitializeAutoDiff(value=[2, 3], gradient=[[2, 4, 5], [1, -1, 0]])
    np.testing.assert_array_equal(ExtractGradient(c), [[2, 4, 5], [1, -1, 0]])
    # Entries without derivatives give zero rows.
    np.testing.assert_array_equal(ExtractGradient(np.array([AD(1.0, [1.0, 2.0]), AD(1.0)])),
                                  [[1, 2], [0, 0]])
    with pytest.raises(ValueError, match="inconsistent, non-zero numbers of derivatives"):
        ExtractGradient(np.array([AD(1, [1.0]), AD(1, [1.0, 2.0])]))
    with pytest.raises(ValueError, match="do not fit"):
        InitializeAutoDiff([1.0, 2.0], num_derivatives=1)
    with pytest.raises(ValueError, match="rows"):
        InitializeAutoDiff([1.0, 2.0], gradient=np.eye(3))
