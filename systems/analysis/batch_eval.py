"""BatchEvalTimeDerivatives and BatchEvalUniquePeriodicDiscreteUpdate (pydrake's):
the dynamics of one system at many (time, state, input) columns.

Each column i of `times` (1, N), `states` (n, N) and `inputs` (m, N) is one
evaluation in a private copy of `context` (discrete, abstract state and parameters
as in `context`); the result is (n, N). `input_port_index` selects the vector input
port the inputs are fixed on (InputPortSelection.kUseFirstInputIfItExists: the first
one, if any; kNoInput: none). `parallelize` is accepted for pydrake compatibility;
evaluations run one after another.
"""
from __future__ import annotations

import numpy as np

from systems.framework import InputPortSelection

__all__ = ["BatchEvalTimeDerivatives", "BatchEvalUniquePeriodicDiscreteUpdate"]


def _columns(times, states, inputs, n_state: int, what: str):
    times = np.asarray(times, dtype=float).reshape(1, -1)
    states = np.asarray(states, dtype=float).reshape(n_state, -1) if n_state else \
        np.zeros((0, times.shape[1]))
    inputs = np.asarray(inputs, dtype=float)
    inputs = inputs.reshape(-1, times.shape[1]) if inputs.size else \
        np.zeros((0, times.shape[1]))
    if states.shape[1] != times.shape[1] or inputs.shape[1] != times.shape[1]:
        raise ValueError(f"{what}: times, states and inputs must have the same number of "
                         f"columns; got {times.shape[1]}, {states.shape[1]}, "
                         f"{inputs.shape[1]}")
    return times[0], states, inputs


def _input_port(system, input_port_index, inputs, what):
    index = int(input_port_index)
    if index == int(InputPortSelection.kUseFirstInputIfItExists):
        index = 0 if system.num_input_ports() else -1
    if index == int(InputPortSelection.kNoInput) or index < 0:
        if inputs.shape[0]:
            raise ValueError(f"{what}: inputs were given but no input port is selected")
        return None
    port = system.get_input_port(index)
    if port.size() != inputs.shape[0]:
        raise ValueError(f"{what}: the selected input port has size {port.size()} but "
                         f"inputs has {inputs.shape[0]} rows")
    return port


def BatchEvalTimeDerivatives(system, context, times, states, inputs,
                             input_port_index=InputPortSelection.kUseFirstInputIfItExists,
                             parallelize=None) -> np.ndarray:
    """xcdot (n, N) at each column of (times, states, inputs)."""
    what = "BatchEvalTimeDerivatives"
    system.ValidateContext(context)
    n = system.num_continuous_states()
    times, states, inputs = _columns(times, states, inputs, n, what)
    port = _input_port(system, input_port_index, inputs, what)
    work = context.Clone()
    result = np.empty((n, times.size))
    for i, t in enumerate(times):
        work.SetTime(t)
        work.SetContinuousState(states[:, i])
        if port is not None:
            port.FixValue(work, inputs[:, i])
        result[:, i] = system.EvalTimeDerivatives(work).CopyToVector()
    return result


def BatchEvalUniquePeriodicDiscreteUpdate(
        system, context, times, states, inputs, num_time_steps: int = 1,
        input_port_index=InputPortSelection.kUseFirstInputIfItExists,
        parallelize=None) -> np.ndarray:
    """The discrete state (n, N) after `num_time_steps` unique periodic updates from
    each column (the system must be a difference equation system)."""
    what = "BatchEvalUniquePeriodicDiscreteUpdate"
    system.ValidateContext(context)
    is_difference, period = system.IsDifferenceEquationSystem()
    if not is_difference:
        raise RuntimeError(f"{what}: {system.GetSystemPathname()} is not a difference "
                           "equation system (one discrete group updated periodically)")
    n = context.get_discrete_state_vector().size()
    times, states, inputs = _columns(times, states, inputs, n, what)
    port = _input_port(system, input_port_index, inputs, what)
    work = context.Clone()
    result = np.empty((n, times.size))
    for i, t in enumerate(times):
        work.SetTime(t)
        work.SetDiscreteState(states[:, i])
        if port is not None:
            port.FixValue(work, inputs[:, i])
        for step in range(int(num_time_steps)):
            update = system.EvalUniquePeriodicDiscreteUpdate(work)
            work.SetDiscreteState(update.get_vector(0).CopyToVector())
            work.SetTime(t + (step + 1) * period)
        result[:, i] = work.get_discrete_state_vector().CopyToVector()
    return result
