"""Small array helpers shared by the hydroelastic modules (internal)."""
from __future__ import annotations

import numpy as np


def freeze(a: np.ndarray) -> np.ndarray:
    """Marks `a` read-only (views taken from it are read-only too) and returns it."""
    a.flags.writeable = False
    return a


def as_points(vertices) -> np.ndarray:
    """A (V, 3) float64 array from a list of (3,) vectors or an array-like."""
    if isinstance(vertices, np.ndarray):
        return np.array(vertices, dtype=float).reshape(-1, 3)
    if len(vertices) == 0:
        return np.zeros((0, 3))
    return np.array([np.asarray(v, dtype=float).reshape(3) for v in vertices])


def pose_to_Rp(X) -> tuple[np.ndarray, np.ndarray]:
    """(R, p) = ((3, 3), (3,)) from a RigidTransform-like pose X_AB.

    Accepts an object with rotation()/translation() (rotation() may return a
    RotationMatrix with matrix()), an object with GetAsMatrix4(), a (4, 4) or
    (3, 4) array, or an (R, p) tuple.
    """
    if isinstance(X, tuple) and len(X) == 2:
        return np.asarray(X[0], dtype=float).reshape(3, 3), np.asarray(X[1], dtype=float).reshape(3)
    if isinstance(X, np.ndarray):
        return np.array(X[:3, :3], dtype=float), np.array(X[:3, 3], dtype=float)
    if hasattr(X, "rotation") and hasattr(X, "translation"):
        R = X.rotation()
        R = R.matrix() if hasattr(R, "matrix") else R
        return np.asarray(R, dtype=float).reshape(3, 3), np.asarray(X.translation(), dtype=float).reshape(3)
    if hasattr(X, "GetAsMatrix4"):
        M = np.asarray(X.GetAsMatrix4(), dtype=float)
        return np.array(M[:3, :3]), np.array(M[:3, 3])
    raise TypeError(f"cannot interpret {type(X).__name__} as a rigid transform")


def rotate_points(p_FQ: np.ndarray, R_GF: np.ndarray, p_GF=None) -> np.ndarray:
    """p_GQ = R_GF·p_FQ (+ p_GF) for points of any leading shape (..., 3).

    One (N, 3) @ (3, 3) product: much faster than numpy's batched matmul on (K, m, 3).
    """
    out = (p_FQ.reshape(-1, 3) @ R_GF.T).reshape(p_FQ.shape)
    if p_GF is not None:
        out += p_GF
    return out


# numpy reductions along a short trailing axis cost many times an elementwise op on
# the same data; these chain elementwise ops over the (few) columns instead.
def all_columns(c: np.ndarray) -> np.ndarray:
    """(K,) logical AND over the columns of a (K, m) bool array."""
    out = c[:, 0].copy()
    for j in range(1, c.shape[1]):
        out &= c[:, j]
    return out


def row_min(h: np.ndarray) -> np.ndarray:
    """(K,) minimum over the columns of a (K, m) array."""
    out = h[:, 0].copy()
    for j in range(1, h.shape[1]):
        np.minimum(out, h[:, j], out=out)
    return out


def row_max(h: np.ndarray) -> np.ndarray:
    """(K,) maximum over the columns of a (K, m) array."""
    out = h[:, 0].copy()
    for j in range(1, h.shape[1]):
        np.maximum(out, h[:, j], out=out)
    return out
