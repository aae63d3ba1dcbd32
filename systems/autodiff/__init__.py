"""pydrake.autodiffutils-compatible forward-mode automatic differentiation: the scalar
``AutoDiffXd`` (a value and a dense derivative vector) and its matrix helpers
``InitializeAutoDiff``, ``InitializeAutoDiffTuple``, ``ExtractValue``,
``ExtractGradient`` and ``autodiff_equal_to``. Arrays of AutoDiffXd are numpy
``dtype=object`` arrays; numpy's ufuncs (np.sin, np.exp, np.sqrt, ...) and
scenegraph.math's functions accept them."""
from systems.autodiff.autodiff_arrays import (ExtractGradient, ExtractValue,
                                              InitializeAutoDiff, InitializeAutoDiffTuple,
                                              autodiff_equal_to)
from systems.autodiff.autodiff_scalar import AutoDiffXd

__all__ = ["AutoDiffXd", "ExtractGradient", "ExtractValue", "InitializeAutoDiff",
           "InitializeAutoDiffTuple", "autodiff_equal_to"]
