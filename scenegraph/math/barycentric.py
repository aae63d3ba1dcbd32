"""BarycentricMesh: simplex (Freudenthal) interpolation on a rectilinear grid
(pydrake.math's, with Drake's index order and weights).

The grid is a list of coordinate sets, one per input dimension; mesh point index k
enumerates the grid with the first dimension fastest. A d-dimensional input (with
d' non-singleton dimensions) is interpolated from d' + 1 mesh points; inputs outside
the grid are projected onto its boundary.
"""
from __future__ import annotations

import bisect

import numpy as np

__all__ = ["BarycentricMesh"]


class BarycentricMesh:
    """See the module docstring; ``BarycentricMesh(input_grid)``."""

    def __init__(self, arg0):
        grid = [sorted(float(v) for v in coords) for coords in arg0]
        if not grid or any(not coords for coords in grid):
            raise RuntimeError("BarycentricMesh: every input dimension needs at least one "
                               "mesh point")
        self._grid = grid
        self._stride = []
        stride = 1
        for coords in grid:
            self._stride.append(stride)
            stride *= len(coords)
        self._num_points = stride
        self._num_interpolants = 1 + sum(len(c) > 1 for c in grid)

    def get_input_grid(self) -> list:
        """The grid: one set of coordinates per input dimension."""
        return [set(c) for c in self._grid]

    def get_input_size(self) -> int:
        """The number of input dimensions."""
        return len(self._grid)

    def get_num_mesh_points(self) -> int:
        """The number of mesh points (the product of the grid sizes)."""
        return self._num_points

    def get_num_interpolants(self) -> int:
        """The number of mesh points an evaluation interpolates (input size + 1)."""
        return self._num_interpolants

    def get_mesh_point(self, arg0: int) -> np.ndarray:
        """The coordinates of mesh point `arg0`, an (input size,) array.

        Raises:
          IndexError: `arg0` is out of range.
        """
        index = int(arg0)
        if not 0 <= index < self._num_points:
            raise IndexError(f"BarycentricMesh: mesh point {index} is out of range")
        point = np.empty(len(self._grid))
        for i, coords in enumerate(self._grid):
            point[i] = coords[index % len(coords)]
            index //= len(coords)
        return point

    def get_all_mesh_points(self) -> np.ndarray:
        """Every mesh point, an (input size, num mesh points) array."""
        return np.column_stack([self.get_mesh_point(k) for k in range(self._num_points)])

    def EvalBarycentricWeights(self, arg0):
        """(mesh indices (num_interpolants,) int, weights (num_interpolants,))."""
        x = np.asarray(arg0, dtype=float).reshape(-1)
        if x.size != len(self._grid):
            raise ValueError(f"EvalBarycentricWeights: input has size {x.size}; the mesh "
                             f"has {len(self._grid)} dimensions")
        relative, has_volume, index = [], {}, 0
        for i, coords in enumerate(self._grid):
            if len(coords) == 1:
                continue
            right = bisect.bisect_left(coords, x[i])
            if right == len(coords):
                has_volume[i], right, fraction = False, len(coords) - 1, 1.0
            elif right == 0:
                has_volume[i], fraction = False, 1.0
            else:
                has_volume[i] = True
                fraction = (x[i] - coords[right - 1]) / (coords[right] - coords[right - 1])
            relative.append((fraction, i))
            index += self._stride[i] * right
        relative.sort()
        n = self._num_interpolants
        indices = np.empty(n, dtype=np.int32)
        weights = np.empty(n)
        indices[0] = index
        weights[0] = relative[0][0] if relative else 1.0
        for k in range(1, n):
            dim = relative[k - 1][1]
            if has_volume[dim]:
                index -= self._stride[dim]
            indices[k] = index
            weights[k] = (1.0 - relative[k - 1][0] if k == n - 1
                          else relative[k][0] - relative[k - 1][0])
        return indices, weights

    def Eval(self, arg0, arg1) -> np.ndarray:
        """Interpolated value (rows,) of mesh_values (rows, num_mesh_points) at input."""
        values = np.asarray(arg0, dtype=float)
        values = values.reshape(-1, self._num_points)
        indices, weights = self.EvalBarycentricWeights(arg1)
        return values[:, indices] @ weights

    def MeshValuesFrom(self, arg0) -> np.ndarray:
        """(rows, num_mesh_points): the function evaluated at every mesh point."""
        return np.column_stack([np.asarray(arg0(self.get_mesh_point(k)),
                                           dtype=float).reshape(-1)
                                for k in range(self._num_points)])
