"""scenegraph.math's pydrake.math functions: equations solved (residuals), closed
forms, and values checked against pydrake 1.51 where noted."""
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


def test_quaternion_rates_round_trip_and_canonical_forms():
    q = dm.UniformlyRandomQuaternion(np.random.default_rng(4))
    w = np.array([0.3, -1.1, 2.0])
    qdot = dm.CalculateQuaternionDtFromAngularVelocityExpressedInB(q, w)
    np.testing.assert_allclose(dm.CalculateAngularVelocityExpressedInBFromQuaternionDt(q, qdot),
                               w, atol=1e-14)
    assert abs(dm.CalculateQuaternionDtConstraintViolation(q, qdot)) < 1e-14
    assert dm.IsBothQuaternionAndQuaternionDtOK(q, qdot, 1e-12)
    # q̇ from ω agrees with the derivative of the rotation: Ṙ = R [ω]ₓ.
    h = 1e-7
    q_next = dm.Quaternion(q.wxyz() + h * qdot)
    R_dot = (q_next.rotation() - q.rotation()) / h
    np.testing.assert_allclose(R_dot, q.rotation() @ dm.VectorToSkewSymmetric(w), atol=1e-5)
    negative = dm.Quaternion(-q.wxyz())
    assert dm.AreQuaternionsEqualForOrientation(q, negative, 1e-15)
    assert dm.is_quaternion_in_canonical_form(dm.QuaternionToCanonicalForm(negative))
    np.testing.assert_allclose(dm.ClosestQuaternion(q, negative).wxyz(), q.wxyz())


def test_random_rotations_are_uniform_in_the_mean():
    rng = np.random.default_rng(0)
    mats = [dm.UniformlyRandomRotationMatrix(rng).matrix() for _ in range(3000)]
    np.testing.assert_allclose(np.mean(mats, axis=0), np.zeros((3, 3)), atol=0.05)
    rpy = dm.UniformlyRandomRPY(rng)
    assert rpy.shape == (3,)
    axis = dm.UniformlyRandomAngleAxis(rng)
    assert 0.0 <= axis.angle() <= math.pi and np.linalg.norm(axis.axis()) == pytest.approx(1)


def test_numerical_gradients_reach_their_order():
    f = lambda x: np.array([math.sin(x[0]) * x[1], x[1] ** 3])   # noqa: E731
    x = np.array([0.7, 1.3])
    exact = np.array([[math.cos(0.7) * 1.3, math.sin(0.7)], [0.0, 3 * 1.3 ** 2]])
    forward = dm.ComputeNumericalGradient(f, x)
    central = dm.ComputeNumericalGradient(
        f, x, dm.NumericalGradientOption(dm.NumericalGradientMethod.kCentral))
    assert np.max(np.abs(forward - exact)) < 1e-6
    assert np.max(np.abs(central - exact)) < 1e-9
    assert dm.NumericalGradientOption(dm.NumericalGradientMethod.kCentral
                                      ).perturbation_size() == pytest.approx(1e-5)


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


def test_barycentric_mesh_reproduces_linear_functions_and_pydrakes_weights():
    mesh = dm.BarycentricMesh([{0.0, 1.0}, {0.0, 1.0, 2.0}])
    indices, weights = mesh.EvalBarycentricWeights([0.5, 1.5])
    assert indices.tolist() == [5, 4, 2] and weights.tolist() == [0.5, 0.0, 0.5]  # pydrake
    values = mesh.MeshValuesFrom(lambda x: np.array([3 * x[0] - x[1] + 1, x[1]]))
    for x in ([0.2, 0.7], [0.9, 1.9], [0.0, 2.0]):
        np.testing.assert_allclose(mesh.Eval(values, x), [3 * x[0] - x[1] + 1, x[1]])


def test_scalar_functions_and_soft_extrema():
    assert dm.wrap_to(7.0, 0.0, 2 * math.pi) == pytest.approx(7.0 - 2 * math.pi)
    assert dm.wrap_to(-0.5, 0.0, 1.0) == 0.5
    x = [1.0, 2.0]
    assert dm.SoftOverMax(x) == pytest.approx(math.log(math.e + math.e ** 2))
    assert dm.SoftUnderMax(x) < 2.0 < dm.SoftOverMax(x)
    assert dm.SoftUnderMin(x) < 1.0 < dm.SoftOverMin(x)
    assert dm.sin(0.5) == math.sin(0.5) and dm.atan2(1.0, -1.0) == math.atan2(1.0, -1.0)
    assert dm.eq(np.array([1, 2]), np.array([1, 3])).tolist() == [True, False]
    np.testing.assert_allclose(dm.inv(np.diag([2.0, 4.0])), np.diag([0.5, 0.25]))


def test_roll_pitch_yaw_rates_match_finite_differences():
    rpy = dm.RollPitchYaw(0.3, -0.4, 1.1)
    rates = np.array([0.5, -0.2, 0.7])
    h = 1e-6
    R0 = rpy.ToRotationMatrix().matrix()
    R1 = dm.RollPitchYaw(rpy.vector() + h * rates).ToRotationMatrix().matrix()
    R_dot = (R1 - R0) / h
    np.testing.assert_allclose(rpy.CalcRotationMatrixDt(rates), R_dot, atol=1e-5)
    w_A = rpy.CalcAngularVelocityInParentFromRpyDt(rates)
    np.testing.assert_allclose(dm.VectorToSkewSymmetric(w_A), R_dot @ R0.T, atol=1e-5)
    np.testing.assert_allclose(rpy.CalcRpyDtFromAngularVelocityInParent(w_A), rates)
    w_D = rpy.CalcAngularVelocityInChildFromRpyDt(rates)
    np.testing.assert_allclose(w_D, R0.T @ w_A, atol=1e-14)
    np.testing.assert_allclose(rpy.CalcRpyDtFromAngularVelocityInChild(w_D), rates)
    # Second derivatives: differentiate w(t) for rpy(t) = rpy + t·rates + t²/2·accel.
    accel = np.array([0.1, 0.3, -0.2])

    def w_parent(t):
        state = dm.RollPitchYaw(rpy.vector() + t * rates + 0.5 * t * t * accel)
        return state.CalcAngularVelocityInParentFromRpyDt(rates + t * accel)
    alpha_A = (w_parent(h) - w_parent(-h)) / (2 * h)
    np.testing.assert_allclose(rpy.CalcRpyDDtFromRpyDtAndAngularAccelInParent(rates, alpha_A),
                               accel, atol=1e-7)

    def w_child(t):
        state = dm.RollPitchYaw(rpy.vector() + t * rates + 0.5 * t * t * accel)
        return state.CalcAngularVelocityInChildFromRpyDt(rates + t * accel)
    alpha_D = (w_child(h) - w_child(-h)) / (2 * h)
    np.testing.assert_allclose(rpy.CalcRpyDDtFromAngularAccelInChild(rates, alpha_D),
                               accel, atol=1e-7)
    with pytest.raises(RuntimeError, match="gimbal"):
        dm.RollPitchYaw(0.0, math.pi / 2, 0.0).CalcRpyDtFromAngularVelocityInParent(w_A)
