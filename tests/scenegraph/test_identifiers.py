"""Identifiers: unique, hashable, ordered by creation, typed."""
import copy
import pickle

import pytest

from scenegraph import FilterId, FrameId, GeometryId, SourceId


def test_new_ids_are_unique_and_increasing():
    ids = [GeometryId.get_new_id() for _ in range(5)]
    assert len(set(ids)) == 5
    assert ids == sorted(ids)
    assert all(a.get_value() < b.get_value() for a, b in zip(ids, ids[1:]))


def test_default_constructed_id_is_invalid():
    assert not FrameId().is_valid()
    with pytest.raises(RuntimeError, match="invalid"):
        FrameId().get_value()


def test_ids_of_different_types_never_equal_and_cannot_be_ordered():
    g, f = GeometryId.get_new_id(), FrameId.get_new_id()
    assert g != f and not (g == f)
    with pytest.raises(TypeError):
        g < f  # noqa: B015


def test_ids_are_usable_as_dict_keys_after_copy_and_pickle():
    s = SourceId.get_new_id()
    d = {s: "x"}
    assert d[copy.deepcopy(s)] == "x"
    assert d[pickle.loads(pickle.dumps(s))] == "x"


def test_filter_id_is_valid():
    assert FilterId.get_new_id().is_valid()


# --- geometry -------------------------------------------------------------------------
def test_ids_print_as_pydrake_and_kinds_never_alike():
    gid, fid, sid = GeometryId.get_new_id(), FrameId.get_new_id(), SourceId.get_new_id()
    assert str(gid) == repr(gid) == f"<GeometryId value={gid.get_value()}>"
    assert str(fid).startswith("<FrameId value=") and str(sid).startswith("<SourceId value=")
    same_value = FrameId._reserved(7), GeometryId._reserved(7)
    assert str(same_value[0]) != str(same_value[1])
    assert f"{gid}" == str(gid.get_value())     # messages: Drake's bare number
