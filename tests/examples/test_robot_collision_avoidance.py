"""examples/robot_collision_avoidance.py: the Panda reaches every target
while keeping its margin from the obstacles and (against its own column)
from itself, with no infeasible step; without the distance rows the same
targets drive a link into the pillar; the command prints its summary and
the real-time factor; Meshcat receives the robot and the targets."""
from __future__ import annotations

import pytest

from examples import robot_collision_avoidance as example
from scenegraph.visualization import Meshcat


@pytest.fixture(scope="module")
def recorded():
    """One recorded run of every target: (controller, meshcat paths)."""
    meshcat = Meshcat(port=0)
    try:
        controller, _ = example.run(len(example.TARGETS) * example.SEGMENT, meshcat)
        paths = {path: meshcat.HasPath(path) for path in ("/targets/0", "/drake/visualizer")}
    finally:
        meshcat._server.stop()
    return controller, paths


def test_every_target_is_reached_with_the_margins_kept(recorded):
    controller, paths = recorded
    assert controller.min_world >= example.MARGIN - 1e-3
    assert controller.min_self >= example.SELF_MARGIN - 1e-3
    # The distance rows were active: both margins were reached.
    assert controller.min_world < example.MARGIN + 2e-3
    assert controller.min_self < example.SELF_MARGIN + 2e-3
    assert controller.num_constrained > 0 and controller.num_infeasible == 0
    assert sorted(controller.errors) == list(range(len(example.TARGETS)))
    assert max(controller.errors.values()) < 3e-3
    assert paths["/targets/0"] and paths["/drake/visualizer"]


def test_without_the_distance_rows_a_link_hits_the_pillar(monkeypatch):
    # Only penetrating pairs get rows, and those allow a 10 m approach: loose.
    monkeypatch.setattr(example, "INFLUENCE", 0.0)
    monkeypatch.setattr(example, "MARGIN", -10.0)
    monkeypatch.setattr(example, "SELF_MARGIN", -10.0)
    controller, _ = example.run(2 * example.SEGMENT)
    assert controller.min_world < -0.02


def test_the_command_prints_its_summary(monkeypatch, capsys):
    meshcat = Meshcat(port=0)
    monkeypatch.setattr(example, "StartMeshcat", lambda: meshcat)
    try:
        assert example.main(["--no-wait", "--duration", "0.2"]) == 0
    finally:
        meshcat._server.stop()
    out = capsys.readouterr().out
    assert "real-time factor" in out and "minimum clearance: robot-obstacle" in out
    assert "target 0:" in out
