"""The refinement's line search halves a Newton step as often as a hard pair
needs (refinement._MAX_HALVINGS).

Two equal cylinders (radius = length = 0.0618 m), cap to cap with their
axes 2.6e-7 rad apart and their centres 0.084 m apart sideways: certifying
their penetration takes a step halved 7–9 times (with at most 6 halvings it
would come back uncertified)."""
import warnings

import numpy as np

from scenegraph import Cylinder
from tests.scenegraph.proximity.anchored_scene import anchored_query

R = L = 0.06178831272744631
R_WA = np.array([[1.0, -7.098552982638176e-45, 6.146183549166013e-34],
                 [-7.098552982638176e-45, 1.0, 2.3099059524837626e-11],
                 [-6.146183549166013e-34, -2.3099059524837626e-11, 1.0]])
p_WA = np.array([-9.657817759098029, 2.9118139894800503, 0.0])
R_WB = np.array([[-0.9772713594657938, 0.21199219317672732, 2.80796740655173e-08],
                 [-0.21199219317672732, -0.9772713594657592, -2.619017921409757e-07],
                 [-2.80796740655173e-08, -2.619017921409757e-07, 0.9999999999999654]])
p_WB = np.array([-9.589854991958884, 2.861309122346359, -0.026706152959535618])


def test_caps_overlapping_with_nearly_parallel_axes_certify():
    query, (a, b) = anchored_query(("a", Cylinder(R, L), R_WA, p_WA),
                                   ("b", Cylinder(R, L), R_WB, p_WB))
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # "not certified" would raise here
        pair = query.ComputeSignedDistancePairClosestPoints(a, b)
    # Cap into cap along A's axis: the depth is L − |Δz| up to the tilt
    # (each body's extent along the normal moves by at most R·angle).
    axis = R_WA[:, 2]
    angle = np.arccos(min(1.0, abs(axis @ R_WB[:, 2])))
    dz = abs(axis @ (p_WB - p_WA))
    assert abs(-pair.distance - (L - dz)) <= 2 * R * angle + 1e-12
    assert abs(abs(np.asarray(pair.nhat_BA_W) @ axis) - 1.0) <= 1e-9
