"""An uncertified penetration is still a realised one: its escape translation
separates the bodies and its witnesses lie on their surfaces."""
import numpy as np
import pytest

from scenegraph import Cylinder, Mesh
from tests.scenegraph.proximity.anchored_scene import anchored_query

# A Cylinder and a Mesh: a disc 3.8 m wide and 1 mm thick coincident with a
# flat hull of 9 vertices (12 m by 3 m by 1.3 mm), both at one pose. GJK's
# escapes stall here with gaps of ~1e-6 m; refusing them all would leave the
# coarse answer, whose supports lie 3 m apart sideways, and the final centring
# would put the disc's witness far off the disc.
R_WD = np.array([[-0.9974900987012414, 0.07080609432095042, -2.5551495001046636e-184], [-0.07080609432095042, -0.9974900987012414, 7.2082578146812595e-183], [2.5551495001046636e-184, 7.2082578146812595e-183, 1.0]])
p_WD = np.array([-9.218207676386747, 0.0, 0.7296022971706755])
DISC_RADIUS, DISC_LENGTH = 1.9224962648748956, 0.0010623208379649093
FLAT = np.array([
    [1.654804174426409, -0.48072015650795746, -0.00032035062681705275],
    [0.20018631444800333, -1.5348750128993227, 9.147939955665744e-05],
    [-6.445634781043682, 0.028053134192810653, -0.00015852891763686012],
    [5.196768828798038, -0.20410916131961518, 3.2304406345854034e-05],
    [5.8601391133696925, 0.5681109761963485, 0.00031007129107066196],
    [-1.4129059293655446, 0.05728595044004984, 0.00017773971389534234],
    [-2.568995281049839, -1.0683179624644967, 0.0007270561761822024],
    [4.192160361818348, -1.1923114861523205, -0.000529341848730457],
    [-4.702544788995957, -1.1166616340201412, -0.0005727667659807222],
])
FLAT_FACES = np.array([[8, 7, 1], [6, 2, 8], [6, 8, 1], [0, 2, 4], [0, 4, 7], [0, 8, 2], [0, 7, 8], [3, 7, 4], [3, 1, 7], [3, 4, 6], [3, 6, 1], [5, 4, 2], [5, 2, 6], [5, 6, 4]])
DISC_SCALE = 2 * DISC_RADIUS


def test_disc_on_a_flat_hull_keeps_its_witnesses_on_the_surfaces():
    query, (a, b) = anchored_query(("disc", Cylinder(DISC_RADIUS, DISC_LENGTH), R_WD, p_WD),
                                   ("flat", Mesh(FLAT.T.copy(), faces=FLAT_FACES,
                                                 label="flat"), R_WD, p_WD))
    with pytest.warns(RuntimeWarning, match="not certified"):
        pair = query.ComputeSignedDistancePairClosestPoints(a, b)
    p_WCa, p_WCb = R_WD @ pair.p_ACa + p_WD, R_WD @ pair.p_BCb + p_WD
    # No deeper than the escape along the disc's axis (z of both frames):
    # the smaller overlap of the disc's faces and the hull's z extremes
    # (1.104e-3 m); a slight tilt of the escape does a little better.
    z = FLAT[:, 2]
    along_axis = min(0.5 * DISC_LENGTH - z.min(), z.max() + 0.5 * DISC_LENGTH)
    assert 0.9 * along_axis < -pair.distance <= along_axis + 1e-12 * DISC_SCALE
    np.testing.assert_allclose(p_WCa - p_WCb, pair.distance * np.asarray(pair.nhat_BA_W),
                               atol=1e-12 * DISC_SCALE)
    for gid, p_WC in ((a, p_WCa), (b, p_WCb)):
        [distance] = [d.distance for d in query.ComputeSignedDistanceToPoint(p_WC)
                      if d.id_G == gid]
        assert abs(distance) <= 1e-6 * DISC_SCALE
