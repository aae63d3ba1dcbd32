"""The collision filter's linear form (collision_filter.FilterTable) equals
Drake's model replayed on a boolean matrix: invariants (same frame,
anchored), then the statements in order (Exclude sets, Allow clears),
the persistent base before the transient history. Checked against that
brute-force replay in Python, in numpy (FilterTable) and in the compiled
broadphase (sweep_and_prune.pair_allowed), and its memory is linear."""
import itertools
import tracemalloc

import numpy as np
import pytest

from scenegraph import CollisionFilterDeclaration, GeometrySet
from scenegraph.collision_filter import ALLOW, EXCLUDE, CollisionFilter, FilterTable
from scenegraph.identifiers import FilterId, FrameId, GeometryId
from scenegraph.proximity.broadphase import AabbModel, Broadphase, PairFilter


def replay(frame_code, statements):
    """The obvious N² model: (n, n) bool, True = filtered."""
    code = np.asarray(frame_code)
    m = np.zeros((len(code), len(code)), dtype=bool)
    for exclude, a, b in statements:
        a = np.asarray(a, dtype=np.int64)
        b = a if b is None else np.asarray(b, dtype=np.int64)
        m[np.ix_(a, b)] = exclude
        m[np.ix_(b, a)] = exclude
    return m | (code[:, None] == code[None, :])


def random_statements(rng, n, count):
    out = []
    for _ in range(count):
        exclude = bool(rng.random() < 0.6)
        a = rng.choice(n, size=rng.integers(1, max(2, n // 2)), replace=False)
        if rng.random() < 0.4:
            out.append((exclude, a, None))
        else:   # B may overlap A: a row in both sides
            b = rng.choice(n, size=rng.integers(1, max(2, n // 2)), replace=False)
            out.append((exclude, a, b))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_table_equals_the_replayed_matrix(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    frame_code = rng.integers(0, max(1, n // 3), n)
    statements = random_statements(rng, n, int(rng.integers(0, 12)))
    expected = replay(frame_code, statements)
    table = FilterTable.from_statements(frame_code, statements)
    np.testing.assert_array_equal(table.matrix(), expected)
    for i, j in itertools.product(range(n), repeat=2):
        assert table.is_filtered(i, j) == expected[i, j], (i, j)
    i, j = np.nonzero(np.triu(~expected, 1))
    np.testing.assert_array_equal(table.unfiltered_pairs(block=7), np.stack([i, j], axis=1))
    rows_a, rows_b = rng.permutation(n)[: n // 2], rng.permutation(n)[: n - 1]
    np.testing.assert_array_equal(table.filtered_block(rows_a, rows_b),
                                  expected[np.ix_(rows_a, rows_b)])
    # Memory: one entry per (row, statement) membership.
    assert table.num_members <= sum(len(a) + (0 if b is None else len(b))
                                    for _, a, b in statements)


def test_a_row_on_both_sides_of_a_between_statement_is_covered_with_either_side():
    # Rows 0 in A and B, 1 in A, 2 in B: pairs (0,1), (0,2), (1,2) covered.
    table = FilterTable.from_statements([0, 1, 2, 3], [(True, [0, 1], [0, 2])])
    assert table.is_filtered(0, 1) and table.is_filtered(0, 2) and table.is_filtered(1, 2)
    assert not table.is_filtered(0, 3) and not table.is_filtered(1, 3)
    assert table.num_members == 3       # row 0 once, with both role bits


@pytest.mark.parametrize("seed", range(4))
def test_compiled_broadphase_reads_the_table(seed):
    """Every box overlaps: the compiled candidate pairs are exactly the
    unfiltered pairs of the replay, for each method."""
    rng = np.random.default_rng(100 + seed)
    n = [5, 63, 70, 150][seed]
    frame_code = rng.integers(0, n // 2 + 1, n)
    statements = random_statements(rng, n, 10)
    expected = replay(frame_code, statements)
    i, j = np.nonzero(np.triu(~expected, 1))
    table = FilterTable.from_statements(frame_code, statements)
    R = np.repeat(np.eye(3)[None], n, axis=0)
    p = rng.uniform(-0.01, 0.01, (n, 3))
    model = AabbModel([("Sphere", {"radius": 1.0})] * n)
    for method in ("nxn", "sap", "auto"):
        got = Broadphase(model, method=method).candidate_pairs(R, p, table)
        np.testing.assert_array_equal(got, np.stack([i, j], axis=1).reshape(-1, 2))


def test_a_dense_pair_filter_becomes_one_exclusion_per_pair():
    rng = np.random.default_rng(3)
    m = rng.random((30, 30)) < 0.3
    f = PairFilter(m)
    table = f.table()
    assert table.num_members == 2 * int(np.triu(f.matrix, 1).sum())
    expected = f.matrix.copy()
    np.fill_diagonal(expected, True)
    np.testing.assert_array_equal(table.matrix(), expected)


class _Members:
    """A CollisionFilter over n geometries on the given frames."""

    def __init__(self, frames):
        self.f = CollisionFilter()
        self.ids = [GeometryId.get_new_id() for _ in frames]
        keys = {}
        for g, k in zip(self.ids, frames):
            self.f.add_geometry(g, keys.setdefault(k, FrameId.get_new_id()))
        self.code = np.asarray(frames)

    def resolved(self, statements):
        ids = self.ids
        return [(EXCLUDE if excl else ALLOW, tuple(ids[k] for k in a),
                 None if b is None else tuple(ids[k] for k in b)) for excl, a, b in statements]


def test_collision_filter_replays_base_then_history_in_order():
    rng = np.random.default_rng(11)
    n = 25
    m = _Members(rng.integers(0, 8, n))
    base = random_statements(rng, n, 5)
    m.f.apply(m.resolved(base))
    history = [random_statements(rng, n, 3) for _ in range(4)]
    fids = [m.f.apply_transient(m.resolved(h)) for h in history]
    assert m.f.remove_declaration(fids[1]) and not m.f.remove_declaration(fids[1])
    kept = base + history[0] + history[2] + history[3]
    expected = replay(m.code, kept)
    np.testing.assert_array_equal(m.f.filtered_matrix(m.ids), expected)
    order = rng.permutation(n)
    np.testing.assert_array_equal(m.f.table([m.ids[k] for k in order]).matrix(),
                                  expected[np.ix_(order, order)])
    assert all(m.f.is_filtered(m.ids[a], m.ids[b]) == expected[a, b]
               for a, b in itertools.combinations(range(n), 2))
    m.f.flatten()
    assert not m.f.has_transient_history() and not m.f.is_active(fids[0])
    np.testing.assert_array_equal(m.f.filtered_matrix(m.ids), expected)
    # A removed geometry leaves every statement; re-added, it starts unfiltered.
    gone = m.ids[3]
    m.f.remove_geometry(gone)
    m.f.add_geometry(gone, FrameId.get_new_id())
    assert not any(m.f.is_filtered(gone, g) for g in m.ids if g != gone)


def test_copies_do_not_share_later_declarations():
    import copy
    m = _Members([0, 1, 2])
    twin = copy.deepcopy(m.f)
    m.f.apply(m.resolved([(True, [0, 1, 2], None)]))
    assert m.f.is_filtered(m.ids[0], m.ids[2]) and not twin.is_filtered(m.ids[0], m.ids[2])
    fid = twin.apply_transient(m.resolved([(True, [0], [1])]))
    assert isinstance(fid, FilterId) and not m.f.is_active(fid)
    assert twin.is_filtered(m.ids[0], m.ids[1]) and not twin.is_filtered(m.ids[0], m.ids[2])


def test_memory_is_linear_in_geometries_and_declared_members():
    """10,000 geometries (frames of 10), cliques of 100 excluded within and
    neighbouring cliques excluded between: the table, its compiled words
    and the filter itself stay within a few MB (the dense matrix would be
    100 MB), and the answers are the replay's on a sample."""
    n = 10_000
    m = _Members(np.arange(n) // 10)
    cliques = [list(range(k, k + 100)) for k in range(0, n, 100)]
    statements = [(True, c, None) for c in cliques]
    statements += [(True, a, b) for a, b in zip(cliques[:-1], cliques[1:])]
    statements += [(False, [5, 250], None)]
    from scenegraph.proximity.compiled import sweep_and_prune  # noqa: F401  (imported untraced)
    tracemalloc.start()
    try:
        m.f.apply(m.resolved(statements))
        table = m.f.table(m.ids)
        words = table.words()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5e6, peak
    assert words.shape == (n + table.num_members, 3)
    assert table.num_members == 3 * n - 200 + 2
    assert table.is_filtered(0, 99) and table.is_filtered(99, 199)      # clique, neighbours
    assert not table.is_filtered(0, 200) and not table.is_filtered(5, 250)
    assert table.is_filtered(5, 150) and table.is_filtered(250, 5 + 100)


def test_declarations_through_the_manager_reach_the_engine_linearly(monkeypatch):
    """A GeometryState's proximity view carries the table; its dense matrix
    is built only when read."""
    from scenegraph import GeometryFrame, GeometryInstance, GeometryState, ProximityProperties
    from scenegraph import Sphere
    from scenegraph.math import RigidTransform
    st = GeometryState()
    s = st.RegisterSource("src")
    ids = []
    for i in range(4):
        f = st.RegisterFrame(s, GeometryFrame(f"F{i}"))
        g = st.RegisterGeometry(s, f, GeometryInstance(RigidTransform(), Sphere(0.1), f"g{i}"))
        st.AssignRole(s, g, ProximityProperties())
        ids.append(g)
    st.collision_filter_manager().Apply(CollisionFilterDeclaration().ExcludeWithin(
        GeometrySet(ids[:3])).AllowBetween(GeometrySet(ids[0]), GeometrySet(ids[2])))
    view = st.GetProximityView()
    assert isinstance(view.filter, FilterTable) and view._filtered is None
    assert view.candidate_pairs().tolist() == [[0, 2], [0, 3], [1, 3], [2, 3]]
    assert view._filtered is None
    assert view.filtered[0, 1] and not view.filtered[0, 2]
