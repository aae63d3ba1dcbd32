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

import functools
import math

import numpy as np

__all__ = ["ListVectors", "ArrayVectors", "lu_factor_lists", "lu_solve_lists",
           "newton_update_lists", "radau_update_lists", "write_sum_lists"]

_NAN = float("nan")
# Drake's IsUpdateZero tolerance: ten machine epsilons relative to max(|x|, 1).
_UPDATE_EPS = 10 * np.finfo(float).eps


def lu_factor_lists(matrix: np.ndarray):
    """(LU rows, row transpositions, singular?, solve) of the (n, n) `matrix`:
    partial pivoting (the first largest |entry| of the column), then for each row
    below l = a_ik / a_kk and a_ij −= l·a_kj (j > k). ``solve(b)`` is
    lu_solve_lists with this factorization bound (the row transpositions
    composed into one permutation, applied as the solve copies b)."""
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
    return lu, swaps, singular, _bound_solver(lu, swaps, singular)


def lu_solve_lists(factor, b: list) -> list:
    """x with A x = b for factor = lu_factor_lists(A) (b a list, unchanged):
    y = P b; L y' = y (subtracting left to right); U x = y' (subtracting right to
    left, then dividing by the pivot). Up to 8 unknowns the loops run as
    straight-line code generated for the size (_unrolled_solver), the same
    operations in the same order."""
    return factor[3](b)


def _bound_solver(lu: list, swaps: list, singular: bool):
    """solve(b) for one factorization (see lu_solve_lists)."""
    n = len(lu)
    if singular:
        nans = [_NAN] * n
        return lambda b: list(nans)
    order = list(range(n))              # y_k = b[order[k]]: the swaps, composed
    for k, p in enumerate(swaps):
        if p != k:
            order[k], order[p] = order[p], order[k]
    if n > _UNROLL_MAX:
        return functools.partial(_solve_loops_permuted, lu, order)
    solver = _UNROLLED.get(n)
    if solver is None:
        solver = _UNROLLED[n] = _unrolled_solver(n)
    return functools.partial(solver, *lu, *order)


def _solve_loops_permuted(lu: list, order: list, b: list) -> list:
    return _solve_loops(lu, [b[k] for k in order])


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
    """_solve_loops for n unknowns as straight-line code: solve(r0..r(n-1),
    o0..o(n-1), b) with LU rows r and the permutation o (y_k = b[o_k])."""
    rows = ", ".join(f"r{i}" for i in range(n))
    order = ", ".join(f"o{i}" for i in range(n))
    lines = [f"def solve({rows}, {order}, b):"]
    for i in range(n):
        lines.append(f"    y{i} = b[o{i}]")
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


def newton_update_lists(n: int):
    """The Newton update of the implicit-Euler/implicit-trapezoid iterations on
    Python floats, for states of n entries (<= 8: straight-line code generated for
    the size; more: loops), the same operations in the same order:

        update(weights, x, dx, live) -> (x + dx, CalcStateChangeNorm(dx),
                                         IsUpdateZero(x + dx, dx))

    writing x + dx into the array `live` entry by entry; the norm is NaN when
    a weighted |dx_i| is NaN."""
    update = _NEWTON_UPDATES.get(n)
    if update is None:
        update = _NEWTON_UPDATES[n] = (_newton_update_code(n) if n <= _UNROLL_MAX
                                       else _newton_update_loops)
    return update


def radau_update_lists(n: int):
    """The last-stage update of the Radau iterations on Python floats, for states of
    n entries (straight-line code up to 8 entries, else loops), the same operations
    in the same order:

        update(weights, z, dz, x0, d) -> (z + dz, d·(z + dz) + x0,
                                          CalcStateChangeNorm(d·dz),
                                          IsUpdateZero(d·(z + dz) + x0, d·dz))

    (the norm NaN when a weighted entry is NaN)."""
    update = _RADAU_UPDATES.get(n)
    if update is None:
        update = _RADAU_UPDATES[n] = (_radau_update_code(n) if n <= _UNROLL_MAX
                                      else _radau_update_loops)
    return update


def write_sum_lists(n: int):
    """``write(live, a, b)``: live[k] = a[k] + b[k] for the n entries (a, b lists
    of floats, live an array): straight-line code up to 8 entries, else a loop."""
    write = _WRITE_SUMS.get(n)
    if write is None:
        if n <= _UNROLL_MAX:
            lines = ["def write(live, a, b):", _unpack("a", n, "a"), _unpack("b", n, "b")]
            lines += [f"    live[{k}] = a{k} + b{k}" for k in range(n)]
            write = _compile(lines, "write", f"<write sum {n}>")
        else:
            write = _write_sum_loop
        _WRITE_SUMS[n] = write
    return write


def _write_sum_loop(live, a, b):
    for k, (u, v) in enumerate(zip(a, b)):
        live[k] = u + v


_WRITE_SUMS = {}
_NEWTON_UPDATES = {}
_RADAU_UPDATES = {}


def _newton_update_loops(weights, x, dx, live):
    norm = 0.0
    nan = False
    zero = True
    new = []
    for k, (weight, a, d) in enumerate(zip(weights, x, dx)):
        size = d if d >= 0.0 else -d
        value = weight * size
        if value > norm:
            norm = value
        elif value != value:
            nan = True
        a = a + d
        new.append(a)
        live[k] = a
        if zero:
            if d != d or a != a:
                zero = False
            else:
                bound = a if a >= 0.0 else -a
                if bound < 1.0:
                    bound = 1.0
                if size > bound * _UPDATE_EPS:
                    zero = False
    return new, (_NAN if nan else norm), zero


def _radau_update_loops(weights, z_last, dz_last, x0, d):
    norm = 0.0
    nan = False
    zero = True
    new_z = []
    x = []
    for weight, z, dz, a in zip(weights, z_last, dz_last, x0):
        z = z + dz
        new_z.append(z)
        b = d * dz
        a = d * z + a
        x.append(a)
        size = b if b >= 0.0 else -b
        value = weight * size
        if value > norm:
            norm = value
        elif value != value:
            nan = True
        if zero:
            if b != b or a != a:
                zero = False
            else:
                bound = a if a >= 0.0 else -a
                if bound < 1.0:
                    bound = 1.0
                if size > bound * _UPDATE_EPS:
                    zero = False
    return new_z, x, (_NAN if nan else norm), zero


def _unpack(names: str, n: int, source: str) -> str:
    return f"    {', '.join(f'{names}{k}' for k in range(n))}{',' if n == 1 else ''} = {source}"


def _norm_and_zero_lines(k: int, d: str, a: str) -> list:
    """One entry of CalcStateChangeNorm and IsUpdateZero (as the loops do it)."""
    return [f"    s{k} = {d} if {d} >= 0.0 else -{d}",
            f"    v{k} = w{k} * s{k}",
            f"    if v{k} > norm:",
            f"        norm = v{k}",
            f"    elif v{k} != v{k}:",
            f"        nan = True",
            f"    if zero:",
            f"        if {d} != {d} or {a} != {a}:",
            f"            zero = False",
            f"        else:",
            f"            c = {a} if {a} >= 0.0 else -{a}",
            f"            if c < 1.0:",
            f"                c = 1.0",
            f"            if s{k} > c * EPS:",
            f"                zero = False"]


def _compile(lines: list, name: str, label: str):
    namespace = {"EPS": _UPDATE_EPS, "NAN": _NAN}
    exec(compile("\n".join(lines), label, "exec"), namespace)
    return namespace[name]


def _newton_update_code(n: int):
    lines = ["def update(weights, x, dx, live):",
             _unpack("w", n, "weights"), _unpack("a", n, "x"), _unpack("d", n, "dx"),
             "    norm = 0.0", "    nan = False", "    zero = True"]
    for k in range(n):
        lines += [f"    a{k} = a{k} + d{k}", f"    live[{k}] = a{k}"]
        lines += _norm_and_zero_lines(k, f"d{k}", f"a{k}")
    lines.append(f"    return [{', '.join(f'a{k}' for k in range(n))}], "
                 f"(NAN if nan else norm), zero")
    return _compile(lines, "update", f"<newton update {n}>")


def _radau_update_code(n: int):
    lines = ["def update(weights, z_last, dz_last, x0, d):",
             _unpack("w", n, "weights"), _unpack("z", n, "z_last"),
             _unpack("e", n, "dz_last"), _unpack("a", n, "x0"),
             "    norm = 0.0", "    nan = False", "    zero = True"]
    for k in range(n):
        lines += [f"    z{k} = z{k} + e{k}", f"    b{k} = d * e{k}",
                  f"    a{k} = d * z{k} + a{k}"]
        lines += _norm_and_zero_lines(k, f"b{k}", f"a{k}")
    lines.append(f"    return [{', '.join(f'z{k}' for k in range(n))}], "
                 f"[{', '.join(f'a{k}' for k in range(n))}], (NAN if nan else norm), zero")
    return _compile(lines, "update", f"<radau update {n}>")


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
