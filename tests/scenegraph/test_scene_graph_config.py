"""SceneGraphConfig prints as pydrake 1.51 prints it while the extensions keep their
defaults."""
from scenegraph import SceneGraphConfig


def test_scene_graph_config_repr_is_pydrakes_while_extensions_are_default():
    assert repr(SceneGraphConfig()) == (
        "SceneGraphConfig(default_proximity_properties=DefaultProximityProperties("
        "compliance_type='undefined', hydroelastic_modulus=10000000.0, "
        "resolution_hint=0.02, slab_thickness=None, margin=None, dynamic_friction=0.5, "
        "static_friction=0.5, hunt_crossley_dissipation=50.0, relaxation_time=0.1, "
        "point_stiffness=1000000.0))")
    assert repr(SceneGraphConfig(broadphase="nxn")).endswith(
        ", broadphase='nxn', broadphase_pairs=None)")
