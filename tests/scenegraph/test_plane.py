"""Plane: signed height of points, the reference point, boxes against the plane."""

import copy

import numpy as np
import pytest

from scenegraph import Plane
from scenegraph.math import RotationMatrix


# --- Plane --------------------------------------------------------------------------
def test_plane_height_reference_point_and_box():
    p = Plane([0, 0, 2], [1, 1, 1])
    np.testing.assert_array_equal(p.unit_normal(), [0, 0, 1])
    np.testing.assert_array_equal(p.reference_point(), [0, 0, 1])   # n̂·d, as Drake
    assert p.CalcHeight([3, 3, 3]) == 2.0 and p.CalcHeight(point=[0, 0, 0]) == -1.0
    assert p.BoxOverlaps([1, 1, 0.5], [0, 0, 1.4], RotationMatrix())
    assert not p.BoxOverlaps(half_width=[1, 1, 0.5], box_center_in_plane=[0, 0, 1.6],
                             box_orientation_in_plane=RotationMatrix())
    # Declared normalized: stored as given (pydrake's release build does not check).
    assert Plane([0, 0, 1], [0, 0, 2], already_normalized=True).CalcHeight([0, 0, 3]) == 1.0
    with pytest.raises(RuntimeError, match=r"Cannot instantiate plane from normal "
                                           r"n_F = \[0 0 0\]; its magnitude is too small: 0"):
        Plane([0, 0, 0], [1, 1, 1])
    q = copy.deepcopy(p)
    assert q.CalcHeight([3, 3, 3]) == 2.0
