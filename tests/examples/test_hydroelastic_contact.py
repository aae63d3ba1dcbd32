"""examples/hydroelastic_contact.py runs and its contact surfaces carry the weights of the
bodies resting on them."""

import numpy as np
import pytest


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
