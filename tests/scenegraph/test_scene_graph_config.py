"""pydrake 1.51's printed forms and defaults for scenegraph value types (each
expected value is what pydrake gives for the same call)."""
from scenegraph import (GeometryId, PenetrationAsPointPair, SceneGraphConfig,
                        SignedDistancePair, SignedDistanceToPoint)


def test_default_constructed_results_hold_default_ids():
    for ids in ((SignedDistancePair().id_A, SignedDistancePair().id_B),
                (PenetrationAsPointPair().id_A, PenetrationAsPointPair().id_B),
                (SignedDistanceToPoint().id_G,)):
        for geometry_id in ids:
            assert isinstance(geometry_id, GeometryId)
            assert not geometry_id.is_valid()
            assert geometry_id == GeometryId()
            assert repr(geometry_id) == "<GeometryId value=0>"
    assert PenetrationAsPointPair().depth == -1.0
    assert SignedDistancePair().distance == 0.0


def test_scene_graph_config_repr_is_pydrakes_while_extensions_are_default():
    assert repr(SceneGraphConfig()) == (
        "SceneGraphConfig(default_proximity_properties=DefaultProximityProperties("
        "compliance_type='undefined', hydroelastic_modulus=10000000.0, "
        "resolution_hint=0.02, slab_thickness=None, margin=None, dynamic_friction=0.5, "
        "static_friction=0.5, hunt_crossley_dissipation=50.0, relaxation_time=0.1, "
        "point_stiffness=1000000.0))")
    assert repr(SceneGraphConfig(broadphase="nxn")).endswith(
        ", broadphase='nxn', broadphase_pairs=None)")
