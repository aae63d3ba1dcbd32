"""CameraInfo: from a field of view as pydrake, Drake's errors, malformed intrinsic matrices
refused."""

import copy
import math
import pickle

import numpy as np
import pytest

from scenegraph.sensors import CameraInfo


def test_camera_info_from_fov_matches_pydrake():
    info = CameraInfo(640, 480, math.pi / 4)
    assert info.focal_x() == pytest.approx(579.4112549695428, abs=1e-9)
    assert (info.center_x(), info.center_y()) == (319.5, 239.5)
    assert info.fov_x() == pytest.approx(1.0091912899732969, abs=1e-12)
    assert info.fov_y() == pytest.approx(math.pi / 4)
    K = info.intrinsic_matrix()
    assert CameraInfo(640, 480, K).intrinsic_matrix().tolist() == K.tolist()
    assert CameraInfo(640, 480, 500.0, 510.0, 300.0, 200.0).fov_x() == pytest.approx(
        1.1386263822013238, abs=1e-12)
    assert copy.deepcopy(info) == info and pickle.loads(pickle.dumps(info)) == info


@pytest.mark.parametrize("args, message", [
    ((0, 10, 1.0), "Invalid camera configuration: \n  Width (0) should be positive.\n"
                   "  Center X (-0.5) should lie in the range (0, 0)."),
    ((10, 10, 0.0), "Invalid camera configuration: \n  Focal X (inf) should be a positive, "
                    "finite number.\n  Focal Y (inf) should be a positive, finite number."),
    ((10, 10, 5.0, 6.0, 14.5, 4.5), "Invalid camera configuration: \n  Center X (14.5) "
                                    "should lie in the range (0, 10)."),
    ((10, 10, -5.0, 5.0, 4.0, 4.0), "Invalid camera configuration: \n  Focal X (-5) should "
                                    "be a positive, finite number."),
])
def test_camera_info_errors_are_drakes(args, message):
    with pytest.raises(RuntimeError) as info:
        CameraInfo(*args)
    assert str(info.value) == message


def test_malformed_intrinsic_matrix_is_refused():
    with pytest.raises(RuntimeError, match="intrinsic matrix is malformed"):
        CameraInfo(10, 10, np.array([[5, 1, 4.5], [0, 5, 4.5], [0, 0, 1.0]]))
