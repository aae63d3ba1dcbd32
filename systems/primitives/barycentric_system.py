"""BarycentricMeshSystem: y = barycentric interpolation of `output_values` over a
BarycentricMesh of the input (pydrake's; e.g. a tabulated policy). Ports "u0"/"y0"."""
from __future__ import annotations

import numpy as np

from systems.framework import VectorSystem

__all__ = ["BarycentricMeshSystem"]


class BarycentricMeshSystem(VectorSystem):
    """``BarycentricMeshSystem(mesh, output_values)`` with output_values (rows,
    mesh.get_num_mesh_points()): column k is the output at mesh point k."""

    def __init__(self, arg0, arg1):
        values = np.asarray(arg1, dtype=float)
        if values.ndim != 2 or values.shape[0] == 0 or \
                values.shape[1] != arg0.get_num_mesh_points():
            raise RuntimeError(f"BarycentricMeshSystem: output_values must be (rows > 0, "
                               f"{arg0.get_num_mesh_points()}); got {values.shape}")
        super().__init__(arg0.get_input_size(), values.shape[0], True)
        self._mesh, self._values = arg0, values

    def get_mesh(self):
        """The BarycentricMesh the output is interpolated on."""
        return self._mesh

    def get_output_values(self) -> np.ndarray:
        """A copy of the (outputs, mesh points) values at the mesh points."""
        return self._values.copy()

    def DoCalcVectorOutput(self, context, input, state, output) -> None:
        output[:] = self._mesh.Eval(self._values, input)
