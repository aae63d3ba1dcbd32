"""pydrake.math's matrix utilities: symmetric/positive-definite tests, packing of
symmetric matrices, PSD factorizations, quadratic-form balancing, and the algebraic
Riccati and Lyapunov equations (solved with scipy.linalg; Drake's conventions).

Riccati: ContinuousAlgebraicRiccatiEquation(A, B, Q, R) is the stabilizing X of
    AᵀX + XA − XBR⁻¹BᵀX + Q = 0,
DiscreteAlgebraicRiccatiEquation(A, B, Q, R[, N]) the stabilizing X of
    AᵀXA − X − (AᵀXB + N)(BᵀXB + R)⁻¹(BᵀXA + Nᵀ) + Q = 0.
Lyapunov: RealContinuousLyapunovEquation(A, Q) solves AᵀX + XA + Q = 0 and
RealDiscreteLyapunovEquation(A, Q) solves AᵀXA − X + Q = 0. A failure (no
stabilizing solution, singular R) is a RuntimeError.
"""
from __future__ import annotations

import numpy as np

from systems.common.overloads import overloaded_function


def _linalg():
    """scipy.linalg, imported at the first solve (about 0.3–0.6 s of a process's
    import time otherwise, for programs that never solve an equation)."""
    import scipy.linalg
    return scipy.linalg

__all__ = ["IsSymmetric", "IsPositiveDefinite", "ToLowerTriangularColumnsFromMatrix",
           "ToSymmetricMatrixFromLowerTriangularColumns", "ExtractPrincipalSubmatrix",
           "VectorToSkewSymmetric", "DecomposePSDmatrixIntoXtransposeTimesX",
           "DecomposePositiveQuadraticForm", "BalanceQuadraticForms",
           "ContinuousAlgebraicRiccatiEquation", "DiscreteAlgebraicRiccatiEquation",
           "RealContinuousLyapunovEquation", "RealDiscreteLyapunovEquation"]


def _matrix(value, what: str) -> np.ndarray:
    M = np.asarray(value, dtype=float)
    if M.ndim != 2:
        raise ValueError(f"{what} must be a matrix; got shape {M.shape}")
    return M


@overloaded_function
def IsSymmetric(matrix) -> bool:
    """True when `matrix` is square and exactly equal to its transpose."""
    M = np.asarray(matrix, dtype=float)
    return M.ndim == 2 and M.shape[0] == M.shape[1] and bool(np.array_equal(M, M.T))


@IsSymmetric.overload
def IsSymmetric(matrix, precision: float) -> bool:
    """True when square and |M_ij − M_ji| ≤ precision for all i, j.

    Raises:
      RuntimeError: a non-finite entry or precision.
    """
    M = np.asarray(matrix, dtype=float)
    if not np.isfinite(precision):
        raise RuntimeError("Cannot accept nans or inf is IsSymmetric")
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        return False
    if not np.isfinite(M).all():
        raise RuntimeError("Cannot accept nans or inf is IsSymmetric")
    return bool(np.all(np.abs(M - M.T) <= precision))


def IsPositiveDefinite(matrix, tolerance: float = 0.0) -> bool:
    """True when symmetric and its smallest eigenvalue is ≥ tolerance·max(1, |λ|max)
    (Drake's test; with tolerance 0 this admits positive semi-definite matrices)."""
    if tolerance < 0:
        raise ValueError("IsPositiveDefinite: tolerance must be >= 0")
    M = np.asarray(matrix, dtype=float)
    if not IsSymmetric(M, 0.0):
        return False
    eigenvalues = np.linalg.eigvalsh(M)
    return bool(eigenvalues.min() >= tolerance * max(1.0, np.abs(eigenvalues).max()))


def ToLowerTriangularColumnsFromMatrix(matrix) -> np.ndarray:
    """The lower triangle of a square matrix, column by column (n(n+1)/2,)."""
    M = _matrix(matrix, "matrix")
    return np.concatenate([M[c:, c] for c in range(M.shape[1])]) if M.size else \
        np.zeros(0)


def ToSymmetricMatrixFromLowerTriangularColumns(lower_triangular_columns) -> np.ndarray:
    """The symmetric (n, n) matrix whose lower triangle, column by column, is the
    given (n(n+1)/2,) vector."""
    v = np.asarray(lower_triangular_columns, dtype=float).reshape(-1)
    n = int(round((-1 + np.sqrt(1 + 8 * v.size)) / 2))
    if n * (n + 1) // 2 != v.size:
        raise ValueError(f"ToSymmetricMatrixFromLowerTriangularColumns: {v.size} is not "
                         "a triangular number")
    M = np.zeros((n, n))
    k = 0
    for c in range(n):
        M[c:, c] = v[k:k + n - c]
        M[c, c:] = v[k:k + n - c]
        k += n - c
    return M


def ExtractPrincipalSubmatrix(matrix, indices) -> np.ndarray:
    """M[i, j] for i, j in the sorted `indices` (a non-empty set of ints)."""
    M = _matrix(matrix, "matrix")
    rows = sorted(int(i) for i in indices)
    if not rows or rows[0] < 0 or rows[-1] >= min(M.shape):
        raise RuntimeError(f"ExtractPrincipalSubmatrix: indices {rows} are empty or out "
                           f"of range for a {M.shape} matrix")
    return M[np.ix_(rows, rows)]


def VectorToSkewSymmetric(p) -> np.ndarray:
    """[p]ₓ (3, 3) with [p]ₓ v = p × v."""
    x, y, z = np.asarray(p, dtype=float).reshape(3)
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def DecomposePSDmatrixIntoXtransposeTimesX(Y, zero_tol: float,
                                           return_empty_if_not_psd: bool = False):
    """X with XᵀX = Y for a PSD Y: the Cholesky factor U when Y is positive definite,
    else the rows √λᵢ vᵢᵀ for eigenvalues λᵢ > zero_tol (Drake's rule).

    Raises:
      RuntimeError: Y not square, zero_tol < 0, or an eigenvalue < −zero_tol (unless
        `return_empty_if_not_psd`, which then returns a (0, n) matrix).
    """
    Y = _matrix(Y, "Y")
    if Y.shape[0] != Y.shape[1]:
        raise RuntimeError("Y is not square.")
    if zero_tol < 0:
        raise RuntimeError("zero_tol should be non-negative.")
    try:
        return np.linalg.cholesky(Y).T
    except np.linalg.LinAlgError:
        pass
    eigenvalues, vectors = np.linalg.eigh(Y)
    rows = []
    for lam, v in zip(eigenvalues, vectors.T):
        if lam < -zero_tol:
            if return_empty_if_not_psd:
                return np.zeros((0, Y.shape[1]))
            raise RuntimeError(f"Y is not positive semidefinite. It has an eigenvalue "
                               f"{lam} that is less than the tolerance {-zero_tol}.")
        if lam > zero_tol:
            rows.append(np.sqrt(lam) * v)
    return np.array(rows).reshape(-1, Y.shape[1])


def DecomposePositiveQuadraticForm(Q, b, c: float, tol: float = 0):
    """(R, d) with xᵀQx + bᵀx + c = |R x + d|² for a quadratic form that is
    non-negative everywhere (the PSD factor of [[Q, b/2], [bᵀ/2, c]])."""
    Q = _matrix(Q, "Q")
    b = np.asarray(b, dtype=float).reshape(-1)
    if Q.shape[0] != Q.shape[1]:
        raise RuntimeError("Q should be a square matrix.")
    if b.size != Q.shape[0]:
        raise RuntimeError("b does not have the right size.")
    n = Q.shape[0]
    M = np.zeros((n + 1, n + 1))
    M[:n, :n] = 0.5 * (Q + Q.T)
    M[:n, n] = M[n, :n] = 0.5 * b
    M[n, n] = c
    A = DecomposePSDmatrixIntoXtransposeTimesX(M, tol)
    return A[:, :n], A[:, n:]


def BalanceQuadraticForms(S, P) -> np.ndarray:
    """T with TᵀST = D⁻¹ and TᵀPT = D (D diagonal) for S positive definite and P
    symmetric full rank (Drake's balancing, e.g. for balanced truncation)."""
    S, P = _matrix(S, "S"), _matrix(P, "P")
    n = S.shape[0]
    if P.shape != (n, n) or not IsPositiveDefinite(S, 1e-8) or not IsSymmetric(P, 1e-8):
        raise RuntimeError("BalanceQuadraticForms: need S positive definite and P "
                           "symmetric of the same size")
    R = np.linalg.inv(np.linalg.cholesky(S))
    U, sigma, _ = np.linalg.svd(R @ P @ R.T)
    if sigma[-1] < 1e-8 * max(1.0, sigma[0]):
        raise RuntimeError("BalanceQuadraticForms: P is not full rank")
    return R.T @ U @ np.diag(sigma ** -0.25)


def _solve(func, what, *args):
    try:
        X = func(*args)
    except (np.linalg.LinAlgError, ValueError) as exc:
        raise RuntimeError(f"{what}: {exc}") from None
    if not np.isfinite(X).all():
        raise RuntimeError(f"{what}: no finite solution")
    return X


def ContinuousAlgebraicRiccatiEquation(A, B, Q, R) -> np.ndarray:
    """The stabilizing solution X of AᵀX + XA − XBR⁻¹BᵀX + Q = 0."""
    return _solve(_linalg().solve_continuous_are, "ContinuousAlgebraicRiccatiEquation",
                  _matrix(A, "A"), _matrix(B, "B"), _matrix(Q, "Q"), _matrix(R, "R"))


@overloaded_function
def DiscreteAlgebraicRiccatiEquation(A, B, Q, R) -> np.ndarray:
    """The stabilizing solution X of AᵀXA − X − AᵀXB(BᵀXB + R)⁻¹BᵀXA + Q = 0 (and,
    with N, the cross-term form in the module docstring)."""
    return _solve(_linalg().solve_discrete_are, "DiscreteAlgebraicRiccatiEquation",
                  _matrix(A, "A"), _matrix(B, "B"), _matrix(Q, "Q"), _matrix(R, "R"))


@DiscreteAlgebraicRiccatiEquation.overload
def DiscreteAlgebraicRiccatiEquation(A, B, Q, R, N) -> np.ndarray:
    return _solve(lambda *m: _linalg().solve_discrete_are(*m[:4], s=m[4]),
                  "DiscreteAlgebraicRiccatiEquation", _matrix(A, "A"), _matrix(B, "B"),
                  _matrix(Q, "Q"), _matrix(R, "R"), _matrix(N, "N"))


def RealContinuousLyapunovEquation(A, Q) -> np.ndarray:
    """X with AᵀX + XA + Q = 0 (A Hurwitz for a unique solution)."""
    A, Q = _matrix(A, "A"), _matrix(Q, "Q")
    return _solve(_linalg().solve_continuous_lyapunov, "RealContinuousLyapunovEquation",
                  A.T, -Q)


def RealDiscreteLyapunovEquation(A, Q) -> np.ndarray:
    """X with AᵀXA − X + Q = 0 (A Schur stable for a unique solution)."""
    A, Q = _matrix(A, "A"), _matrix(Q, "Q")
    return _solve(_linalg().solve_discrete_lyapunov, "RealDiscreteLyapunovEquation",
                  A.T, Q)
