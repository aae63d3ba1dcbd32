"""CollisionFilter: the internal collision-filter policy of one GeometryState,
and FilterTable, its linear form that the proximity engine reads.

Only geometries with the proximity role take part. Each gets a *slot* when it
gains the role; slots are never reused, so a stale id can never alias a new
geometry.

The configuration is an ordered list of **statements**, each an exclusion or
an allowance over the slots resolved when it was declared: *within* a set S
(it covers every pair of two members of S) or *between* sets A and B (every
pair with one member in A and the other in B).

* The **persistent base** is the statements ``apply`` appended.
* The **transient history** is an ordered dict FilterId -> statements.

A pair is filtered when an **invariant** holds (the same geometry, two
geometries on the same frame, two anchored geometries: they share the world
frame, so the second rule covers the third), or else when the *last*
statement covering it, base first then the history in order, is an
exclusion. That is Drake's model replayed on a boolean matrix (Exclude sets
pairs, Allow clears them, statements in order; removing a history entry
recomputes the result exactly as Drake's worked example describes), kept
in O(N + declared members) memory instead of N²: nothing here is ever an
(N, N) matrix except on request (``filtered_matrix``, ``FilterTable.matrix``).

Every statement carries a serial number, increasing with each one declared.
Base statements can only be appended while the history is empty, so serial
order *is* replay order, also after RemoveDeclaration and flatten.
"""
from __future__ import annotations

import numpy as np

from scenegraph.identifiers import FilterId, GeometryId

EXCLUDE, ALLOW = "exclude", "allow"

#: Member roles in a statement (bits): in the within-set or set A, in set B.
ROLE_A, ROLE_B = 1, 2
_EMPTY = np.zeros(0, dtype=np.int64)


class FilterTable:
    """The collision filter of N rows in linear form.

    Attributes:
      frame_code: (N,) int64. Rows with equal codes are always filtered (the
        same frame; anchored rows share the world frame's code).
      member_start: (N+1,) int64. Row r's statement memberships are entries
        member_start[r]:member_start[r+1] of the arrays below, newest
        statement first.
      member_order: (M,) int64 the statement's position in replay order
        (larger = later).
      member_role: (M,) int64 role bits (ROLE_A | ROLE_B: a within-set
        member, or a member of both sides of a between statement).
      member_exclude: (M,) bool, the statement is an exclusion.

    Pair (i, j) on different frames is filtered when the latest statement
    that both rows belong to and that covers them (one in A, the other in B;
    a within-set member counts as both) is an exclusion; no such statement:
    not filtered. Memory O(N + M).
    """

    def __init__(self, frame_code, member_start, member_order, member_role, member_exclude):
        self.frame_code = np.ascontiguousarray(frame_code, dtype=np.int64)
        self.member_start = np.ascontiguousarray(member_start, dtype=np.int64)
        self.member_order = np.ascontiguousarray(member_order, dtype=np.int64)
        self.member_role = np.ascontiguousarray(member_role, dtype=np.int64)
        self.member_exclude = np.ascontiguousarray(member_exclude, dtype=bool)
        self._words = None

    @property
    def num_rows(self) -> int:
        return len(self.frame_code)

    @property
    def num_members(self) -> int:
        return len(self.member_order)

    def __len__(self) -> int:
        return self.num_rows

    # ---- construction ------------------------------------------------------
    @classmethod
    def from_statements(cls, frame_code, statements) -> "FilterTable":
        """The table of rows with these frame codes (N,) and `statements`:
        (exclude: bool, rows_A (k,) int, rows_B (l,) int or None for a
        within statement), in replay order; negative rows (members not in
        the table) are dropped. O(N + M log M)."""
        frame_code = np.asarray(frame_code, dtype=np.int64)
        n = len(frame_code)
        rows, order, role, exclude = [], [], [], []
        for s, (excl, a, b) in enumerate(statements):
            a = np.asarray(a, dtype=np.int64)
            a = a[a >= 0]
            if b is None:
                if len(a) < 2:
                    continue  # covers no pair
                parts = ((a, ROLE_A | ROLE_B),)
            else:
                b = np.asarray(b, dtype=np.int64)
                b = b[b >= 0]
                if not len(a) or not len(b):
                    continue
                parts = ((a, ROLE_A), (b, ROLE_B))
            for r, bits in parts:
                rows.append(r)
                order.append(np.full(len(r), s, dtype=np.int64))
                role.append(np.full(len(r), bits, dtype=np.int64))
                exclude.append(np.full(len(r), bool(excl)))
        if not rows:
            return cls(frame_code, np.zeros(n + 1, dtype=np.int64), _EMPTY, _EMPTY,
                       np.zeros(0, dtype=bool))
        rows, order = np.concatenate(rows), np.concatenate(order)
        role, exclude = np.concatenate(role), np.concatenate(exclude)
        if len(rows) and rows.max() >= n:
            raise ValueError(f"FilterTable: statement row {int(rows.max())} out of range "
                             f"[0, {n})")
        # By row, newest statement first; a row in both sides of one
        # statement gets one entry with both role bits.
        sort = np.lexsort((-order, rows))
        rows, order, role, exclude = rows[sort], order[sort], role[sort], exclude[sort]
        same = np.zeros(len(rows), dtype=bool)
        same[1:] = (rows[1:] == rows[:-1]) & (order[1:] == order[:-1])
        if same.any():
            first = np.flatnonzero(~same)
            role = np.bitwise_or.reduceat(role, first)
            rows, order, exclude = rows[first], order[first], exclude[first]
        start = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=n), out=start[1:])
        return cls(frame_code, start, order, role, exclude)

    @classmethod
    def from_matrix(cls, filtered) -> "FilterTable":
        """The table of a dense (N, N) bool filter (True = filtered; its
        upper triangle is read): every filtered pair becomes one exclusion
        between its two rows, each row its own frame. Memory O(N + pairs)."""
        m = np.asarray(filtered, dtype=bool)
        n = len(m)
        i, j = np.nonzero(np.triu(m, 1))
        return cls.from_pairs(n, i, j)

    @classmethod
    def from_pairs(cls, n: int, i, j) -> "FilterTable":
        """The table of N rows, each its own frame, with the pairs (i[k],
        j[k]) (i != j) filtered: one exclusion between the two rows each."""
        i = np.asarray(i, dtype=np.int64).reshape(-1)
        j = np.asarray(j, dtype=np.int64).reshape(-1)
        k = len(i)
        rows = np.concatenate([i, j])
        order = np.concatenate([np.arange(k), np.arange(k)])
        role = np.concatenate([np.full(k, ROLE_A), np.full(k, ROLE_B)])
        sort = np.lexsort((-order, rows))
        start = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=n), out=start[1:])
        return cls(np.arange(n), start, order[sort], role[sort], np.ones(2 * k, dtype=bool))

    # ---- the compiled form ---------------------------------------------------
    def words(self) -> np.ndarray:
        """The table as the compiled broadphase reads it
        (sweep_and_prune.filter_words: an (N + M, 3) int64 array), cached."""
        if self._words is None:
            from scenegraph.proximity.compiled.sweep_and_prune import filter_words
            self._words = filter_words(self.frame_code, self.member_start, self.member_order,
                                       self.member_role, self.member_exclude)
        return self._words

    # ---- queries -----------------------------------------------------------
    def is_filtered(self, i: int, j: int) -> bool:
        """True if rows i and j never pair (i == j included)."""
        if self.frame_code[i] == self.frame_code[j]:
            return True
        a, a_end = int(self.member_start[i]), int(self.member_start[i + 1])
        b, b_end = int(self.member_start[j]), int(self.member_start[j + 1])
        order, role = self.member_order, self.member_role
        while a < a_end and b < b_end:
            sa, sb = order[a], order[b]
            if sa == sb:
                ra, rb = role[a], role[b]
                if (ra & rb >> 1) | (ra >> 1 & rb):
                    return bool(self.member_exclude[a])
                a, b = a + 1, b + 1
            elif sa > sb:
                a += 1
            else:
                b += 1
        return False

    def filtered_block(self, rows_a, rows_b) -> np.ndarray:
        """(len(rows_a), len(rows_b)) bool: filtered[i, j] for the given
        rows (memory of the block's size, time the block's plus the covered
        members' products)."""
        ra = np.asarray(rows_a, dtype=np.int64).reshape(-1)
        rb = np.asarray(rows_b, dtype=np.int64).reshape(-1)
        code = self.frame_code
        out = code[ra][:, None] == code[rb][None, :]
        if not self.num_members or not len(ra) or not len(rb):
            return out
        # Replay the statements in order on the block (rows' positions in it).
        n = self.num_rows
        pos_a = np.full(n, -1, dtype=np.int64)
        pos_b = np.full(n, -1, dtype=np.int64)
        pos_a[ra] = np.arange(len(ra))
        pos_b[rb] = np.arange(len(rb))
        if len(np.unique(ra)) != len(ra) or len(np.unique(rb)) != len(rb):
            raise ValueError("FilterTable.filtered_block: rows repeat")
        owner = np.repeat(np.arange(n), np.diff(self.member_start))
        sort = np.argsort(self.member_order, kind="stable")
        owner, order = owner[sort], self.member_order[sort]
        role, exclude = self.member_role[sort], self.member_exclude[sort]
        bounds = np.flatnonzero(np.diff(order)) + 1
        declared = np.zeros(out.shape, dtype=np.int8)    # 0 none, 1 excluded, 2 allowed
        for s0, s1 in zip(np.r_[0, bounds], np.r_[bounds, len(order)]):
            rows, bits = owner[s0:s1], role[s0:s1]
            value = 1 if exclude[s0] else 2
            for x_bits, y_bits in ((ROLE_A, ROLE_B), (ROLE_B, ROLE_A)):
                x = pos_a[rows[(bits & x_bits) != 0]]
                y = pos_b[rows[(bits & y_bits) != 0]]
                x, y = x[x >= 0], y[y >= 0]
                if len(x) and len(y):
                    declared[np.ix_(x, y)] = value
        out |= declared == 1
        return out

    def matrix(self) -> np.ndarray:
        """(N, N) bool, True where filtered (diagonal True): dense, N² bytes;
        for tests and small scenes."""
        rows = np.arange(self.num_rows)
        return self.filtered_block(rows, rows)

    def unfiltered_pairs(self, block: int = 1024) -> np.ndarray:
        """(K, 2) int64 every unfiltered row pair i < j, sorted; computed a
        block of rows at a time (block × N temporaries)."""
        n = self.num_rows
        out = []
        cols = np.arange(n)
        for r0 in range(0, n, block):
            rows = np.arange(r0, min(r0 + block, n))
            ok = ~self.filtered_block(rows, cols)
            ok &= cols[None, :] > rows[:, None]
            i, j = np.nonzero(ok)
            out.append(np.stack([rows[i], j], axis=1))
        return (np.concatenate(out).astype(np.int64) if out
                else np.zeros((0, 2), dtype=np.int64))


class CollisionFilter:
    """Filter configuration over proximity geometries (see module docstring)."""

    def __init__(self):
        self._slot: dict[GeometryId, int] = {}
        self._frame_codes: dict = {}        # frame key -> code
        self._slot_code = np.zeros(8, dtype=np.int64)   # slot -> frame code
        self._num_slots = 0
        # Statements: (serial, exclude, slots_A (k,) int64, slots_B or None).
        self._base: list = []
        self._history: dict[FilterId, list] = {}
        self._serial = 0
        self._slot_table = None             # FilterTable over slots, or None

    # ---- membership -------------------------------------------------------
    def add_geometry(self, geometry_id: GeometryId, frame_key) -> None:
        """Adds a proximity geometry affixed to frame ``frame_key`` (the world
        frame for anchored geometry). It starts unfiltered except invariants."""
        if geometry_id in self._slot:
            return
        n = self._num_slots
        if n >= len(self._slot_code):
            grown = np.zeros(2 * len(self._slot_code), dtype=np.int64)
            grown[:n] = self._slot_code[:n]
            self._slot_code = grown
        self._slot_code[n] = self._frame_codes.setdefault(frame_key, len(self._frame_codes))
        self._slot[geometry_id] = n
        self._num_slots = n + 1
        self._slot_table = None

    def remove_geometry(self, geometry_id: GeometryId) -> None:
        """Forgets the geometry: it leaves every statement (its slot is never
        reused, so statements naming it no longer match anything)."""
        if self._slot.pop(geometry_id, None) is not None:
            self._slot_table = None

    def has_geometry(self, geometry_id: GeometryId) -> bool:
        return geometry_id in self._slot

    # ---- declarations -----------------------------------------------------
    def _resolved(self, statements) -> list:
        """[(serial, exclude, slots_A, slots_B or None)] of resolved statements
        [(op, ids_a, ids_b or None)] (ids that are not members dropped)."""
        slot = self._slot
        out = []
        for op, ids_a, ids_b in statements:
            a = np.fromiter((slot[g] for g in ids_a if g in slot), dtype=np.int64)
            b = None if ids_b is None else np.fromiter(
                (slot[g] for g in ids_b if g in slot), dtype=np.int64)
            out.append((self._serial, op == EXCLUDE, a, b))
            self._serial += 1
        return out

    def apply(self, statements) -> None:
        """Appends resolved statements [(op, ids_a, ids_b or None)] to the base.

        Raises:
          RuntimeError: if a transient history exists.
        """
        if self._history:
            raise RuntimeError(
                "You cannot modify the persistent collision filter configuration when there "
                f"are active, transient filter declarations (ids: "
                f"{[f.get_value() for f in self._history]})")
        self._base.extend(self._resolved(statements))
        self._slot_table = None

    def apply_transient(self, statements) -> FilterId:
        """Appends resolved statements to the history; returns their FilterId."""
        resolved = self._resolved(statements)
        fid = FilterId.get_new_id()
        self._history[fid] = resolved
        self._slot_table = None
        return fid

    def remove_declaration(self, filter_id: FilterId) -> bool:
        if filter_id not in self._history:
            return False
        del self._history[filter_id]
        self._slot_table = None
        return True

    def is_active(self, filter_id: FilterId) -> bool:
        return filter_id in self._history

    def has_transient_history(self) -> bool:
        return bool(self._history)

    def flatten(self) -> None:
        """Folds the history into the persistent base and clears the history."""
        for statements in self._history.values():
            self._base.extend(statements)
        self._history.clear()
        self._slot_table = None

    # ---- queries ----------------------------------------------------------
    def _statements(self):
        """Every statement in replay order: the base, then the history."""
        yield from self._base
        for statements in self._history.values():
            yield from statements

    def table(self, geometry_ids) -> FilterTable:
        """The FilterTable of the given member ids as rows, in that order.
        O(N + declared members)."""
        n = len(geometry_ids)
        slots = np.fromiter((self._slot[g] for g in geometry_ids), dtype=np.int64, count=n)
        row_of_slot = np.full(self._num_slots, -1, dtype=np.int64)
        row_of_slot[slots] = np.arange(n)
        return FilterTable.from_statements(
            self._slot_code[slots],
            ((excl, row_of_slot[a], None if b is None else row_of_slot[b])
             for _, excl, a, b in self._statements()))

    def _table_over_slots(self) -> FilterTable:
        if self._slot_table is None:
            self._slot_table = FilterTable.from_statements(
                self._slot_code[:self._num_slots],
                ((excl, a, b) for _, excl, a, b in self._statements()))
        return self._slot_table

    def is_filtered(self, id_a: GeometryId, id_b: GeometryId) -> bool:
        """True if the pair is filtered (ids must both be members)."""
        i, j = self._slot[id_a], self._slot[id_b]
        return self._table_over_slots().is_filtered(i, j)

    def filtered_matrix(self, geometry_ids) -> np.ndarray:
        """(n, n) bool: filtered[i, j] for the given member ids, in that order
        (diagonal True). Dense: for tests and small scenes."""
        return self.table(geometry_ids).matrix()

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
        # Statements are never modified in place: the copy shares them.
        other = CollisionFilter.__new__(CollisionFilter)
        other._slot = dict(self._slot)
        other._frame_codes = dict(self._frame_codes)
        other._slot_code = self._slot_code.copy()
        other._num_slots = self._num_slots
        other._base = list(self._base)
        other._history = {k: list(v) for k, v in self._history.items()}
        other._serial = self._serial
        other._slot_table = self._slot_table
        return other


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
      filter: FilterTable of the n rows (linear in n).
      filtered: (n, n) bool, True where the pair is filtered (diagonal True);
        dense, built at its first read (for tests and small scenes).
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
        self.filter = (filtered if isinstance(filtered, FilterTable)
                       else FilterTable.from_matrix(filtered))
        self._filtered = None
        self._pairs = None

    @property
    def filtered(self) -> np.ndarray:
        """(n, n) bool: filtered[i, j] for the view's rows (diagonal True),
        made dense at the first read (the engine reads `filter`'s table
        instead; this is for callers that want the whole matrix)."""
        if self._filtered is None:
            self._filtered = self.filter.matrix()
        return self._filtered

    def candidate_pairs(self) -> np.ndarray:
        """(K, 2) int array of (i, j), i < j, of unfiltered pairs, sorted."""
        if self._pairs is None:
            self._pairs = self.filter.unfiltered_pairs()
        return self._pairs

    def is_filtered(self, id_a: GeometryId, id_b: GeometryId) -> bool:
        """True if the pair (id_a, id_b) of proximity geometries is filtered out."""
        return self.filter.is_filtered(self.index[id_a], self.index[id_b])
