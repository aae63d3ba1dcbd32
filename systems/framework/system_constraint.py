"""External system constraints (Drake's ``ExternalSystemConstraint``), the part pydrake
binds: an opaque constraint a tool attaches to a System with
``System._AddExternalConstraint`` so that ``num_constraints()`` counts it, Clone and
scalar conversion keep it, and a Diagram built around the System carries it.

pydrake binds only the default constructor (an "empty" constraint with no bounds and
no calc functions) and marks the class private; so does this module. Constraints are
not evaluated here (pydrake binds no evaluation either).
"""
from __future__ import annotations

from .indices import SystemConstraintIndex

__all__ = ["_ExternalSystemConstraint", "ExternalConstraintsMixin"]


class _ExternalSystemConstraint:
    """An "external" constraint on a System (pydrake's ``_ExternalSystemConstraint``):
    only the default constructor, which makes the empty constraint Drake names
    ``"empty"``."""

    __slots__ = ()

    def __init__(self):
        pass

    def _description(self) -> str:
        """The constraint's description ("empty", as Drake's default constructor)."""
        return "empty"

    def __repr__(self) -> str:
        return "_ExternalSystemConstraint()"


class ExternalConstraintsMixin:
    """System's constraint bookkeeping (mixed into System).

    A System's constraints are, in Drake's order: for a Diagram, one per constraint its
    subsystems had when it was built; then the external ones added to it."""

    #: External constraints added to this System (a tuple: copies never share a list).
    _external_constraints = ()
    #: The number of subsystem constraints a Diagram took over when it was built.
    _subsystem_constraint_count = 0

    def num_constraints(self) -> int:
        """The number of constraints on this System (a Diagram: its subsystems' at
        Build, plus the external ones added to it)."""
        return self._subsystem_constraint_count + len(self._external_constraints)

    def _AddExternalConstraint(self, constraint) -> SystemConstraintIndex:
        """Adds `constraint` (an _ExternalSystemConstraint) to this System; returns its
        index. Clone and scalar conversion (ToScalarType, ToAutoDiffXd, ...) keep it.

        Raises:
          TypeError: `constraint` is not an _ExternalSystemConstraint.
        """
        if not isinstance(constraint, _ExternalSystemConstraint):
            raise TypeError(f"_AddExternalConstraint(): constraint must be an "
                            f"_ExternalSystemConstraint; got {type(constraint).__name__}")
        self._external_constraints = self._external_constraints + (constraint,)
        return SystemConstraintIndex(self.num_constraints() - 1)
