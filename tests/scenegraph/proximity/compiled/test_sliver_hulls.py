"""Penetration of sliver hulls: Convex shapes 1e3-1e4 times longer than wide,
one inside the other (the outer hull has the inner one's vertices and a few
more) or two copies of one hull, at the same pose.

The signed distance of two overlapping polytopes has a closed form: it is the
largest support gap φ(m) = min over A of m·a − max over B of m·b over the
facet normals of the Minkowski difference A ⊕ (−B), which are A's and B's
facet normals and the cross products of an edge of A and an edge of B
(_closed_form below, from scipy's hulls). On these slivers the depth's local
optima lie a fraction of the width apart; the answer must be the global one,
certified (status EXACT), and the same whichever shape is A.
"""
import warnings

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from scenegraph import Convex, Mesh
from scenegraph.proximity import dispatch
from scenegraph.proximity.shape_data import shape_data_from_reference
from tests.scenegraph.proximity.anchored_scene import anchored_query

NEEDLE_IN_NEEDLE_VERTICES = np.array([
    [-0.001208241419513083, -0.02211958042425675, 3.3350658947622036],
    [-0.0026218398538692426, -0.013047152743336883, 2.3094437378223627],
    [0.000923821662881379, -0.006999146596993128, -12.981072244011344],
    [0.0009649900296350929, 0.004540504181474428, -9.079647909100943],
    [0.0017677280408548198, -0.012264232373412258, -7.239824108443749],
    [0.00021968195631700483, -0.003121956162460704, 1.3025906651685464],
    [-0.0036848558968360034, 0.03170106630513976, -3.8742571548686677],
])
NEEDLE_IN_NEEDLE_INNER = 6   # the first rows span the inner hull
NEEDLE_IN_NEEDLE_R_WG = np.array([[0.18609688680179104, -0.9249473174802204, -0.3314217986325364], [0.7854124351195254, 0.34271154544080906, -0.5154377783798831], [0.5903348672425665, -0.1643814360191457, 0.7902426766569779]])
NEEDLE_IN_NEEDLE_p_WG = np.array([-2.286843106848984, -9.603317090601262, -8.36284005845516])
NEEDLE_IN_NEEDLE_2_VERTICES = np.array([
    [0.0012236704067984992, -0.0021054784911007703, -3.2217891840014663],
    [0.003568027799726318, 0.0005098017973506673, -4.01340461941975],
    [0.008476487433881909, 0.0010807119926792002, -4.147005400753739],
    [-0.004585386859951843, 0.0009263077949095821, 3.6756428981164366],
    [-0.001897612564218756, -0.0005288906231590126, -0.9010222978577386],
    [-0.006797066512052029, 0.0012854687730300335, 2.375389747118186],
    [-0.0015964084685325742, -0.0015803690354561507, 0.8670450991731896],
    [0.005361285895723941, -4.7640523657381886e-05, 0.7141549858009687],
    [0.00044515745221112565, -0.003187310467642404, 1.6143428503898307],
])
NEEDLE_IN_NEEDLE_2_INNER = 6   # the first rows span the inner hull
NEEDLE_IN_NEEDLE_2_R_WG = np.array([[-0.5659356745658934, -0.4987630702375616, 0.6564695057813793], [-0.4059111124221829, -0.5244954098950267, -0.7484255031806666], [0.7176022443288713, -0.690028959367829, 0.09437719093042474]])
NEEDLE_IN_NEEDLE_2_p_WG = np.array([-2.1319159468352495, 4.85394606223676, -7.836343401467452])
TWIN_NEEDLE_VERTICES = np.array([
    [0.0011941023992410693, 0.7619162542108039, 0.0008388819747234935],
    [-0.00046286838831069714, -0.9669583861959424, 0.0019212544428607668],
    [-0.0002477791263319298, 3.3230936241548577, 0.0018007570638260103],
    [-0.0008967628712836601, -7.875260298982688, -0.001728025291283561],
    [0.0010960364572365532, -1.0900519707551402, -0.0008737558971696831],
    [0.0007899679067190726, -1.3293214643207931, 0.0004032758785348037],
])
TWIN_NEEDLE_INNER = 6   # all rows: two copies of one hull
TWIN_NEEDLE_R_WG = np.array([[0.7379605893731158, 0.6581867160132635, 0.1490114606188366], [0.25928670982575847, -0.48039887003590254, 0.8378468402852399], [0.62304459763312, -0.5796612567111097, -0.5251745013119735]])
TWIN_NEEDLE_p_WG = np.array([9.188807266179385, -0.612239241548636, -4.792218742432017])
TWIN_SPLINTER_VERTICES = np.array([
    [0.20100933002559337, -4.761976975907295e-05, 0.00020898667060722368],
    [0.023945516532446778, -1.8275385620694187e-05, -8.062604358744955e-05],
    [0.07969291638058139, 4.610396462232716e-06, -0.0001323171067586197],
    [-0.15330995624897029, -5.2337815403405757e-05, -8.104966254382841e-05],
    [0.14820118137021532, 0.0001295952840308053, 0.00010413585679791111],
    [0.048643929134405545, -4.0346133772037064e-05, 6.532258344012727e-06],
])
TWIN_SPLINTER_INNER = 6   # all rows: two copies of one hull
TWIN_SPLINTER_R_WG = np.array([[-0.901867305446616, -0.20479311365841213, -0.38038814908531615], [0.40751564466585477, -0.11099299952672026, -0.9064279085556854], [0.14340977204860472, -0.9724918172684818, 0.18355735514223637]])
TWIN_SPLINTER_p_WG = np.array([-6.754253311953602, 4.404235573198978, -2.1106694115100844])

# (name, inner vertex count, vertices, R_WG, p_WG, φ from _closed_form [m]).
CASES = [
    ("needle in needle", NEEDLE_IN_NEEDLE_INNER, NEEDLE_IN_NEEDLE_VERTICES,
     NEEDLE_IN_NEEDLE_R_WG, NEEDLE_IN_NEEDLE_p_WG, -0.002277364488380229),
    ("needle in needle 2", NEEDLE_IN_NEEDLE_2_INNER, NEEDLE_IN_NEEDLE_2_VERTICES,
     NEEDLE_IN_NEEDLE_2_R_WG, NEEDLE_IN_NEEDLE_2_p_WG, -0.0021104025552842742),
    ("twin needles", TWIN_NEEDLE_INNER, TWIN_NEEDLE_VERTICES, TWIN_NEEDLE_R_WG,
     TWIN_NEEDLE_p_WG, -0.0010420815198131095),
    ("twin splinters", TWIN_SPLINTER_INNER, TWIN_SPLINTER_VERTICES, TWIN_SPLINTER_R_WG,
     TWIN_SPLINTER_p_WG, -0.00015839960969254996),
]
IDS = [c[0] for c in CASES]


def _closed_form(V_WA, V_WB):
    """Signed distance [m] of the overlapping hulls of V_WA, V_WB (N, 3) in W:
    the best support gap over the Minkowski difference's facet normals."""
    normals, edges = [], []
    for V in (V_WA, V_WB):
        hull = ConvexHull(V)
        normals.append(hull.equations[:, :3])
        pairs = {tuple(sorted((s[i], s[j]))) for s in hull.simplices
                 for i, j in ((0, 1), (1, 2), (2, 0))}
        edges.append(np.array([V[j] - V[i] for i, j in pairs]))
    crosses = np.cross(edges[0][:, None, :], edges[1][None, :, :]).reshape(-1, 3)
    crosses = crosses[np.linalg.norm(crosses, axis=1) > 0.0]
    U = np.concatenate(normals + [crosses / np.linalg.norm(crosses, axis=1, keepdims=True)])
    U = np.concatenate([U, -U])                      # m = nhat_BA candidates
    return float(((V_WA @ U.T).min(axis=0) - (V_WB @ U.T).max(axis=0)).max())


def _bodies(case, inner_first):
    """(shape A, shape B, R_WG, p_WG, size [m]) of a case: A the inner hull
    when inner_first, else the outer one."""
    _, n, V, R, p, _ = case
    inner = {"type": "Convex", "vertices": V[:n].tolist()}
    outer = {"type": "Convex", "vertices": V.tolist()}
    A, B = (inner, outer) if inner_first else (outer, inner)
    return A, B, R, p, float(np.abs(V).max())


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_expected_depths_are_the_closed_form(case):
    _, n, V, R, p, expected = case
    V_W = V @ R.T + p
    assert _closed_form(V_W[:n], V_W) == pytest.approx(expected, abs=1e-15)
    assert _closed_form(V_W, V_W[:n]) == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("inner_first", [True, False], ids=["inner as A", "outer as A"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_signed_distance_is_the_certified_global_optimum(case, inner_first):
    A, B, R, p, size = _bodies(case, inner_first)
    r = dispatch.signed_distance_pairs([shape_data_from_reference(A)], [R], [p],
                                       [shape_data_from_reference(B)], [R], [p])
    phi, n = r.distance[0], r.nhat_BA_W[0]
    assert r.status[0] == 0                                   # EXACT
    assert abs(phi - case[5]) <= 1e-12 * size
    assert np.abs(r.p_WCa[0] - r.p_WCb[0] - phi * n).max() <= 1e-12 * size
    # The normal realises φ: the support gap of the hulls along it.
    V_WA = np.asarray(A["vertices"]) @ R.T + p
    V_WB = np.asarray(B["vertices"]) @ R.T + p
    assert abs((V_WA @ n).min() - (V_WB @ n).max() - phi) <= 1e-12 * size


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_penetration_query_gives_the_same_depth(case):
    A, B, R, p, size = _bodies(case, True)
    r = dispatch.penetration_pairs([shape_data_from_reference(A)], [R], [p],
                                   [shape_data_from_reference(B)], [R], [p])
    assert r.status[0] == 0 and abs(r.distance[0] - case[5]) <= 1e-12 * size


# Through the public query: a Convex and a Mesh, two coincident needle hulls
# 23 m long and 2 mm wide (the mesh misses the Convex's fifth vertex), whose
# deepest escape is an edge-edge direction of the Minkowski difference.
NEEDLE_R_WG = np.array([[-0.9625892162184926, 0.2538172441367552, -0.09486204403601793], [-0.2538172441367552, -0.722048749297306, 0.643601126643684], [0.09486204403601793, 0.643601126643684, 0.7594595330788134]])
NEEDLE_p_WG = np.array([1.557285961949388, 1.4644620020741838e-283, -1.175494351e-38])
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
NEEDLE_SCALE = float(np.ptp(NEEDLE, axis=0).max())   # 23 m


def test_needle_convex_against_its_mesh_is_certified_and_minimal():
    query, ids = anchored_query(("a", Convex(NEEDLE.T.copy(), "needle"), NEEDLE_R_WG, NEEDLE_p_WG),
                                ("b", Mesh(NEEDLE_B.T.copy(), faces=FACES_B, label="needle"),
                                 NEEDLE_R_WG, NEEDLE_p_WG))
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # "not certified" would raise
        pair = query.ComputeSignedDistancePairClosestPoints(ids[0], ids[1])
    V_WA = NEEDLE @ NEEDLE_R_WG.T + NEEDLE_p_WG
    V_WB = NEEDLE_B @ NEEDLE_R_WG.T + NEEDLE_p_WG
    # The closed form (and the depth of scipy's hull of the Minkowski
    # difference, -2.0881252175717346e-3 m) to the rounding of the directions
    # between the needles' nearly parallel edges.
    expected = _closed_form(V_WA, V_WB)
    assert expected == pytest.approx(-2.0881252175717346e-3, abs=1e-12 * NEEDLE_SCALE)
    assert abs(pair.distance - expected) <= 1e-12 * NEEDLE_SCALE
    p_WCa = NEEDLE_R_WG @ pair.p_ACa + NEEDLE_p_WG
    p_WCb = NEEDLE_R_WG @ pair.p_BCb + NEEDLE_p_WG
    np.testing.assert_allclose(p_WCa - p_WCb, pair.distance * np.asarray(pair.nhat_BA_W),
                               atol=1e-12 * NEEDLE_SCALE)
