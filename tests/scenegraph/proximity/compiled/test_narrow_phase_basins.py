"""A penetration has several local optima (basins) when two bodies overlap
from several sides; the answer must be the shallowest. EPA, stopped once its
bounds agree to 1e-4 of the pair's size, cannot tell apart two basins closer
than that, and the refinement certifies whichever it is given: here a
Cylinder and a Convex with a basin 1.2e-6 m deeper than the global one, 0.45
rad away. The narrow phase therefore also refines from EPA's faces that are
nearer than the answer and face elsewhere.
"""
from __future__ import annotations

import warnings

import numpy as np
from scipy.optimize import minimize

from scenegraph import Convex, Cylinder

from tests.scenegraph.proximity.anchored_scene import anchored_query

RADIUS, LENGTH = 0.03828760880287964, 0.09575606514558746
R_WC = np.array([
    [0.6997456081272956, 0.32229798005562016, 0.6375579157681497],
    [0.631540179545696, -0.6962442485127851, -0.34117583154768966],
    [0.33393575059575586, 0.6413797303196705, -0.6907379792722519]])
p_WC = np.array([-0.9001726662171115, -0.2998502919119069, -0.9000970334403944])
R_WH = np.array([
    [0.43295558005226387, 0.7089193855856255, 0.5567609634686206],
    [0.25046064474015184, -0.6879396163807897, 0.6811817302674802],
    [0.865920857317777, -0.1554747212724629, -0.4754037020336445]])
p_WH = np.array([-0.8516137362043464, -0.38235701058419036, -0.8496404243559844])
VERTICES_H = np.array([
    [0.06669158299966475, 0.014931608885236439, -0.02139430036239032],
    [-0.008595729400587553, 0.06380232684100086, 0.020369543208235284],
    [-0.01882635113958683, 0.0577704605928208, -0.049876810678692186],
    [0.02368723961760874, 0.06827371394933394, 0.016356773810397175],
    [-0.02038785805768203, 0.051340122087872, -0.026540731745537345],
    [0.05629107482991551, 0.031113371972394777, -0.027137334537574213],
    [0.03581459717421967, 0.025718826915273763, 0.04715654670447674],
    [-0.04749289571915534, -0.028497687036118474, 0.05551270517095556],
    [0.03518126398241578, 0.03746624098844791, 0.03506112644099456],
    [-0.030312752774820782, 0.058125114265540394, -0.009907786848800438],
    [-0.0374329713275823, -0.023454256836246676, -0.05516444838738852],
    [0.008741448328496102, 0.06574880462707183, -0.021457523635067675],
    [0.046160349116901846, -0.05251221964667525, 0.005215870313857891],
    [-0.006338045852694841, 0.03350926954668751, 0.056600610791450574],
    [-0.04631023579858144, -0.0058921484325716806, -0.043051412333404655],
    [0.006971794470710551, -0.04748409751621246, 0.0384831287304665],
    [0.016861639548615876, -0.05625468360003723, 0.02307087073523571],
    [0.06688341836291396, 0.023843776318298253, 0.01624854855388459],
    [-0.06844500913878428, 0.0023495632591116196, 0.01402711602552454],
    [0.04195603078506939, -0.06002726153130316, 0.01930794897609531],
    [-0.014789177593089467, 0.01840395288015293, 0.06843929490025055],
    [0.03586045443150488, -0.06721622821629683, -0.0031348167980832396],
    [-0.03975441790979901, 0.01690175703254751, 0.062045836231090896],
    [-0.005480401442868495, -0.06869312010093902, -0.012041158000482747]])



def _overlap(u: np.ndarray) -> np.ndarray:
    """How far the Cylinder must move along −u (rows of unit u, (K, 3)) to
    clear the hull: max over the hull of u·x minus min over the Cylinder."""
    V_W = p_WH + VERTICES_H @ R_WH.T
    u_C = u @ R_WC
    return ((u @ V_W.T).max(axis=1) - u @ p_WC + RADIUS * np.hypot(u_C[:, 0], u_C[:, 1])
            + LENGTH / 2 * np.abs(u_C[:, 2]))


def _local_minima(starts: int = 8) -> list:
    """Local minima of the overlap over the unit sphere (Nelder–Mead from
    the best of 20,000 random directions, distinct starts)."""
    u = np.random.default_rng(0).normal(size=(20000, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    values = _overlap(u)
    minima, used = [], []
    for i in np.argsort(values):
        if any(u[i] @ v > 0.99 for v in used):
            continue
        used.append(u[i])
        res = minimize(lambda x: _overlap((x / np.linalg.norm(x))[None])[0], u[i],
                       method="Nelder-Mead",
                       options={"xatol": 1e-10, "fatol": 1e-17, "maxiter": 4000})
        minima.append(res.fun)
        if len(used) == starts:
            break
    return minima


def test_penetration_is_the_shallowest_basin():
    query_object, ids = anchored_query(
        ("cylinder", Cylinder(RADIUS, LENGTH), R_WC, p_WC),
        ("hull", Convex(VERTICES_H.T.copy(), "hull"), R_WH, p_WH))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an uncertified answer warns
        result = query_object.ComputeSignedDistancePairClosestPoints(*ids)
    minima = _local_minima()
    # Two basins: 8.1609e-3 m (global) and 8.1621e-3 m (reported before).
    assert max(minima) - min(minima) > 1e-6
    assert abs(-result.distance - min(minima)) <= 1e-12


# Two copies of one needle-like hull (from the long fuzz), 3e-13 m apart.
NEEDLE = np.array([
    [-0.0019324150489879147, 0.028255385822573715, 14.100738952911893],
    [-0.029476781843342674, -0.02953648815562617, 10.235572850039334],
    [-0.030807094294522004, 0.0070813191833595055, 10.427544447641585],
    [-0.05143738353957815, 0.010605707597868467, -0.9973810648306294],
    [-0.02584277916372109, -0.003024821420532059, -16.173538587623156],
    [-0.061393340986513625, -0.04708163697853812, -2.686407784969318],
    [0.03518025685568352, -0.03777910964689306, 11.641839677679673],
    [-0.005382634794170147, -0.0036296287263756534, 13.992590697498775],
    [0.05235500420785041, 0.09251830618526642, 6.527071543660496],
    [0.03383190110166925, -0.048885476544546044, 4.077921819716359],
    [0.008527716022359152, -0.03470408497399878, -12.150374361600045]])
R_WN = np.array([
    [-0.09058419759562275, -0.9358835142708224, 0.3404651977251894],
    [0.1695063015948381, -0.3513712872000747, -0.9207637222713557],
    [0.9813572829839279, -0.0256956464689575, 0.19046683933678699]])
p_WN1 = np.array([-9.865419873738563, -9.321172445421784, 8.044231532406027])
p_WN2 = np.array([-9.86541987373824, -9.321172445421784, 8.044231532406023])


def _min_width(V: np.ndarray) -> float:
    """The hull's minimum width, min over u of max u·v − min u·v: attained
    along a facet normal or the normal of two edges (numpy, scipy's hull)."""
    from scipy.spatial import ConvexHull
    hull = ConvexHull(V)
    normals = [n for n in hull.equations[:, :3]]
    edges = {tuple(sorted((s[i], s[(i + 1) % 3]))) for s in hull.simplices for i in range(3)}
    D = np.array([V[b] - V[a] for a, b in edges])
    for i in range(len(D)):
        for j in range(i + 1, len(D)):
            n = np.cross(D[i], D[j])
            if np.linalg.norm(n) > 1e-12:
                normals.append(n / np.linalg.norm(n))
    N = np.array(normals)
    return float(((V @ N.T).max(axis=0) - (V @ N.T).min(axis=0)).min())


def _needles(reverse: bool):
    """φ of the two needles, registered in the given or the reverse order."""
    one = ("one", Convex(NEEDLE.T.copy(), "one"), R_WN, p_WN1)
    two = ("two", Convex(NEEDLE.T.copy(), "two"), R_WN, p_WN2)
    query_object, ids = anchored_query(*((two, one) if reverse else (one, two)))
    first, second = (ids[1], ids[0]) if reverse else (ids[0], ids[1])
    return query_object.ComputeSignedDistancePairClosestPoints(first, second).distance


def test_coincident_copies_penetrate_by_the_minimum_width_in_either_order():
    """Coincident copies make C = A − B centrally symmetric: GJK ended on a
    segment through the origin, EPA could not start, and the depth came
    from the near-contact fallback: 0.0946 m one way, 0.0835 m the other."""
    width = _min_width(NEEDLE)
    for reverse in (False, True):
        assert abs(-_needles(reverse) - width) <= 1e-12 * 16
