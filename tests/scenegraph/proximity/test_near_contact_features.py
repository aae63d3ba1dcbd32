"""Nearly touching pairs whose coarse direction leans off the true feature.

GJK's direction is only as good as its witnesses divided by the distance: two
bodies 1e-4 m apart get a direction ~1e-4 rad off, enough to make a
Cylinder's side look like its rim to the angle test of the feature choice.
The refinement must still certify the exact answer (here: a Box's corner
against a Cylinder's side, from the mixed bench scene N = 1000, pose 54,
which came out uncertified and 7e-6 m short).
"""
from __future__ import annotations

import warnings

import numpy as np

from scenegraph import Box, Cylinder, GeometryInstance, ProximityProperties, SceneGraph
from scenegraph.math import RigidTransform, RotationMatrix

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
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("near_contact")
    ids = []
    for name, shape, R, p in (("box", Box(*BOX_SIZE), R_WA, p_WA),
                              ("cylinder", Cylinder(RADIUS, LENGTH), R_WB, p_WB)):
        instance = GeometryInstance(RigidTransform(RotationMatrix(R), p), shape, name)
        gid = scene_graph.RegisterAnchoredGeometry(source, instance)
        scene_graph.AssignRole(source, gid, ProximityProperties())
        ids.append(gid)
    context = scene_graph.CreateDefaultContext()
    return scene_graph.get_query_output_port().Eval(context), ids


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
