"""BatchEvalTimeDerivatives and BatchEvalUniquePeriodicDiscreteUpdate (pydrake's):
the dynamics of one system at many (time, state, input) columns.

Each column i of `times` (1, N), `states` (n, N) and `inputs` (m, N) is one
evaluation in a private copy of `context` (discrete, abstract state and parameters
as in `context`); the result is (n, N). `input_port_index` selects the vector input
port the inputs are fixed on (InputPortSelection.kUseFirstInputIfItExists: the first
one, if any; kNoInput: none, and `inputs` is ignored, as in Drake). Shapes that do not
match, and num_time_steps < 1, are ValueErrors naming them (Drake aborts on them).
`parallelize` is accepted for pydrake compatibility; evaluations run one after
another, except for an AffineSystem or LinearSystem, whose columns are evaluated
together as A X + B U + f0 (vectorised).
"""
from __future__ import annotations

import numpy as np

from systems.framework import InputPortSelection

__all__ = ["BatchEvalTimeDerivatives", "BatchEvalUniquePeriodicDiscreteUpdate"]


def _matrix(value, rows: int, columns: int, name: str, what: str) -> np.ndarray:
    """`value` as a (rows, columns) float array (a vector counts as one column or,
    with one row, one row); ValueError naming the shapes otherwise."""
    array = np.asarray(value, dtype=float)
    if array.ndim == 1 and array.size == rows * columns and (columns == 1 or rows == 1):
        array = array.reshape(rows, columns)
    if array.ndim != 2 or array.shape != (rows, columns):
        raise ValueError(f"{what}: {name} must be a {rows} x {columns} matrix (one column "
                         f"per evaluation); got shape {np.shape(value)}")
    return array


def _columns(times, states, inputs, n_state: int, what: str, input_rows):
    times = np.asarray(times, dtype=float)
    if times.ndim > 2 or (times.ndim == 2 and times.shape[0] != 1):
        raise ValueError(f"{what}: times must be a 1 x N matrix; got shape {times.shape}")
    times = times.reshape(-1)
    n = times.size
    states = _matrix(states, n_state, n, "states", what)
    inputs = None if input_rows is None else _matrix(inputs, input_rows, n, "inputs", what)
    return times, states, inputs


def _input_port(system, input_port_index):
    """The selected vector input port, or None (kNoInput, or no ports: as in Drake,
    `inputs` is then ignored)."""
    index = int(input_port_index)
    if index == int(InputPortSelection.kUseFirstInputIfItExists):
        index = 0 if system.num_input_ports() else -1
    if index == int(InputPortSelection.kNoInput) or index < 0:
        return None
    return system.get_input_port(index)


def _affine_columns(system, port, states, inputs):
    """A X + B U + f0 for every column at once when `system` is exactly an
    AffineSystem or LinearSystem (time-invariant; its dynamics read nothing but its
    state and input 0) and the inputs are the given columns; else None."""
    from systems.primitives import AffineSystem, LinearSystem
    if type(system) not in (AffineSystem, LinearSystem):
        return None
    if system._has_B and (port is None or port.get_index() != 0):
        return None
    value = system._A @ states
    if system._has_B:
        value += system._B @ inputs
    if system._has_f0:
        value += system._f0[:, None]
    return value


def BatchEvalTimeDerivatives(system, context, times, states, inputs,
                             input_port_index=InputPortSelection.kUseFirstInputIfItExists,
                             parallelize=None) -> np.ndarray:
    """xcdot (n, N) at each column of (times, states, inputs)."""
    what = "BatchEvalTimeDerivatives"
    system.ValidateContext(context)
    n = system.num_continuous_states()
    port = _input_port(system, input_port_index)
    times, states, inputs = _columns(times, states, inputs, n, what,
                                     None if port is None else port.size())
    fast = _affine_columns(system, port, states, inputs)
    if fast is not None:
        return fast
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
    if isinstance(num_time_steps, bool) or int(num_time_steps) != num_time_steps \
            or num_time_steps < 1:
        raise ValueError(f"{what}: num_time_steps must be an int >= 1; got "
                         f"{num_time_steps!r}")
    n = context.get_discrete_state_vector().size()
    port = _input_port(system, input_port_index)
    times, states, inputs = _columns(times, states, inputs, n, what,
                                     None if port is None else port.size())
    fast = _affine_columns(system, port, states, inputs)
    if fast is not None:
        for _ in range(int(num_time_steps) - 1):
            fast = _affine_columns(system, port, fast, inputs)
        return fast
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
