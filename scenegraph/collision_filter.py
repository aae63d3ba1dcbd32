"""CollisionFilter: the internal collision-filter policy of one GeometryState.

Only geometries with the proximity role take part. Each gets a *slot*; the
configuration is a symmetric boolean matrix over slots, ``True`` = filtered.

* The **persistent base** is a matrix edited by ``apply`` (Exclude sets
  pairs, Allow clears them, statements in order).
* The **transient history** is an ordered dict FilterId -> statements with the
  geometry ids resolved at application time. The current configuration is the
  base with every history entry replayed in order, so removing an entry
  recomputes the result exactly as Drake's worked example describes.
* **Invariants** are applied when reading, so no declaration can undo them: a
  geometry with itself, two geometries on the same frame, and two anchored
  geometries (anchored geometries share the world frame, so the second rule
  covers the third).

Slots are never reused, so a stale id can never alias a new geometry.
"""
from __future__ import annotations

import numpy as np

from scenegraph.identifiers import FilterId, GeometryId

EXCLUDE, ALLOW = "exclude", "allow"


class CollisionFilter:
    """Filter configuration over proximity geometries (see module docstring)."""

    def __init__(self):
        self._slot: dict[GeometryId, int] = {}
        self._ids: list = []            # slot -> GeometryId or None (removed)
        self._frame_key: list = []      # slot -> frame key (FrameId); None once removed
        self._base = np.zeros((0, 0), dtype=bool)
        self._history: dict[FilterId, list] = {}
        self._current = None            # cached matrix (base + history), or None
        self._invariant = None          # cached invariant matrix, or None

    # ---- membership -------------------------------------------------------
    def add_geometry(self, geometry_id: GeometryId, frame_key) -> None:
        """Adds a proximity geometry affixed to frame ``frame_key`` (the world
        frame for anchored geometry). It starts unfiltered except invariants."""
        if geometry_id in self._slot:
            return
        n = len(self._ids)
        cap = self._base.shape[0]
        if n >= cap:
            new_cap = max(8, 2 * cap)
            grown = np.zeros((new_cap, new_cap), dtype=bool)
            grown[:cap, :cap] = self._base
            self._base = grown
        self._slot[geometry_id] = n
        self._ids.append(geometry_id)
        self._frame_key.append(frame_key)
        self._dirty()

    def remove_geometry(self, geometry_id: GeometryId) -> None:
        """Forgets the geometry: clears its base row/column and drops it from
        every transient declaration."""
        slot = self._slot.pop(geometry_id, None)
        if slot is None:
            return
        self._base[slot, :] = False
        self._base[:, slot] = False
        self._ids[slot] = None
        self._frame_key[slot] = None
        for fid, statements in self._history.items():
            self._history[fid] = [(op, tuple(g for g in a if g != geometry_id),
                                   None if b is None else tuple(g for g in b if g != geometry_id))
                                  for op, a, b in statements]
        self._dirty()

    def has_geometry(self, geometry_id: GeometryId) -> bool:
        return geometry_id in self._slot

    def _dirty(self) -> None:
        self._current = None
        self._invariant = None

    # ---- declarations -----------------------------------------------------
    def apply(self, statements) -> None:
        """Applies resolved statements [(op, ids_a, ids_b or None)] to the base.

        Raises:
          RuntimeError: if a transient history exists.
        """
        if self._history:
            raise RuntimeError(
                "You cannot modify the persistent collision filter configuration when there "
                f"are active, transient filter declarations (ids: "
                f"{[f.get_value() for f in self._history]})")
        _replay(self._base, self._slot, statements)
        self._current = None

    def apply_transient(self, statements) -> FilterId:
        """Appends resolved statements to the history; returns their FilterId."""
        fid = FilterId.get_new_id()
        self._history[fid] = list(statements)
        self._current = None
        return fid

    def remove_declaration(self, filter_id: FilterId) -> bool:
        if filter_id not in self._history:
            return False
        del self._history[filter_id]
        self._current = None
        return True

    def is_active(self, filter_id: FilterId) -> bool:
        return filter_id in self._history

    def has_transient_history(self) -> bool:
        return bool(self._history)

    def flatten(self) -> None:
        """Folds the history into the persistent base and clears the history."""
        self._base = self._current_matrix().copy()
        self._history.clear()
        self._current = None

    # ---- queries ----------------------------------------------------------
    def _current_matrix(self) -> np.ndarray:
        if self._current is None:
            if not self._history:
                self._current = self._base
            else:
                M = self._base.copy()
                for statements in self._history.values():
                    _replay(M, self._slot, statements)
                self._current = M
        return self._current

    def _invariant_matrix(self) -> np.ndarray:
        if self._invariant is None:
            n = len(self._ids)
            keys = {}
            codes = np.array([keys.setdefault(k, len(keys)) if k is not None else -1 - i
                              for i, k in enumerate(self._frame_key)], dtype=np.int64)
            inv = codes[:, None] == codes[None, :]
            if n:
                np.fill_diagonal(inv, True)
            self._invariant = inv
        return self._invariant

    def is_filtered(self, id_a: GeometryId, id_b: GeometryId) -> bool:
        """True if the pair is filtered (ids must both be members)."""
        i, j = self._slot[id_a], self._slot[id_b]
        return bool(self._invariant_matrix()[i, j] or self._current_matrix()[i, j])

    def filtered_matrix(self, geometry_ids) -> np.ndarray:
        """(n, n) bool: filtered[i, j] for the given member ids, in that order
        (diagonal True)."""
        idx = np.fromiter((self._slot[g] for g in geometry_ids), dtype=np.int64,
                          count=len(geometry_ids))
        n = len(self._ids)
        full = self._invariant_matrix() | self._current_matrix()[:n, :n]
        return full[np.ix_(idx, idx)]

    def snapshot(self) -> tuple:
        """A hashable summary of the configuration (for tests and diffs)."""
        members = sorted(self._slot, key=lambda g: g.get_value())
        M = self.filtered_matrix(members) if members else np.zeros((0, 0), bool)
        pairs = tuple((members[i].get_value(), members[j].get_value())
                      for i, j in zip(*np.nonzero(np.triu(M, 1))))
        history = tuple(f.get_value() for f in self._history)
        return (tuple(g.get_value() for g in members), pairs, history)

    # ---- copying ----------------------------------------------------------
    def __deepcopy__(self, memo):
        other = CollisionFilter.__new__(CollisionFilter)
        other._slot = dict(self._slot)
        other._ids = list(self._ids)
        other._frame_key = list(self._frame_key)
        other._base = self._base.copy()
        other._history = {k: list(v) for k, v in self._history.items()}
        other._current = None
        other._invariant = self._invariant
        return other


def _replay(M: np.ndarray, slot: dict, statements) -> None:
    """Applies resolved statements in order to matrix M (in place)."""
    for op, ids_a, ids_b in statements:
        value = op == EXCLUDE
        a = np.fromiter((slot[g] for g in ids_a if g in slot), dtype=np.int64)
        if ids_b is None:
            M[np.ix_(a, a)] = value
        else:
            b = np.fromiter((slot[g] for g in ids_b if g in slot), dtype=np.int64)
            M[np.ix_(a, b)] = value
            M[np.ix_(b, a)] = value


class ProximityView:
    """Vectorisable summary of the proximity geometries of one GeometryState.

    Attributes (index k over proximity geometries, increasing id order):
      geometry_ids: list[GeometryId].
      index: dict GeometryId -> k.
      shapes: list[Shape].
      properties: list[ProximityProperties].
      is_anchored: (n,) bool.
      frame_ids: list[FrameId] (world frame for anchored geometry).
      pose_index: (n,) int index into PoseTopology/WorldPoses geometry arrays.
      filtered: (n, n) bool, True where the pair is filtered (diagonal True).
    """

    def __init__(self, geometry_ids, shapes, properties, frame_ids, pose_index, filtered,
                 world_id):
        self.geometry_ids = geometry_ids
        self.index = {g: k for k, g in enumerate(geometry_ids)}
        self.shapes = shapes
        self.properties = properties
        self.frame_ids = frame_ids
        self.is_anchored = np.array([f == world_id for f in frame_ids], dtype=bool)
        self.pose_index = pose_index
        self.filtered = filtered
        self._pairs = None

    def candidate_pairs(self) -> np.ndarray:
        """(K, 2) int array of (i, j), i < j, of unfiltered pairs, sorted."""
        if self._pairs is None:
            i, j = np.nonzero(np.triu(~self.filtered, 1))
            self._pairs = np.stack([i, j], axis=1).astype(np.int64)
        return self._pairs

    def is_filtered(self, id_a: GeometryId, id_b: GeometryId) -> bool:
        """True if the pair (id_a, id_b) of proximity geometries is filtered out."""
        return bool(self.filtered[self.index[id_a], self.index[id_b]])
