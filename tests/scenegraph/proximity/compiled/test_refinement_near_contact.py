"""Nearly touching pairs whose coarse direction leans off the true feature.

GJK's direction is only as good as its witnesses divided by the distance: two
bodies 1e-4 m apart get a direction ~1e-4 rad off, enough to make a
Cylinder's side look like its rim to the angle test of the feature choice.
The refinement must still certify the exact answer (here: a Box's corner
against a Cylinder's side, and a hull's corner inside a Cylinder's side).
"""
from __future__ import annotations

import warnings

import numpy as np

from scenegraph import Box, Convex, Cylinder

from tests.scenegraph.proximity.anchored_scene import anchored_query

R_WA = np.array([[-0.28390438363066495, -0.1280210991303879, 0.9502678039020057],
                 [-0.7024597897989981, 0.7023301853312452, -0.11524996524132469],
                 [-0.6526473356038776, -0.7002448921270517, -0.2893242927566473]])
p_WA = np.array([-0.7522825967006352, -0.6415271783454746, -0.7616444123503971])
R_WB = np.array([[-0.8831142266352867, 0.4338448705482504, -0.17857180912263898],
                 [0.1426057972611134, 0.6108402147182435, 0.778805379199767],
                 [0.4469595611483017, 0.6623087349431097, -0.6013104774708117]])
p_WB = np.array([-0.8337685506996498, -0.7474124946406686, -0.759792463138691])
BOX_SIZE = np.array([0.14881242126361582, 0.0870427635790336, 0.08211078162149371])
RADIUS, LENGTH = 0.03294618099935374, 0.1342680475356204


def _corner_to_side_distance() -> tuple[float, np.ndarray]:
    """Closed form: the Box corner (+x, −y, −z) to the Cylinder's side, and
    that corner in A's frame (the corner lies between the caps)."""
    p_AC = np.array([1.0, -1.0, -1.0]) * BOX_SIZE / 2
    p_BC = R_WB.T @ (p_WA + R_WA @ p_AC - p_WB)
    assert abs(p_BC[2]) < LENGTH / 2
    return float(np.hypot(p_BC[0], p_BC[1]) - RADIUS), p_AC


def _query():
    return anchored_query(("box", Box(*BOX_SIZE), R_WA, p_WA),
                          ("cylinder", Cylinder(RADIUS, LENGTH), R_WB, p_WB))


def test_box_corner_against_cylinder_side_is_certified_exact():
    query_object, (box, cylinder) = _query()
    expected, p_AC = _corner_to_side_distance()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an uncertified answer warns
        result = query_object.ComputeSignedDistancePairClosestPoints(box, cylinder)
    assert abs(result.distance - expected) <= 1e-15
    np.testing.assert_allclose(result.p_ACa, p_AC, rtol=0, atol=1e-15)
    # Cb on the side, along the normal from the corner.
    p_WCa = p_WA + R_WA @ result.p_ACa
    p_WCb = p_WB + R_WB @ result.p_BCb
    np.testing.assert_allclose(p_WCa - p_WCb, result.distance * result.nhat_BA_W, rtol=0,
                               atol=1e-16)
    assert abs(np.hypot(*result.p_BCb[:2]) - RADIUS) <= 1e-16


# A Cylinder (C) and a 24-vertex hull (H), the hull's corner inside the Cylinder's side.
RADIUS_2, LENGTH_2 = 0.05409805568637665, 0.09340820653133075
R_WC = np.array([
    [-0.9631549360448153, 0.20215263962075164, -0.17738906242175645],
    [0.12117800096766358, -0.2626396574835692, -0.957254565096659],
    [-0.24010093971908575, -0.943480111402077, 0.22846622974684067]])
p_WC = np.array([-0.9000157431968436, -0.8998191585684086, -0.9000468776109453])
R_WH = np.array([
    [0.5261063703655566, 0.3905966620250481, -0.7554113678491144],
    [-0.599922509629842, -0.4591202696072506, -0.655211080855015],
    [-0.6027479319750603, 0.797899007174878, -0.007218368869220226]])
p_WH = np.array([-0.7953655754576752, -0.8743103115758367, -0.920427400398896])
VERTICES_H = np.array([
    [-0.048837505951577265, 0.029629184595081473, -0.0048869639255962605],
    [-0.054802229840822454, 0.0100833478120869, 0.009635898292202941],
    [0.008998046432182182, 0.036256362978525275, 0.03172316677717368],
    [-0.0542593302808331, 0.009976821285276997, 0.01604159851198357],
    [-0.002224697980438414, -0.043425784879290254, -0.02439758449686743],
    [-0.007939056381664185, -0.0516771170587886, -0.012776486982802425],
    [-0.02972531557592146, -0.01734582370984233, 0.03436734648845339],
    [-0.02826680941687418, 0.03367429061924818, 0.023611255809904728],
    [0.042844934107314284, 0.0023045707290959834, -0.01344378564801543],
    [0.034894427377182596, 0.0023352888474747788, 0.03378798111067486],
    [-0.02792091525121782, -0.0059139372303536435, -0.03511470915925038],
    [0.015393622004679636, 0.03365711992335473, -0.03185463097446694],
    [-0.03224283133612355, -0.02269338128119531, -0.03604332054910708],
    [-0.028738688980045866, -0.024367117885963865, 0.03746103303401306],
    [0.04436090240799718, -0.015499766086873312, -0.019467667009323543],
    [-0.052355069435628114, -0.009499028916278712, -0.02289107491037763],
    [-0.021556458747353232, 0.05006407550802531, 0.00016881062640875015],
    [0.013669409673939687, 0.0350860029772149, 0.03231963222132032],
    [0.026815478430396, -0.02505662932873142, -0.038765781708513435],
    [0.018274985382372936, -0.03262628991248939, -0.034503341027720326],
    [0.011445107925287313, 0.030903145943003963, 0.0405832944831049],
    [0.04890265847626185, 0.014772134498105013, -0.011204295454837183],
    [-0.027278331292738503, 0.030703390937542787, -0.034649818021202566],
    [0.0322631051656461, 0.03629972131898623, -0.004453751775679404]])



def _cylinder_and_hull():
    """The Cylinder (A) and the 24-vertex Convex (B) above, as two anchored
    geometries."""
    return anchored_query(("cylinder", Cylinder(RADIUS_2, LENGTH_2), R_WC, p_WC),
                          ("hull", Convex(VERTICES_H.T.copy(), "hull"), R_WH, p_WH))


def test_hull_corner_inside_cylinder_side_is_certified_at_that_corner():
    """The hull's corner penetrates the Cylinder's side 6.7 mm deep. The coarse
    witness sits exactly on the corner, where an edge is also perpendicular
    to the normal; taken as the edge, the refinement slid 5e-7 m past the
    corner (outside the hull) and the answer stayed uncertified."""
    query_object, (cylinder, hull) = _cylinder_and_hull()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an uncertified answer warns
        result = query_object.ComputeSignedDistancePairClosestPoints(cylinder, hull)
    nhat = result.nhat_BA_W
    p_WCa = p_WC + R_WC @ result.p_ACa
    p_WCb = p_WH + R_WH @ result.p_BCb
    # Cb (on the hull, deepest in the Cylinder) is one of its corners and
    # its support point along +nhat (out of the hull into the Cylinder).
    V_W = p_WH + VERTICES_H @ R_WH.T
    corner = int(np.argmin(np.linalg.norm(V_W - p_WCb, axis=1)))
    np.testing.assert_allclose(p_WCb, V_W[corner], rtol=0, atol=1e-16)
    assert (V_W @ nhat).max() <= V_W[corner] @ nhat + 1e-16
    # Ca on the Cylinder's side, its outward normal there −nhat (⊥ the axis).
    assert abs(np.hypot(result.p_ACa[0], result.p_ACa[1]) - RADIUS_2) <= 1e-16
    assert abs(result.p_ACa[2]) < LENGTH_2 / 2
    radial = R_WC @ np.array([result.p_ACa[0], result.p_ACa[1], 0.0]) / RADIUS_2
    np.testing.assert_allclose(-nhat, radial, rtol=0, atol=1e-15)
    assert result.distance < -0.006
    assert abs(result.distance - (p_WCa - p_WCb) @ nhat) <= 1e-16
    # No direction separates the bodies with a shorter move: the overlap of
    # their extents along u is at least the depth for 20,000 directions.
    u = np.random.default_rng(0).normal(size=(20000, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    u_C = u @ R_WC  # u in the Cylinder's frame, row by row
    extent_C = (u @ p_WC + RADIUS_2 * np.hypot(u_C[:, 0], u_C[:, 1])
                + LENGTH_2 / 2 * np.abs(u_C[:, 2]))  # max over the Cylinder of u·x
    extent_H = (-u @ V_W.T).max(axis=1)  # max over the hull of −u·x
    assert (extent_C + extent_H).min() >= -result.distance - 1e-12
