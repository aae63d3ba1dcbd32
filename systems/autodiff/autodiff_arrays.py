"""Matrices of AutoDiffXd (numpy ``dtype=object`` arrays): pydrake.autodiffutils'
InitializeAutoDiff, InitializeAutoDiffTuple, ExtractValue, ExtractGradient and
autodiff_equal_to, plus the conversion the systems framework uses to store values.

Shapes follow Drake's Eigen matrices: a 1-D input is a column (n, 1); derivative
indices run over the elements in column-major order (Eigen's), so element (i, j) of an
m×n matrix is independent variable ``deriv_num_start + j m + i``.
"""
from __future__ import annotations

import numpy as np

from systems.autodiff.autodiff_scalar import _EMPTY, AutoDiffXd, _new

__all__ = ["InitializeAutoDiff", "InitializeAutoDiffTuple", "ExtractValue",
           "ExtractGradient", "autodiff_equal_to", "to_autodiff_array"]

_NUMBER = (float, int, np.floating, np.integer)


def _as_matrix(value, name: str) -> np.ndarray:
    """`value` as a 2-D array (a 1-D one as a column), as Eigen's MatrixX binding."""
    array = np.asarray(value)
    if array.ndim == 1:
        return array.reshape(-1, 1)
    if array.ndim != 2:
        raise TypeError(f"{name}: expected a vector or a matrix; got an array of shape "
                        f"{array.shape}")
    return array


def _float_matrix(value, name: str) -> np.ndarray:
    array = _as_matrix(value, name)
    if array.dtype == object or array.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected a matrix of floats; got {value!r}")
    return array.astype(float)


def InitializeAutoDiff(value, num_derivatives=None, deriv_num_start=None, gradient=None):
    """An AutoDiffXd matrix (m, n) with the values of `value` (array-like, a vector
    becoming a column (n, 1)).

    ``InitializeAutoDiff(value, num_derivatives=None, deriv_num_start=None)``: element
    k (column-major) gets the unit partial e_{deriv_num_start + k} of length
    num_derivatives (default value.size; deriv_num_start defaults to 0).
    ``InitializeAutoDiff(value, gradient)``: element k gets row k of `gradient`
    ((m n, n_z) float).

    Raises:
      ValueError: the unit partials do not fit in num_derivatives, or the gradient has
        the wrong number of rows.
    """
    if num_derivatives is not None and not isinstance(num_derivatives, (int, np.integer)):
        gradient, num_derivatives = num_derivatives, None     # (value, gradient)
    values = _float_matrix(value, "InitializeAutoDiff")
    flat = values.reshape(-1, order="F")
    if gradient is not None:
        if num_derivatives is not None or deriv_num_start is not None:
            raise TypeError("InitializeAutoDiff: give a gradient or num_derivatives/"
                            "deriv_num_start, not both")
        grad = _float_matrix(gradient, "InitializeAutoDiff")
        if grad.shape[0] != flat.shape[0]:
            raise ValueError(f"InitializeAutoDiff: the gradient has {grad.shape[0]} rows; "
                             f"the value has {flat.shape[0]} elements")
        items = [_new(float(v), row.copy()) for v, row in zip(flat, grad)]
    else:
        n = flat.shape[0] if num_derivatives is None else int(num_derivatives)
        start = 0 if deriv_num_start is None else int(deriv_num_start)
        if start < 0 or start + flat.shape[0] > n:
            raise ValueError(f"InitializeAutoDiff: {flat.shape[0]} unit partials starting "
                             f"at {start} do not fit in num_derivatives = {n}")
        eye = np.zeros((flat.shape[0], n))
        eye[np.arange(flat.shape[0]), start + np.arange(flat.shape[0])] = 1.0
        items = [_new(float(v), row) for v, row in zip(flat, eye)]
    out = np.empty(flat.shape[0], dtype=object)
    out[:] = items
    return out.reshape(values.shape, order="F")


def InitializeAutoDiffTuple(*args):
    """One AutoDiffXd matrix per argument, all sharing one derivative vector whose
    length is the total number of elements: the first argument's elements are the first
    independent variables, and so on (pydrake's InitializeAutoDiffTuple)."""
    sizes = [np.asarray(arg).size for arg in args]
    total, start, out = sum(sizes), 0, []
    for arg, size in zip(args, sizes):
        out.append(InitializeAutoDiff(arg, total, start))
        start += size
    return tuple(out)


def _derivative_size(items, name: str) -> int:
    sizes = {item._d.shape[0] for item in items if isinstance(item, AutoDiffXd)}
    sizes.discard(0)
    if len(sizes) > 1:
        a, b = sorted(sizes)[:2]
        raise ValueError(f"{name}(): Input matrix has elements with inconsistent, "
                         f"non-zero numbers of derivatives ({a} and {b}).")
    return sizes.pop() if sizes else 0


def _check_entry(item, name: str):
    if not isinstance(item, (AutoDiffXd,) + _NUMBER) or isinstance(item, bool):
        raise TypeError(f"{name}: expected a matrix of AutoDiffXd; got an entry {item!r}")


def ExtractValue(auto_diff_matrix) -> np.ndarray:
    """The values of an AutoDiffXd matrix, (m, n) float (a vector gives (n, 1))."""
    matrix = _as_matrix(auto_diff_matrix, "ExtractValue")
    out = np.empty(matrix.shape)
    flat_in, flat_out = matrix.reshape(-1), out.reshape(-1)
    for k, item in enumerate(flat_in):
        if isinstance(item, AutoDiffXd):
            flat_out[k] = item._v
        else:
            _check_entry(item, "ExtractValue")
            flat_out[k] = item
    return out


def ExtractGradient(auto_diff_matrix) -> np.ndarray:
    """The gradient of an AutoDiffXd matrix: (m n, n_z) float, row k the derivatives of
    element k in column-major order; entries without derivatives give zero rows.

    Raises:
      ValueError: two entries have different non-zero numbers of derivatives.
    """
    matrix = _as_matrix(auto_diff_matrix, "ExtractGradient")
    flat = matrix.reshape(-1, order="F")
    for item in flat:
        _check_entry(item, "ExtractGradient")
    n = _derivative_size(flat, "ExtractGradient")
    out = np.zeros((flat.shape[0], n))
    for k, item in enumerate(flat):
        if isinstance(item, AutoDiffXd) and item._d.shape[0]:
            out[k] = item._d
    return out


@np.vectorize
def autodiff_equal_to(a, b, *, semantic=False):
    """True where a and b have equal values and equal derivatives (elementwise over
    arrays). With semantic=True an empty derivative vector equals an all-zero one."""
    assert isinstance(a, AutoDiffXd), type(a)
    assert isinstance(b, AutoDiffXd), type(b)
    if a.value() == b.value():
        da, db = a._d, b._d
        if da.shape == db.shape and (da == db).all():
            return True
        if semantic and (da.size == 0 or db.size == 0):
            return bool((da == 0.0).all() and (db == 0.0).all())
    return False


def to_autodiff_array(value, name: str = "value") -> np.ndarray:
    """`value` (array-like of floats and/or AutoDiffXd) as a new flat object array of
    AutoDiffXd (floats become constants without derivatives). Used by the AutoDiffXd
    instantiations of the systems framework to store values.

    Raises:
      TypeError: an entry is neither a number nor an AutoDiffXd (e.g. None).
    """
    if isinstance(value, AutoDiffXd):
        items = [value]
    else:
        array = np.asarray(value)
        if array.dtype != object:
            if array.dtype.kind not in "biuf":
                raise TypeError(f"{name}: expected numbers or AutoDiffXd; got {value!r}")
            out = np.empty(array.size, dtype=object)
            out[:] = [_new(v, _EMPTY) for v in array.reshape(-1).astype(float).tolist()]
            return out
        items = array.reshape(-1).tolist()
    out = np.empty(len(items), dtype=object)
    for k, item in enumerate(items):
        if isinstance(item, AutoDiffXd):
            out[k] = item
        elif isinstance(item, _NUMBER) and not isinstance(item, bool):
            out[k] = _new(float(item), _EMPTY)
        else:
            raise TypeError(f"{name}: expected numbers or AutoDiffXd; got an entry "
                            f"{item!r}")
    return out


def autodiff_inv(matrix) -> np.ndarray:
    """Inverse of a square matrix of AutoDiffXd (and/or floats), (n, n) object array:
    the values' inverse A⁻¹ with derivatives d(A⁻¹)/dz_k = −A⁻¹ (dA/dz_k) A⁻¹
    (pydrake.math.inv for AutoDiffXd).

    Raises:
      ValueError: the matrix is not square, or its entries' derivative sizes differ.
      numpy.linalg.LinAlgError: the values are singular.
    """
    a = np.asarray(matrix)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"inv: expected a square matrix; got shape {a.shape}")
    n = a.shape[0]
    values = ExtractValue(a)
    grad = ExtractGradient(a)                         # (n n, nz), column-major rows
    a_inv = np.linalg.inv(values)
    nz = grad.shape[1]
    dA = grad.reshape(n, n, nz, order="F")            # dA[i, j, k]
    dA_inv = -np.einsum("ij,jlk,lm->imk", a_inv, dA, a_inv)
    out = np.empty((n, n), dtype=object)
    for i in range(n):
        for j in range(n):
            out[i, j] = _new(float(a_inv[i, j]), dA_inv[i, j].copy() if nz else _EMPTY)
    return out


def autodiff_det(matrix) -> AutoDiffXd:
    """Determinant of a square matrix of AutoDiffXd (and/or floats), with
    d(det A)/dz_k = det A · tr(A⁻¹ dA/dz_k) (Jacobi's formula; A invertible).

    Raises:
      ValueError: the matrix is not square.
      numpy.linalg.LinAlgError: the values are singular (the formula needs A⁻¹).
    """
    a = np.asarray(matrix)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"det: expected a square matrix; got shape {a.shape}")
    n = a.shape[0]
    values = ExtractValue(a)
    grad = ExtractGradient(a)
    det = float(np.linalg.det(values))
    if grad.shape[1] == 0:
        return _new(det, _EMPTY)
    a_inv = np.linalg.inv(values)
    dA = grad.reshape(n, n, grad.shape[1], order="F")
    return _new(det, det * np.einsum("ji,ijk->k", a_inv, dA))
