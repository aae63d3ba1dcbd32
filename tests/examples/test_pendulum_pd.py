"""examples/pendulum_pd.py runs and its pendulum settles where gravity balances the PD
controller."""

import numpy as np

from examples import pendulum_pd


def test_pendulum_demo_settles_where_gravity_balances_the_controller(capsys):
    assert pendulum_pd.main([]) == 0
    theta = float(capsys.readouterr().out.split("settled at theta = ")[1].split(" rad")[0])
    # Kp (pi/2 - theta) = m g l sin(theta)
    assert abs(20.0 * (np.pi / 2 - theta) - 9.81 * 0.5 * np.sin(theta)) < 1e-5
