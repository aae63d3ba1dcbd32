"""GeometryVersion: one revision token per role.

Each role's token is a fresh object whenever that role's data changes, so two
versions are "the same" for a role exactly when they share the token.
Copies share tokens until one of them is modified.
"""
from __future__ import annotations

from scenegraph.geometry_roles import Role

_ROLES = (Role.kProximity, Role.kIllustration, Role.kPerception)


class _Token:
    __slots__ = ()

    def __deepcopy__(self, memo):
        return self  # tokens are identities; deep copies keep them

    def __copy__(self):
        return self


class GeometryVersion:
    """Per-role revision of SceneGraph's geometry data.

    ``GeometryVersion()`` differs from every other instance for every role;
    ``GeometryVersion(other)`` is a copy (the same for every role).
    """

    __slots__ = ("_tokens",)

    def __init__(self, other: "GeometryVersion | None" = None):
        if other is None:
            self._tokens = {r: _Token() for r in _ROLES}
        else:
            self._tokens = dict(other._tokens)

    def IsSameAs(self, other: "GeometryVersion", role: Role) -> bool:
        """True if this and ``other`` have the same revision of ``role``'s data."""
        if role not in self._tokens:
            raise RuntimeError(f"GeometryVersion.IsSameAs(): role {role!r} has no version")
        return self._tokens[role] is other._tokens[role]

    def _bump(self, role: Role) -> None:
        """Marks ``role``'s data as modified (internal to GeometryState)."""
        self._tokens[Role(role)] = _Token()

    def __copy__(self):
        return GeometryVersion(self)

    def __deepcopy__(self, memo):
        return GeometryVersion(self)

    def __repr__(self) -> str:
        ids = ", ".join(f"{r.name}={id(t):x}" for r, t in self._tokens.items())
        return f"GeometryVersion({ids})"
