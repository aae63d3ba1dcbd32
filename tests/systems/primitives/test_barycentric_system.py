"""SparseMatrixGain and BarycentricMeshSystem: the shared sparse matrix and interpolated
outputs."""

import numpy as np
import pytest
import scipy.sparse

from scenegraph.math import BarycentricMesh
from systems.framework import DiagramBuilder
from systems.primitives import BarycentricMeshSystem, SharedPointerSystem, SparseMatrixGain


def test_sparse_gain_shared_pointer_and_barycentric_systems():
    gain = SparseMatrixGain(scipy.sparse.csc_matrix([[0.0, 2.0], [1.0, 0.0], [0.0, 0.0]]))
    context = gain.CreateDefaultContext()
    gain.get_input_port().FixValue(context, [3.0, 4.0])
    assert gain.get_output_port().Eval(context).tolist() == [8.0, 3.0, 0.0]

    builder = DiagramBuilder()
    held = [1, 2, 3]
    assert SharedPointerSystem.AddToBuilder(builder, held) is held
    assert builder.GetSystems()[0].get() is held

    mesh = BarycentricMesh([{0.0, 1.0}, {0.0, 1.0, 2.0}])
    values = mesh.MeshValuesFrom(lambda x: np.array([2.0 * x[0] - x[1]]))
    system = BarycentricMeshSystem(mesh, values)
    context = system.CreateDefaultContext()
    system.get_input_port().FixValue(context, [0.25, 1.5])
    assert system.get_output_port().Eval(context)[0] == pytest.approx(2 * 0.25 - 1.5)
