"""examples/arm_avoidance.py: the arm reaches every target while its links
stay at least the margin away from every obstacle; without the clearance
rows the same targets drive a link into an obstacle; the controller's
joint-space rows J_q = dφ/dq predict the rate of each
pair's signed distance (central differences along q̇; the rows come from
the arm's MultibodyPlant, plant.calc_signed_distance_jacobians); with
Meshcat the closest-distance segments are drawn."""
from __future__ import annotations

import numpy as np

from examples import arm_avoidance as arm
from scenegraph.visualization import Meshcat
from systems.analysis import Simulator


def test_the_arm_keeps_its_margin_and_reaches_every_target(capsys):
    assert arm.main([]) == 0
    out = capsys.readouterr().out
    assert "minimum clearance" in out and "real-time rate" in out
    controller, monitor, _ = arm.run(len(arm.TARGETS) * arm.SEGMENT)
    assert monitor.min_clearance >= arm.MARGIN - 1e-3
    assert controller.num_constrained > 0 and controller.num_infeasible == 0
    assert len(monitor.errors) >= len(arm.TARGETS)
    assert max(monitor.errors.values()) < 5e-3


def test_without_the_clearance_rows_a_link_hits_an_obstacle(monkeypatch):
    # Only penetrating pairs get rows, and those allow a 10 m approach: loose.
    monkeypatch.setattr(arm, "INFLUENCE", 0.0)
    monkeypatch.setattr(arm, "MARGIN", -10.0)
    _, monitor, _ = arm.run(len(arm.TARGETS) * arm.SEGMENT)
    assert monitor.min_clearance < -0.02


def _plant_context_at(diagram, context, q):
    plant = diagram.GetSubsystemByName("plant")
    plant_context = plant.GetMyMutableContextFromRoot(context)
    plant.SetPositions(plant_context, np.asarray(q, dtype=float))
    return plant, plant_context


def test_joint_space_rows_predict_the_distance_rates():
    diagram, controller, _ = arm.build()
    context = diagram.CreateDefaultContext()
    rng = np.random.default_rng(0)
    q = arm.Q0 + rng.normal(0, 0.2, 4)
    qdot = rng.normal(size=4)
    plant, plant_context = _plant_context_at(diagram, context, q)
    rows = plant.calc_signed_distance_jacobians(plant_context)
    h = 1e-6
    checked = 0
    for k in range(len(rows)):
        J_q = rows.J_q[k]
        if not J_q.any():
            continue
        pair = (rows.id_A[k], rows.id_B[k])

        def phi(qq):
            plant, pc = _plant_context_at(diagram, context, qq)
            return plant.get_geometry_query_input_port().Eval(pc) \
                .ComputeSignedDistancePairClosestPoints(*pair).distance

        rate = (phi(q + h * qdot) - phi(q - h * qdot)) / (2 * h)
        assert abs(rate - J_q @ qdot) < 1e-6 * (1 + abs(J_q @ qdot))
        checked += 1
    assert checked >= 10


def test_distance_segments_are_drawn_in_meshcat():
    meshcat = Meshcat(port=0)
    try:
        diagram, _, _ = arm.build(meshcat)
        Simulator(diagram).AdvanceTo(0.2)
        assert meshcat.HasPath("/distances")
    finally:
        meshcat._server.stop()
