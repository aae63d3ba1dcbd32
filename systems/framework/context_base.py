"""ContextBase: the scalar-independent base of every Context (pydrake's
``ContextBase``)."""
from __future__ import annotations

__all__ = ["ContextBase"]


class ContextBase:
    """Base class of Context: what does not depend on the scalar type."""

    __slots__ = ()

    def num_input_ports(self) -> int:
        """How many input ports the context's System has."""
        return len(self._fixed_inputs)

    def num_output_ports(self) -> int:
        """How many output ports the context's System has."""
        return self._num_output_ports
