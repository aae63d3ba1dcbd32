"""Vector arithmetic and LU solves of the implicit integrators, in two
representations with the same operations: Python float lists for small states
(ListVectors: numpy's per-call cost exceeds the arithmetic below ~10 entries)
and numpy arrays (ArrayVectors) otherwise.

Each method computes one formula of Drake's implicit integrators entry by
entry, in Drake's order of operations (e.g. the Newton right-hand side
−(x − x0 − h·f)). LU is partial pivoting (Eigen's PartialPivLU: the first
largest pivot of the column, row swaps, unit lower L); a zero pivot makes
every solve NaN, as a singular iteration matrix does in Drake.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["ListVectors", "ArrayVectors", "lu_factor_lists", "lu_solve_lists"]

_NAN = float("nan")
# Drake's IsUpdateZero tolerance: ten machine epsilons relative to max(|x|, 1).
_UPDATE_EPS = 10 * np.finfo(float).eps


def lu_factor_lists(matrix: np.ndarray):
    """(LU rows, row transpositions, singular?) of the (n, n) `matrix`: partial
    pivoting (the first largest |entry| of the column), then for each row below
    l = a_ik / a_kk and a_ij −= l·a_kj (j > k)."""
    lu = matrix.tolist()
    n = len(lu)
    swaps = []
    singular = False
    for k in range(n):
        pivot_row, biggest = k, abs(lu[k][k])
        for i in range(k + 1, n):
            value = abs(lu[i][k])
            if value > biggest:
                pivot_row, biggest = i, value
        swaps.append(pivot_row)
        if biggest != 0.0 and biggest == biggest:
            if pivot_row != k:
                lu[k], lu[pivot_row] = lu[pivot_row], lu[k]
            row_k = lu[k]
            pivot = row_k[k]
            for i in range(k + 1, n):
                row = lu[i]
                factor = row[k] / pivot
                row[k] = factor
                for j in range(k + 1, n):
                    row[j] -= factor * row_k[j]
        else:
            singular = True         # a zero or NaN pivot: every solve is NaN
    return lu, swaps, singular


def lu_solve_lists(factor, b: list) -> list:
    """x with A x = b for factor = lu_factor_lists(A) (b a list, unchanged):
    y = P b; L y' = y (subtracting left to right); U x = y' (subtracting right to
    left, then dividing by the pivot). Up to 8 unknowns the loops run as
    straight-line code generated for the size (_unrolled_solver), the same
    operations in the same order."""
    lu, swaps, singular = factor
    n = len(lu)
    if singular:
        return [_NAN] * n
    y = list(b)
    for k, p in enumerate(swaps):
        if p != k:
            y[k], y[p] = y[p], y[k]
    solver = _UNROLLED.get(n)
    if solver is None:
        if n > _UNROLL_MAX:
            return _solve_loops(lu, y)
        solver = _UNROLLED[n] = _unrolled_solver(n)
    return solver(lu, y)


def _solve_loops(lu: list, y: list) -> list:
    n = len(lu)
    for i in range(1, n):
        row = lu[i]
        total = y[i]
        for j in range(i):
            total -= row[j] * y[j]
        y[i] = total
    for i in range(n - 1, -1, -1):
        row = lu[i]
        total = y[i]
        for j in range(n - 1, i, -1):
            total -= row[j] * y[j]
        y[i] = total / row[i]
    return y


_UNROLL_MAX = 8
_UNROLLED = {}


def _unrolled_solver(n: int):
    """_solve_loops for n unknowns as straight-line code."""
    lines = [f"def solve(lu, y):",
             f"    {', '.join(f'r{i}' for i in range(n))}{',' if n == 1 else ''} = lu",
             f"    {', '.join(f'y{i}' for i in range(n))}{',' if n == 1 else ''} = y"]
    for i in range(1, n):
        terms = "".join(f" - r{i}[{j}] * y{j}" for j in range(i))
        lines.append(f"    y{i} = y{i}{terms}")
    for i in range(n - 1, -1, -1):
        terms = "".join(f" - r{i}[{j}] * y{j}" for j in range(n - 1, i, -1))
        lines.append(f"    y{i} = (y{i}{terms}) / r{i}[{i}]")
    lines.append(f"    return [{', '.join(f'y{i}' for i in range(n))}]")
    namespace = {}
    exec(compile("\n".join(lines), f"<lu solve {n}>", "exec"), namespace)
    return namespace["solve"]


def lu_factor_array(matrix: np.ndarray):
    """lu_factor_lists's algorithm on a numpy array (the same operations per entry)."""
    lu = np.array(matrix, dtype=float)
    n = lu.shape[0]
    swaps = []
    singular = False
    for k in range(n):
        column = np.abs(lu[k:, k])
        pivot_row = k + int(np.argmax(column))      # the first largest
        biggest = column[pivot_row - k]
        swaps.append(pivot_row)
        if biggest != 0.0 and biggest == biggest:
            if pivot_row != k:
                lu[[k, pivot_row]] = lu[[pivot_row, k]]
            factors = lu[k + 1:, k] / lu[k, k]
            lu[k + 1:, k] = factors
            lu[k + 1:, k + 1:] -= factors[:, None] * lu[k, k + 1:][None, :]
        else:
            singular = True
    return lu, swaps, singular


def lu_solve_array(factor, b: np.ndarray) -> np.ndarray:
    """lu_solve_lists's algorithm on numpy arrays (the same subtraction order)."""
    lu, swaps, singular = factor
    n = lu.shape[0]
    if singular:
        return np.full(n, _NAN)
    y = np.array(b, dtype=float)
    for k, p in enumerate(swaps):
        if p != k:
            y[k], y[p] = y[p], y[k]
    for j in range(n - 1):                      # column j leaves rows below it
        y[j + 1:] -= lu[j + 1:, j] * y[j]
    for i in range(n - 1, -1, -1):
        y[i] /= lu[i, i]
        y[:i] -= lu[:i, i] * y[i]
    return y


#: Larger iteration matrices are factored by SciPy (LAPACK's blocked LU).
ARRAY_LU_MAX = 64


class ListVectors:
    """Vectors as lists of Python floats."""

    __slots__ = ("weights",)

    def __init__(self, weights: list):
        self.weights = weights          # CalcStateChangeNorm's per-entry weights

    @staticmethod
    def read(array: np.ndarray) -> list:
        return array.tolist()

    @staticmethod
    def write(target: np.ndarray, values: list) -> None:
        for i, value in enumerate(values):
            target[i] = value

    @staticmethod
    def copy(values: list) -> list:
        return list(values)

    @staticmethod
    def as_array(values: list) -> np.ndarray:
        return np.array(values)

    @staticmethod
    def ie_rhs(x, x0, h, f) -> list:
        """−g for implicit Euler: −(x − x0 − h·f)."""
        return [-(a - b - h * c) for a, b, c in zip(x, x0, f)]

    @staticmethod
    def itr_rhs(x, x0, half_h, f0, f) -> list:
        """−g for the implicit trapezoid rule: −(x − x0 − h/2·(f0 + f))."""
        return [-(a - b - half_h * (c + d)) for a, b, c, d in zip(x, x0, f0, f)]

    @staticmethod
    def add(x, dx) -> list:
        return [a + b for a, b in zip(x, dx)]

    @staticmethod
    def axpy(x, scale, y) -> list:
        """x + scale·y."""
        return [a + scale * b for a, b in zip(x, y)]

    @staticmethod
    def scale(scale, y) -> list:
        """scale·y."""
        return [scale * b for b in y]

    @staticmethod
    def sub(x, y) -> list:
        return [a - b for a, b in zip(x, y)]

    @staticmethod
    def half_sum(x, y) -> list:
        """0.5·(x + y)."""
        return [0.5 * (a + b) for a, b in zip(x, y)]

    @staticmethod
    def abs_diff(x, y) -> list:
        return [abs(a - b) for a, b in zip(x, y)]

    def store_difference(self, target: np.ndarray, x, y, absolute: bool):
        """target = x − y (or |x − y|); returns CalcStateChangeNorm(target)."""
        norm = 0.0
        nan = False
        for i, (weight, a, b) in enumerate(zip(self.weights, x, y)):
            value = a - b
            size = value if value >= 0.0 else -value
            target[i] = size if absolute else value
            size = weight * size
            if size > norm:
                norm = size
            elif size != size:
                nan = True
        return _NAN if nan else norm

    def norm(self, dx) -> float:
        """IntegratorBase.CalcStateChangeNorm(dx)."""
        norm = 0.0
        for weight, value in zip(self.weights, dx):
            if value < 0.0:
                value = -value
            value = weight * value
            if value > norm:
                norm = value
            elif value != value:
                return _NAN
        return norm

    @staticmethod
    def update_is_zero(x, dx) -> bool:
        """Drake's IsUpdateZero: every |dx_i| <= max(|x_i|, 1)·10ε (NaN: False)."""
        for a, b in zip(x, dx):
            if b != b or a != a:
                return False
            tol = abs(a)
            if tol < 1.0:
                tol = 1.0
            if abs(b) > tol * _UPDATE_EPS:
                return False
        return True

    @staticmethod
    def factor(matrix: np.ndarray):
        return lu_factor_lists(matrix)

    @staticmethod
    def solve(factor, b: list) -> list:
        return lu_solve_lists(factor, b)

    @staticmethod
    def concat(parts) -> list:
        out = []
        for part in parts:
            out.extend(part)
        return out

    @staticmethod
    def split(values, count: int, n: int) -> list:
        return [values[i * n:(i + 1) * n] for i in range(count)]

    @staticmethod
    def zeros(n: int) -> list:
        return [0.0] * n


class ArrayVectors:
    """Vectors as numpy arrays (the same formulas)."""

    __slots__ = ("weights", "all_ones")

    def __init__(self, weights: np.ndarray):
        self.weights = weights
        self.all_ones = bool((weights == 1.0).all())

    @staticmethod
    def read(array: np.ndarray) -> np.ndarray:
        return array.copy()

    @staticmethod
    def write(target: np.ndarray, values: np.ndarray) -> None:
        target[:] = values

    @staticmethod
    def copy(values: np.ndarray) -> np.ndarray:
        return values.copy()

    @staticmethod
    def as_array(values: np.ndarray) -> np.ndarray:
        return values

    @staticmethod
    def ie_rhs(x, x0, h, f) -> np.ndarray:
        return -(x - x0 - h * f)

    @staticmethod
    def itr_rhs(x, x0, half_h, f0, f) -> np.ndarray:
        return -(x - x0 - half_h * (f0 + f))

    @staticmethod
    def add(x, dx) -> np.ndarray:
        return x + dx

    @staticmethod
    def axpy(x, scale, y) -> np.ndarray:
        return x + scale * y

    @staticmethod
    def scale(scale, y) -> np.ndarray:
        return scale * y

    @staticmethod
    def sub(x, y) -> np.ndarray:
        return x - y

    @staticmethod
    def half_sum(x, y) -> np.ndarray:
        return 0.5 * (x + y)

    @staticmethod
    def abs_diff(x, y) -> np.ndarray:
        return np.abs(x - y)

    @staticmethod
    def store_difference(target: np.ndarray, x, y, absolute: bool):
        """target = x − y (or |x − y|); the norm is left to CalcStateChangeNorm."""
        np.subtract(x, y, out=target)
        if absolute:
            np.abs(target, out=target)
        return None

    def norm(self, dx) -> float:
        if dx.shape[0] == 0:
            return 0.0
        values = np.abs(dx) if self.all_ones else self.weights * np.abs(dx)
        return float(values.max())      # NaN propagates

    @staticmethod
    def update_is_zero(x, dx) -> bool:
        if np.isnan(dx).any() or np.isnan(x).any():
            return False
        return bool((np.abs(dx) <= np.maximum(np.abs(x), 1.0) * _UPDATE_EPS).all())

    @staticmethod
    def factor(matrix: np.ndarray):
        if matrix.shape[0] <= ARRAY_LU_MAX:
            return ("small", lu_factor_array(matrix))
        import scipy.linalg
        if not np.isfinite(matrix).all():
            return ("singular", matrix.shape[0])
        return ("scipy", scipy.linalg.lu_factor(matrix, check_finite=False))

    @staticmethod
    def solve(factor, b: np.ndarray) -> np.ndarray:
        kind, data = factor
        if kind == "small":
            return lu_solve_array(data, b)
        if kind == "singular":
            return np.full(data, math.nan)
        import scipy.linalg
        return scipy.linalg.lu_solve(data, b, check_finite=False)

    @staticmethod
    def concat(parts) -> np.ndarray:
        return np.concatenate(parts)

    @staticmethod
    def split(values, count: int, n: int) -> list:
        return [values[i * n:(i + 1) * n] for i in range(count)]

    @staticmethod
    def zeros(n: int) -> np.ndarray:
        return np.zeros(n)
