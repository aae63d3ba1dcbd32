"""examples/collision_avoidance.py runs: the robot reaches its goal without touching an
obstacle, detouring around the box."""
import numpy as np

from examples import collision_avoidance


def test_collision_avoidance_reaches_the_goal_without_touching_an_obstacle(capsys):
    assert collision_avoidance.main([]) == 0
    out = capsys.readouterr().out
    clearance_mm = float(out.split("minimum clearance: ")[1].split(" mm")[0])
    assert clearance_mm > 0.0


def test_collision_avoidance_robot_actually_detours_around_the_box():
    diagram, robot, monitor = collision_avoidance.build()
    from systems.analysis import Simulator
    simulator = Simulator(diagram)
    ys = []
    for t in np.linspace(0.0, 3.0, 31):
        simulator.AdvanceTo(t)
        ys.append(robot.GetOutputPort("position").Eval(
            diagram.GetSubsystemContext(robot, simulator.get_context()))[1])
    # The straight line from start to goal (y ≈ 0) crosses the box, which spans
    # y in [-0.2, 0.2]: the robot must leave that band while passing it.
    assert max(abs(y) for y in ys) > 0.2 + collision_avoidance.ROBOT_RADIUS
