"""Role (what a geometry is used for) and RoleAssign (how properties are assigned)."""
from __future__ import annotations

import enum


class Role(enum.IntEnum):
    """Geometry roles, with Drake's values (bit flags)."""

    kUnassigned = 0
    kProximity = 1
    kIllustration = 2
    kPerception = 4

    def __repr__(self) -> str:
        return f"<Role.{self.name}: {self.value}>"

    def __str__(self) -> str:
        """``Role.kXxx``, as pydrake prints it (format() too)."""
        return f"Role.{self.name}"

    def __format__(self, format_spec: str) -> str:
        return format(str(self), format_spec)


class RoleAssign(enum.IntEnum):
    """kNew assigns a role the geometry does not have yet; kReplace replaces
    the properties of a role it already has."""

    kNew = 0
    kReplace = 1

    def __repr__(self) -> str:
        return f"<RoleAssign.{self.name}: {self.value}>"

    def __str__(self) -> str:
        """``RoleAssign.kXxx``, as pydrake prints it (format() too)."""
        return f"RoleAssign.{self.name}"

    def __format__(self, format_spec: str) -> str:
        return format(str(self), format_spec)


def role_name(role: Role) -> str:
    """'proximity', 'illustration', 'perception' or 'unassigned' (for messages)."""
    return {Role.kUnassigned: "unassigned", Role.kProximity: "proximity",
            Role.kIllustration: "illustration", Role.kPerception: "perception"}[Role(role)]
