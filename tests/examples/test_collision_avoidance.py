"""The examples run and reach their stated outcomes."""
import numpy as np
import pytest

from examples import collision_avoidance, pendulum_pd


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


def test_pendulum_demo_settles_where_gravity_balances_the_controller(capsys):
    assert pendulum_pd.main([]) == 0
    theta = float(capsys.readouterr().out.split("settled at theta = ")[1].split(" rad")[0])
    # Kp (pi/2 - theta) = m g l sin(theta)
    assert abs(20.0 * (np.pi / 2 - theta) - 9.81 * 0.5 * np.sin(theta)) < 1e-5


def test_hydroelastic_example_surfaces_carry_the_weights():
    from examples import hydroelastic_contact as example
    scene = example.Scene()
    ball_weight = example.Scene.BALL_MASS * example.G
    box_weight = example.Scene.BOX_MASS * example.G
    scene.place(example.equilibrium_depth(scene, "ball", ball_weight),
                example.equilibrium_depth(scene, "box", box_weight))
    surfaces = scene.surfaces()
    assert set(surfaces) == {("rigid_slab", "ball"), ("compliant_slab", "box")}
    ball = example.force_on_M(surfaces[("rigid_slab", "ball")])
    box = example.force_on_M(surfaces[("compliant_slab", "box")])
    # N (the body) pushes M (the slab) down with the body's weight.
    np.testing.assert_allclose(ball, [0.0, 0.0, -ball_weight], atol=1e-6)
    np.testing.assert_allclose(box, [0.0, 0.0, -box_weight], atol=1e-6)
    # The box's contact surface is its whole 10 cm x 10 cm bottom face.
    assert surfaces[("compliant_slab", "box")].total_area() == pytest.approx(0.01, rel=1e-3)
