"""GeometryFrame: fields, unique ids, a negative frame group refused."""

import pytest

from scenegraph import GeometryFrame


def test_geometry_frame_fields_and_unique_ids():
    a, b = GeometryFrame("a", 2), GeometryFrame("a")
    assert (a.name(), a.frame_group(), b.frame_group()) == ("a", 2, 0)
    assert a.id() != b.id()


def test_geometry_frame_negative_group_raises():
    with pytest.raises(RuntimeError, match="non-negative"):
        GeometryFrame("a", -1)
