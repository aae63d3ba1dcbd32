"""The RK3 step gives bit-for-bit the same answer on its scalar path and its compiled path."""

import numpy as np
import pytest

from systems.analysis import Simulator
from tests.systems.analysis.closed_form_systems import Linear


@pytest.mark.parametrize("n, nq, nv", [(1, 0, 0), (2, 1, 1), (3, 1, 1), (6, 2, 2), (10, 0, 0),
                                      (11, 0, 0), (24, 8, 8), (100, 0, 0)])
def test_rk3_scalar_and_compiled_paths_bit_for_bit(n, nq, nv):
    """Scalar path (n <= 10), compiled kernels and numpy: the same bits."""
    results = {}
    for path, limit, compiled in (("scalar", 10, True), ("compiled", 0, True),
                                  ("numpy", 0, False)):
        system = Linear(n, nq, nv)
        simulator = Simulator(system)
        integrator = simulator.get_integrator()
        integrator.set_scalar_path_limit(limit)
        integrator.set_compiled_path(compiled)
        assert integrator.get_scalar_path_limit() == limit
        assert integrator.get_compiled_path() is compiled
        if nv:
            integrator.get_mutable_generalized_state_weight_vector()[:] = np.linspace(0.5, 2, nv)
            integrator.Initialize()
        simulator.AdvanceTo(3.0)
        context = simulator.get_context()
        results[path] = (context.get_continuous_state_vector().CopyToVector().tobytes(),
                         integrator.get_error_estimate().tobytes(),
                         integrator.get_num_steps_taken(),
                         integrator.get_num_derivative_evaluations(),
                         integrator.get_num_step_shrinkages_from_error_control(),
                         integrator.get_ideal_next_step_size(),
                         integrator.get_smallest_adapted_step_size_taken())
    assert results["scalar"] == results["numpy"]
    assert results["compiled"] == results["numpy"]
