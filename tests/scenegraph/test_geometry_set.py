"""GeometrySet collects frames and geometries without duplicates and refuses other types."""

import pytest

from scenegraph import FrameId, GeometryId, GeometrySet


def test_geometry_set_collects_both_kinds_without_duplicates():
    g1, g2, f = GeometryId.get_new_id(), GeometryId.get_new_id(), FrameId.get_new_id()
    s = GeometrySet([g1, g2], [f])
    s.Add(g1)
    s.Add([f])
    assert s.geometries() == [g1, g2] and s.frames() == [f]
    assert s.num_geometries() == 2 and s.num_frames() == 1


def test_geometry_set_rejects_other_types():
    with pytest.raises(TypeError):
        GeometrySet(["not an id"])
