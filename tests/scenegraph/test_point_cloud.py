"""PointCloud: pydrake's copy form, fields, defaults and resize."""

import numpy as np
import pytest

from scenegraph import PointCloud
from scenegraph import BaseField, Fields


def test_point_cloud_takes_pydrakes_copy_form():
    cloud = PointCloud(3)
    assert PointCloud(other=cloud).size() == 3 and PointCloud(cloud).size() == 3


# --- PointCloud -----------------------------------------------------------------------
def test_point_cloud_fields_defaults_and_resize():
    cloud = PointCloud(3)
    assert cloud.size() == 3 and cloud.has_xyzs() and not cloud.has_rgbs()
    assert cloud.xyzs().dtype == np.float32 and np.isnan(cloud.xyzs()).all()
    with pytest.raises(ValueError):
        cloud.xyzs()[0, 0] = 1.0                       # read-only view, as pydrake's
    cloud.mutable_xyzs()[:] = np.arange(9).reshape(3, 3)
    np.testing.assert_array_equal(cloud.xyz(2), [2, 5, 8])
    with pytest.raises(RuntimeError, match="rgbs"):
        cloud.rgbs()
    colored = PointCloud(new_size=2, fields=Fields(BaseField.kXYZs | BaseField.kRGBs))
    assert colored.rgbs().dtype == np.uint8 and not colored.rgbs().any()
    colored.mutable_rgb(1)[:] = [255, 0, 10]
    colored.resize(3)
    np.testing.assert_array_equal(colored.rgbs(), [[0, 255, 0], [0, 0, 0], [0, 10, 0]])
    assert np.isnan(colored.xyz(2)).all()
    copy = PointCloud(colored)
    copy.mutable_rgbs()[:] = 1
    assert colored.rgb(0).tolist() == [0, 0, 0]        # a deep copy
    assert Fields(BaseField.kXYZs | BaseField.kRGBs).base_fields() == 10
    with pytest.raises(RuntimeError, match="no fields"):
        PointCloud(1, Fields(BaseField.kNone))
