"""CollisionFilterDeclaration, CollisionFilterManager, and Newton-style groups.

A declaration is an ordered list of statements over GeometrySets; the manager
resolves the sets against its GeometryState at application time (a frame
stands for its geometries that have the proximity role *now*; geometries
without the proximity role are ignored; unknown ids raise) and hands the
resolved statements to the state's CollisionFilter.
"""
from __future__ import annotations

from enum import IntEnum

from scenegraph.collision_filter import ALLOW, EXCLUDE
from scenegraph.geometry_set import GeometrySet
from scenegraph.identifiers import FilterId, GeometryId, id_type_error


class CollisionFilterScope(IntEnum):
    """Which geometries a declaration's statements cover (pydrake's
    ``CollisionFilterScope``): kAll, or kOmitDeformable (rigid geometries only). There
    are no deformable geometries here, so both scopes filter the same pairs."""

    kAll = 0
    kOmitDeformable = 1


class CollisionFilterDeclaration:
    """Chained statements changing the candidate set C; evaluated in order."""

    def __init__(self, scope: CollisionFilterScope = CollisionFilterScope.kAll):
        self._statements: list = []
        self._scope = CollisionFilterScope(scope)

    def scope(self) -> CollisionFilterScope:
        """The scope given at construction (an extension: pydrake keeps it private)."""
        return self._scope

    def ExcludeWithin(self, geometry_set: GeometrySet) -> "CollisionFilterDeclaration":
        """Removes every pair (gᵢ, gⱼ) of the set from C."""
        self._statements.append((EXCLUDE, _checked(geometry_set), None))
        return self

    def ExcludeBetween(self, set_A: GeometrySet, set_B: GeometrySet) -> "CollisionFilterDeclaration":
        """Removes every pair (a, b), a in set_A, b in set_B, from C."""
        self._statements.append((EXCLUDE, _checked(set_A), _checked(set_B)))
        return self

    def AllowWithin(self, geometry_set: GeometrySet) -> "CollisionFilterDeclaration":
        """Puts every pair (gᵢ, gⱼ), i ≠ j, of the set into C (invariants excepted)."""
        self._statements.append((ALLOW, _checked(geometry_set), None))
        return self

    def AllowBetween(self, set_A: GeometrySet, set_B: GeometrySet) -> "CollisionFilterDeclaration":
        """Puts every pair (a, b), a in set_A, b in set_B, a ≠ b, into C
        (invariants excepted); pairs within one set are untouched."""
        self._statements.append((ALLOW, _checked(set_A), _checked(set_B)))
        return self

    def statements(self) -> list:
        """[(op, set_a, set_b or None)] in declaration order (library extension)."""
        return list(self._statements)

    def __repr__(self) -> str:
        return f"CollisionFilterDeclaration({len(self._statements)} statements)"


def _checked(s) -> GeometrySet:
    if not isinstance(s, GeometrySet):
        raise TypeError(f"expected a GeometrySet, got {type(s).__name__}")
    # Copy so later edits of the caller's set do not change the declaration.
    out = GeometrySet()
    out.Add(s)
    return out


def _checked_declaration(declaration, method: str) -> CollisionFilterDeclaration:
    if not isinstance(declaration, CollisionFilterDeclaration):
        raise TypeError(f"CollisionFilterManager.{method}(): declaration must be a "
                        f"CollisionFilterDeclaration; got {declaration!r}")
    return declaration


def _checked_filter_id(filter_id, method: str) -> None:
    if not isinstance(filter_id, FilterId):
        raise id_type_error(filter_id, FilterId, f"CollisionFilterManager.{method}(): "
                                                 f"filter_id")


class CollisionFilterManager:
    """Facade over one GeometryState's collision filters (model or context copy).

    A manager taken from a context edits that context's GeometryState; when the
    context's state is replaced afterwards (``SetTimeStateAndParametersFrom``,
    ``SetAbstractParameter``, ...) every call on the old manager raises
    RuntimeError instead of editing a state the context no longer holds (pydrake
    aborts the process there)."""

    def __init__(self, geometry_state):
        self._state = geometry_state

    def _current_state(self, method: str):
        """The GeometryState this manager edits; a context's manager (see
        SceneGraph.collision_filter_manager) checks the context still holds it."""
        return self._state

    def Apply(self, declaration: CollisionFilterDeclaration) -> None:
        """Persistently applies ``declaration``.

        Raises:
          RuntimeError: if it references unregistered ids or a transient
            history exists (the configuration is then unchanged), or the
            manager's context no longer holds the state it was taken from.
        """
        state = self._current_state("Apply")
        resolved = state._resolve_filter_statements(
            _checked_declaration(declaration, "Apply"))
        state._collision_filter.apply(resolved)
        state._on_filter_change()

    def ApplyTransient(self, declaration: CollisionFilterDeclaration) -> FilterId:
        """Appends ``declaration`` to the transient history; returns its id.

        Raises:
          RuntimeError: if it references unregistered ids, or the manager's
            context no longer holds the state it was taken from.
        """
        state = self._current_state("ApplyTransient")
        resolved = state._resolve_filter_statements(
            _checked_declaration(declaration, "ApplyTransient"))
        fid = state._collision_filter.apply_transient(resolved)
        state._on_filter_change()
        return fid

    def RemoveDeclaration(self, filter_id: FilterId) -> bool:
        """Removes a transient declaration; False if ``filter_id`` is not active."""
        _checked_filter_id(filter_id, "RemoveDeclaration")
        state = self._current_state("RemoveDeclaration")
        removed = state._collision_filter.remove_declaration(filter_id)
        if removed:
            state._on_filter_change()
        return removed

    def IsActive(self, filter_id: FilterId) -> bool:
        """True if `filter_id` (from ApplyTransient) is still in the transient history.

        Raises:
          TypeError: `filter_id` is not a FilterId.
        """
        _checked_filter_id(filter_id, "IsActive")
        return self._current_state("IsActive")._collision_filter.is_active(filter_id)

    def has_transient_history(self) -> bool:
        """True if transient declarations are in force (Apply then raises)."""
        return self._current_state("has_transient_history")._collision_filter \
            .has_transient_history()

    def flatten_transient_history(self) -> None:
        """Library extension: folds the current configuration into the
        persistent base and discards the history (every FilterId becomes
        inactive) -- line 8 of Drake's transient-filter table."""
        state = self._current_state("flatten_transient_history")
        state._collision_filter.flatten()
        state._on_filter_change()


def stale_manager_error(method: str, system_name: str) -> RuntimeError:
    """The error of a call on a context's CollisionFilterManager after the
    context's geometry state was replaced (the filters would go to a state
    nothing reads any more)."""
    return RuntimeError(
        f"CollisionFilterManager.{method}(): this manager was taken from a context of "
        f"SceneGraph {system_name} whose geometry state has since been replaced (by "
        f"SetTimeStateAndParametersFrom, SetAbstractParameter or a similar copy into "
        f"the context); filters applied through it would be lost. Take a new manager "
        f"with scene_graph.collision_filter_manager(context) after the copy")


def _group_collides(ga: int, gb: int) -> bool:
    """Newton's rule for two shapes in groups ga and gb."""
    if ga == 0 or gb == 0:
        return False
    if ga > 0 and gb > 0:
        return ga == gb
    if ga < 0 and gb < 0:
        return ga != gb
    return True


def collision_groups_declaration(groups: dict) -> CollisionFilterDeclaration:
    """Library extension: a declaration realising Newton's collision groups.

    Args:
      groups: dict GeometryId -> int group. Group 0 collides with nothing; a
        positive group collides with itself and with every negative group; a
        negative group collides with every group except its own number (and 0).

    Returns:
      A declaration that first allows every pair among the given geometries,
      then excludes the pairs Newton's rules forbid, so the result does not
      depend on earlier filters among these geometries (invariants still hold).
      Apply it with ``Apply`` or ``ApplyTransient``.
    """
    by_group: dict[int, list] = {}
    for gid, group in groups.items():
        if not isinstance(gid, GeometryId):
            raise TypeError(f"collision_groups_declaration: keys must be GeometryId, got "
                            f"{type(gid).__name__}")
        if int(group) != group:
            raise TypeError(f"collision_groups_declaration: group of {gid} must be an int, "
                            f"got {group!r}")
        by_group.setdefault(int(group), []).append(gid)
    decl = CollisionFilterDeclaration()
    everything = GeometrySet(list(groups))
    decl.AllowWithin(everything)
    if 0 in by_group:
        decl.ExcludeBetween(GeometrySet(by_group[0]), everything)
    keys = sorted(by_group)
    for k in keys:
        if k < 0:
            decl.ExcludeWithin(GeometrySet(by_group[k]))
    positives = [k for k in keys if k > 0]
    for i, p in enumerate(positives):
        for q in positives[i + 1:]:
            decl.ExcludeBetween(GeometrySet(by_group[p]), GeometrySet(by_group[q]))
    return decl
