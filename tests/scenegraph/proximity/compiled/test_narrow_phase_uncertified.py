"""An uncertified penetration is still a realised one: its escape translation
separates the bodies and its witnesses lie on their surfaces.

The first pair: a Convex and a Mesh, two coincident needle hulls 23 m long and 2
mm wide (one misses a vertex of the other). Their deepest escape is an edge–edge
direction that the refinement does not certify, and GJK on such needles can
stall on rounding with its closest pair 2e-4 m from the true one, so an escape
built on it would leave the bodies inside each other. An escape counts only
where GJK's duality gap is at most 1e-6 of the size, and is then lengthened by
that gap (B's witness moved by it), which makes it realised. The reference depth
comes from scipy's hull of the Minkowski difference (exact for polytopes)."""
import numpy as np
import pytest
from scipy.spatial import ConvexHull

from scenegraph import Convex, Cylinder, Mesh
from tests.scenegraph.proximity.anchored_scene import anchored_query

R_WG = np.array([[-0.9625892162184926, 0.2538172441367552, -0.09486204403601793], [-0.2538172441367552, -0.722048749297306, 0.643601126643684], [0.09486204403601793, 0.643601126643684, 0.7594595330788134]])
p_WG = np.array([1.557285961949388, 1.4644620020741838e-283, -1.175494351e-38])
NEEDLE = np.array([
    [-0.00019065078027181225, 0.0009762753023250245, -8.11286601748278],
    [-0.001979306995128438, 0.0013792493156316488, 10.064302020283193],
    [-0.0008250102563404514, -0.000858265116396735, 0.6899778092536759],
    [0.0007588509403947642, 0.00040861357484157554, -6.18794045074808],
    [2.4275572030423592e-05, -0.00034272312643232903, 0.8463962081121573],
    [0.0001865650227570936, -0.000422052144612611, 2.7054350103228586],
    [-0.0004904375543941911, 0.0014870903870110375, 1.2450711753286017],
    [-0.0008006424747270002, -0.00023661625040777583, 13.386918871480265],
    [0.000754409018561997, 0.0019660356332917334, 13.952264765523875],
    [0.0002780651609877712, 0.0018435353886494595, 22.957120945765258],
])
# The same needle without its fifth vertex, as a closed triangle mesh.
NEEDLE_B = np.delete(NEEDLE, 4, axis=0)
FACES_B = np.array([[0, 2, 1], [0, 3, 2], [6, 1, 2], [6, 8, 1], [5, 0, 1], [7, 3, 0], [7, 0, 5], [7, 1, 8], [7, 5, 1], [4, 8, 6], [4, 3, 7], [4, 7, 8], [4, 2, 3], [4, 6, 2]])
SCALE = float(np.ptp(NEEDLE, axis=0).max())   # 23 m


@pytest.fixture(scope="module")
def answer():
    """(SignedDistancePair, p_WCa, p_WCb, QueryObject, ids) of the needles."""
    query, ids = anchored_query(("a", Convex(NEEDLE.T.copy(), "needle"), R_WG, p_WG),
                                ("b", Mesh(NEEDLE_B.T.copy(), faces=FACES_B, label="needle"),
                                 R_WG, p_WG))
    with pytest.warns(RuntimeWarning, match="not certified"):
        pair = query.ComputeSignedDistancePairClosestPoints(ids[0], ids[1])
    return pair, R_WG @ pair.p_ACa + p_WG, R_WG @ pair.p_BCb + p_WG, query, ids


def _minkowski_difference():
    """Vertices (M, 3) of A − B in W."""
    a, b = NEEDLE @ R_WG.T + p_WG, NEEDLE_B @ R_WG.T + p_WG
    return (a[:, None, :] - b[None, :, :]).reshape(-1, 3)


def test_escape_separates_the_bodies(answer):
    pair, p_WCa, p_WCb, _, _ = answer
    # Translating B by p_WCa − p_WCb leaves at most rounding of overlap.
    left = np.min(-ConvexHull(_minkowski_difference() - (p_WCa - p_WCb)).equations[:, 3])
    assert left <= 1e-9 * SCALE
    np.testing.assert_allclose(p_WCa - p_WCb, pair.distance * np.asarray(pair.nhat_BA_W),
                               atol=1e-12 * SCALE)


def test_depth_is_the_minimal_one_to_the_documented_accuracy(answer):
    depth = np.min(-ConvexHull(_minkowski_difference()).equations[:, 3])   # 2.088e-3 m
    assert -answer[0].distance >= depth - 1e-9 * SCALE
    assert -answer[0].distance <= depth + 1e-6 * SCALE


def test_witnesses_lie_on_their_surfaces_to_the_uncertified_accuracy(answer):
    # Every point of a 2 mm needle is within 1 mm of its surface, so this
    # only bounds how far the final centring may move a witness; the answer's
    # direction leaves the two supporting faces at opposite ends of the needles,
    # and no pair of surface points realises it exactly.
    _, p_WCa, p_WCb, query, ids = answer
    for gid, p_WC in ((ids[0], p_WCa), (ids[1], p_WCb)):
        [distance] = [d.distance for d in query.ComputeSignedDistanceToPoint(p_WC)
                      if d.id_G == gid]
        assert abs(distance) <= 1e-5 * SCALE


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
