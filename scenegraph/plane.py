"""Plane: the plane through a point with a normal (pydrake's ``Plane``): signed
heights of points and a box-overlap test, as Drake's geometry::Plane."""
from __future__ import annotations

import numpy as np

__all__ = ["Plane"]


def _fmt(v: np.ndarray) -> str:
    return " ".join(f"{x:g}" for x in v)


class Plane:
    """{x : n̂·x = d} in a frame F. ``Plane(normal, point_on_plane,
    already_normalized=False)``: `normal` (3,) is normalised here (|normal| must be at
    least 1e-10) unless the caller says it already is — then it is stored as given,
    unchecked, as in pydrake's release build."""

    def __init__(self, normal, point_on_plane, already_normalized: bool = False):
        n = np.array(normal, dtype=float).reshape(3)
        p = np.array(point_on_plane, dtype=float).reshape(3)
        if not already_normalized:
            magnitude = float(np.linalg.norm(n))
            if not magnitude >= 1e-10:
                raise RuntimeError(f"Cannot instantiate plane from normal n_F = [{_fmt(n)}]; "
                                   f"its magnitude is too small: {magnitude:g}")
            n = n / magnitude
        self._n = n
        self._d = float(n @ p)

    def unit_normal(self) -> np.ndarray:
        """A copy of the plane's unit normal n̂ (3,) in its frame."""
        return self._n.copy()

    def reference_point(self) -> np.ndarray:
        """A point on the plane (n̂·d; not necessarily the one it was made with)."""
        return self._n * self._d

    def CalcHeight(self, point) -> float:
        """Signed height n̂·x − d of `point` (3,) above the plane [m]."""
        return float(self._n @ np.asarray(point, dtype=float).reshape(3) - self._d)

    def BoxOverlaps(self, half_width, box_center_in_plane, box_orientation_in_plane) -> bool:
        """True if the box (half widths (3,), centre p_PBo (3,) and orientation R_PB,
        all in the plane's frame P) touches or crosses the plane."""
        from scenegraph.math.rotation_matrix import RotationMatrix
        h = np.asarray(half_width, dtype=float).reshape(3)
        R = RotationMatrix(box_orientation_in_plane).matrix()
        reach = float(np.abs(self._n @ R) @ h)     # Σ h_i |n̂·B_i|
        return abs(self.CalcHeight(box_center_in_plane)) <= reach

    def __copy__(self):
        copy = Plane.__new__(Plane)
        copy._n, copy._d = self._n.copy(), self._d
        return copy

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __getstate__(self):
        """pydrake's pickled state: (unit normal, reference point)."""
        return (self._n.copy(), self.reference_point())

    def __setstate__(self, state) -> None:
        """From (unit normal, point on the plane) (pydrake's state, ours too), or
        from this class's former attribute dict."""
        if isinstance(state, dict):
            self.__dict__.update(state)
            return
        normal, point = state
        self._n = np.array(normal, dtype=float).reshape(3)
        self._d = float(self._n @ np.asarray(point, dtype=float).reshape(3))
