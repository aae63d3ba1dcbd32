"""The text of ``str(context)``: Drake's human-readable Context summary.

Leaf contexts print the system's pathname (from the names the systems had when
the context was made, as pydrake), the time, then (when present) the
states — continuous, each discrete group, the number of abstract states — and
the parameters; diagram contexts print totals, then each subcontext that has
any state or parameter. Numbers are formatted as Drake prints them: the time as
the shortest text that reads back to the same float (``0``, ``0.25``,
``1e-09``), vector entries with 16 significant digits (``%.16g``), right-aligned
to the widest entry of their vector and separated by one space (Eigen's stream
format).
"""
from __future__ import annotations

import numpy as np

__all__ = ["context_to_string"]


def _format_time(t: float) -> str:
    """Shortest round-trip text of `t`, without Python's trailing ``.0``."""
    text = repr(float(t))
    return text[:-2] if text.endswith(".0") else text


def _format_vector(values) -> str:
    """A vector's entries as Eigen streams a row vector with 16 digits."""
    texts = [format(float(v), ".16g") for v in np.asarray(values, dtype=float).reshape(-1)]
    width = max((len(t) for t in texts), default=0)
    return " ".join(t.rjust(width) for t in texts)


def _has_content(context) -> bool:
    return bool(context.num_continuous_states() or context.num_discrete_state_groups()
                or context.num_abstract_states()
                or context.num_numeric_parameter_groups()
                or context.num_abstract_parameters())


def _leaf_text(context) -> str:
    path = context._context_pathname()
    lines = [f"{path} Context", "-" * (len(path) + 9),
             f"Time: {_format_time(context.get_time())}"]
    n_xc = context.num_continuous_states()
    n_groups = context.num_discrete_state_groups()
    n_xa = context.num_abstract_states()
    if n_xc or n_groups or n_xa:
        lines.append("States:")
        if n_xc:
            lines.append(f"  {n_xc} continuous states")
            lines.append("    " + _format_vector(
                context.get_continuous_state_vector().CopyToVector()))
        if n_groups:
            lines.append(f"  {n_groups} discrete state groups with")
            for i in range(n_groups):
                group = context.get_discrete_state(i)
                lines.append(f"     {group.size()} states")
                lines.append("       " + _format_vector(group.get_value()))
        if n_xa:
            lines.append(f"  {n_xa} abstract states")
        lines.append("")
    n_p = context.num_numeric_parameter_groups()
    n_pa = context.num_abstract_parameters()
    if n_p or n_pa:
        lines.append("Parameters:")
        if n_p:
            lines.append(f"  {n_p} numeric parameter groups with")
            for i in range(n_p):
                parameter = context.get_numeric_parameter(i)
                lines.append(f"     {parameter.size()} parameters")
                lines.append("       " + _format_vector(parameter.get_value()))
        if n_pa:
            lines.append(f"  {n_pa} abstract parameters")
    return "\n".join(lines) + "\n"


def _diagram_text(context) -> str:
    path = context._context_pathname()
    lines = [f"{path} Context (of a Diagram)", "-" * (len(path) + 24)]
    if context.num_continuous_states():
        lines.append(f"{context.num_continuous_states()} total continuous states")
    n_groups = context.num_discrete_state_groups()
    if n_groups:
        total = sum(context.get_discrete_state(i).size() for i in range(n_groups))
        lines.append(f"{total} total discrete states in {n_groups} groups")
    if context.num_abstract_states():
        lines.append(f"{context.num_abstract_states()} total abstract states")
    n_p = context.num_numeric_parameter_groups()
    if n_p:
        total = sum(context.get_numeric_parameter(i).size() for i in range(n_p))
        lines.append(f"{total} total numeric parameters in {n_p} groups")
    if context.num_abstract_parameters():
        lines.append(f"{context.num_abstract_parameters()} total abstract parameters")
    text = "\n".join(lines) + "\n"
    for sub in context._subcontexts:
        if _has_content(sub):
            text += "\n" + context_to_string(sub)
    return text


def context_to_string(context) -> str:
    """Drake's ``Context::to_string()`` text for a leaf or diagram context."""
    return _leaf_text(context) if context._is_leaf else _diagram_text(context)
