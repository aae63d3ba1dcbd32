"""Matrix functions of scenegraph.math (pydrake.math): Riccati and Lyapunov solutions
satisfy their equations (residuals), PSD factorizations and quadratic forms, matrix
packing and predicates."""
import math

import numpy as np
import pytest

from scenegraph import math as dm


def test_riccati_and_lyapunov_solutions_satisfy_their_equations():
    A = np.array([[0.0, 1.0], [0.0, 0.0]])
    B = np.array([[0.0], [1.0]])
    Q, R = np.eye(2), np.eye(1)
    X = dm.ContinuousAlgebraicRiccatiEquation(A, B, Q, R)
    np.testing.assert_allclose(A.T @ X + X @ A - X @ B @ B.T @ X + Q, 0, atol=1e-12)
    np.testing.assert_allclose(X, [[math.sqrt(3), 1.0], [1.0, math.sqrt(3)]], atol=1e-12)
    Ad, Bd = np.eye(2) + 0.1 * A, 0.1 * B
    P = dm.DiscreteAlgebraicRiccatiEquation(Ad, Bd, Q, R)
    K = np.linalg.solve(Bd.T @ P @ Bd + R, Bd.T @ P @ Ad)
    np.testing.assert_allclose(Ad.T @ P @ Ad - P - Ad.T @ P @ Bd @ K + Q, 0, atol=1e-9)
    Ac = -np.eye(2) + A
    Xc = dm.RealContinuousLyapunovEquation(Ac, Q)
    np.testing.assert_allclose(Ac.T @ Xc + Xc @ Ac + Q, 0, atol=1e-12)
    Xd = dm.RealDiscreteLyapunovEquation(0.5 * Ad, Q)
    np.testing.assert_allclose((0.5 * Ad).T @ Xd @ (0.5 * Ad) - Xd + Q, 0, atol=1e-12)
    with pytest.raises(RuntimeError, match="ContinuousAlgebraicRiccatiEquation"):
        dm.ContinuousAlgebraicRiccatiEquation(np.eye(2), np.zeros((2, 1)), Q, R)


def test_psd_factorizations_and_quadratic_forms():
    Y = np.array([[4.0, 2.0], [2.0, 1.0]])        # rank 1
    X = dm.DecomposePSDmatrixIntoXtransposeTimesX(Y, 1e-10)
    assert X.shape == (1, 2)
    np.testing.assert_allclose(X.T @ X, Y, atol=1e-12)
    with pytest.raises(RuntimeError, match="not positive semidefinite"):
        dm.DecomposePSDmatrixIntoXtransposeTimesX(-Y, 1e-10)
    assert dm.DecomposePSDmatrixIntoXtransposeTimesX(-Y, 1e-10, True).shape == (0, 2)
    Q, b, c = np.array([[2.0, 0.0], [0.0, 1.0]]), np.array([1.0, 0.0]), 1.0
    Rm, d = dm.DecomposePositiveQuadraticForm(Q, b, c)
    for x in (np.zeros(2), np.array([0.3, -1.2])):
        assert np.sum((Rm @ x + d[:, 0]) ** 2) == pytest.approx(x @ Q @ x + b @ x + c)
    S, Pm = np.diag([1.0, 4.0]), np.array([[4.0, 1.0], [1.0, 1.0]])
    T = dm.BalanceQuadraticForms(S, Pm)
    D = T.T @ Pm @ T
    np.testing.assert_allclose(D, np.diag(np.diag(D)), atol=1e-12)
    np.testing.assert_allclose(T.T @ S @ T, np.linalg.inv(D), atol=1e-12)


def test_matrix_packing_and_predicates():
    M = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0], [3.0, 5.0, 6.0]])
    packed = dm.ToLowerTriangularColumnsFromMatrix(M)
    assert packed.tolist() == [1, 2, 3, 4, 5, 6]        # pydrake's value
    np.testing.assert_array_equal(dm.ToSymmetricMatrixFromLowerTriangularColumns(packed), M)
    np.testing.assert_array_equal(dm.ExtractPrincipalSubmatrix(np.arange(9.0).reshape(3, 3),
                                                               {0, 2}), [[0, 2], [6, 8]])
    p, v = np.array([1.0, 2.0, 3.0]), np.array([-0.5, 0.25, 2.0])
    np.testing.assert_allclose(dm.VectorToSkewSymmetric(p) @ v, np.cross(p, v))
    assert dm.IsSymmetric(M) and not dm.IsSymmetric(M + np.triu(np.ones((3, 3)), 1) * 1e-9)
    assert dm.IsSymmetric(M + np.triu(np.ones((3, 3)), 1) * 1e-9, 1e-8)
    assert dm.IsPositiveDefinite(np.eye(2)) and not dm.IsPositiveDefinite(np.diag([1, -1]))
