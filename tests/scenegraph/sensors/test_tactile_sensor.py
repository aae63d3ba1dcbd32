"""TactileSensor (extension): a sensing sphere pressed into a box.

Closed forms: point contact with stiffnesses k_A, k_B gives the normal
force k_A·k_B/(k_A + k_B)·depth along the box normal; hydroelastic contact
gives Σ p·A·n̂ of the contact surface (ContactSurface.calc_force_W). Both
response functions conserve the total force (to rounding); 'nearest' puts
it on the sensor closest to the contact point, 'spread_linear' on the
sensors within the radius with weights 1 − d/r. Frame outputs are checked
against rotations; merged frames drop points inside a sibling geometry;
Hunt–Crossley damping follows the frame velocities given; the output
depends on its inputs only; bad input is refused by value.
"""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph import (Capsule, GeometryFrame, GeometryInstance, GeometrySet,
                        ProximityProperties, Sphere)
from scenegraph.math import RigidTransform
from scenegraph.sensors import TactileSensor
from tests.scenegraph.sensors.tactile_scene import (_pressed, K_BOX, K_SPHERE, R, SCALE,
                                                    Scene)

K_EFF = K_SPHERE * K_BOX / (K_SPHERE + K_BOX)


@pytest.mark.parametrize("response", ["nearest", "spread_linear"])
def test_point_contact_normal_force_is_k_times_depth(response):
    scene = Scene(touch_function="normal_force", response_function=response)
    _pressed(scene, 0.002)
    T = scene.touch()
    assert T.shape == (scene.sensor.num_sensors(), 1)
    assert T.sum() == pytest.approx(K_EFF * 0.002, rel=1e-12)
    active = np.count_nonzero(T)
    assert active == 1 if response == "nearest" else active > 3


def test_nearest_sensor_receives_the_force():
    scene = Scene(touch_function="normal_force")
    X_WF = _pressed(scene, 0.001)
    T = scene.touch()[:, 0]
    pair, = scene.query().ComputePointPairPenetration()
    p_WC = 0.5 * (pair.p_WCa + pair.p_WCb)
    p_WS = scene.sensor.CalcSensorPositionsInWorld(scene.query())
    assert np.argmax(T) == np.argmin(np.linalg.norm(p_WS - p_WC, axis=1))
    # CalcSensorPositionsInWorld is X_WG·p_GS.
    X_WG = X_WF @ scene.X_FG
    p_GS = scene.sensor.sensor_positions(scene.ball)
    np.testing.assert_allclose(p_WS, p_GS @ X_WG.rotation().matrix().T + X_WG.translation(),
                               atol=1e-15)


def test_spread_linear_weights_fall_linearly_with_distance():
    radius = 3 * SCALE
    scene = Scene(touch_function="normal_force", response_function="spread_linear",
                  response_radius=radius)
    _pressed(scene, 0.001)
    T = scene.touch()[:, 0]
    pair, = scene.query().ComputePointPairPenetration()
    p_WC = 0.5 * (pair.p_WCa + pair.p_WCb)
    d = np.linalg.norm(scene.sensor.CalcSensorPositionsInWorld(scene.query()) - p_WC, axis=1)
    w = np.maximum(1 - d / radius, 0)
    np.testing.assert_allclose(T, K_EFF * 0.001 * w / w.sum(), rtol=1e-12, atol=1e-18)


def test_force_vectors_in_world_and_geometry_frames():
    scene = Scene(touch_function="force_vector_global")
    X_WF = _pressed(scene, 0.0015)
    f_W = scene.touch().sum(axis=0)
    np.testing.assert_allclose(f_W, [0, 0, K_EFF * 0.0015], rtol=1e-12, atol=1e-12)
    scene_g = Scene(touch_function="force_vector", response_function="spread_linear")
    _pressed(scene_g, 0.0015)
    f_G = scene_g.touch().sum(axis=0)
    R_WG = (X_WF @ scene.X_FG).rotation().matrix()
    np.testing.assert_allclose(f_G, R_WG.T @ f_W, rtol=1e-12, atol=1e-12)


def test_normal_is_the_unit_contact_normal_in_the_sensing_frame():
    scene = Scene(touch_function="normal")
    X_WF = _pressed(scene, 0.001)
    T = scene.touch()
    active = np.flatnonzero(np.linalg.norm(T, axis=1))
    assert len(active) == 1
    R_WG = (X_WF @ scene.X_FG).rotation().matrix()
    np.testing.assert_allclose(T[active[0]], R_WG.T @ [0, 0, 1], atol=1e-12)


def test_no_contact_reads_zero():
    scene = Scene(touch_function="force_vector_global")
    scene.set_pose(RigidTransform([0, 0, R + 0.01]))
    assert not scene.touch().any()


@pytest.mark.parametrize("response", ["nearest", "spread_linear"])
def test_hydroelastic_force_is_the_integrated_pressure(response):
    scene = Scene(hydro=True, touch_function="force_vector_global", response_function=response,
                  contact_model="hydroelastic")
    _pressed(scene, 0.003)
    surface, = scene.query().ComputeContactSurfaces()
    expected = surface.calc_force_W()
    if surface.id_M() != scene.ball:
        expected = -expected
    assert surface.num_faces() > 20
    assert expected[2] > 0
    T = scene.touch()
    np.testing.assert_allclose(T.sum(axis=0), expected, rtol=1e-12, atol=1e-12 * expected[2])
    if response == "spread_linear":
        assert np.count_nonzero(T[:, 2]) > 10


def test_merged_frame_drops_points_inside_sibling_geometries():
    def add_capsule(scene):
        scene.capsule = scene.sg.RegisterGeometry(scene.source, scene.frame, GeometryInstance(
            RigidTransform([0.0, 0.0, 0.04]), Capsule(0.01, 0.05), "phalanx"))
        scene.sg.AssignRole(scene.source, scene.capsule, ProximityProperties())

    scene = Scene(bodies="frame", extra=add_capsule)
    assert scene.sensor.bodies() == [scene.frame]
    p_FS = scene.sensor.sensor_positions(scene.frame)
    # No point strictly inside the sphere or the capsule (closed forms in F).
    in_sphere = np.linalg.norm(p_FS, axis=1) < R - 1e-9
    axis = np.column_stack([np.zeros(len(p_FS)), np.zeros(len(p_FS)),
                            np.clip(p_FS[:, 2], 0.04 - 0.025, 0.04 + 0.025)])
    in_capsule = np.linalg.norm(p_FS - axis, axis=1) < 0.01 - 1e-9
    assert not (in_sphere | in_capsule).any()
    # Some were dropped: fewer than the two skins together.
    alone = Scene(bodies="geometry").sensor.num_sensors()
    assert scene.sensor.num_sensors() < alone + len(
        TactileSensor(scene.sg, scene.capsule, SCALE).sensor_positions(scene.capsule))
    # Contacts on the merged body still conserve force.
    _pressed(scene, 0.002, yaw=0.0)
    assert scene.touch().sum() == pytest.approx(K_EFF * 0.002, rel=1e-12)


def test_geometry_set_and_list_forms_agree():
    scene = Scene()
    a = TactileSensor(scene.sg, GeometrySet(scene.ball), SCALE)
    b = TactileSensor(scene.sg, [scene.ball], SCALE)
    assert a.bodies() == b.bodies() == [scene.ball]
    np.testing.assert_array_equal(a.sensor_positions(scene.ball), b.sensor_positions(scene.ball))


def test_split_and_per_body_port_match_the_vector():
    scene = Scene(touch_function="force_vector_global")
    _pressed(scene, 0.001)
    per_body = scene.sensor.get_touch_per_body_output_port().Eval(scene.sensor_context)
    np.testing.assert_array_equal(per_body[scene.ball], scene.touch())
    split = scene.sensor.split(scene.touch().reshape(-1))
    np.testing.assert_array_equal(split[scene.ball], scene.touch())


def test_output_depends_on_its_inputs_only():
    scene = Scene()
    _pressed(scene, 0.001)
    port = scene.sensor.get_touch_per_body_output_port()
    first = port.Eval(scene.sensor_context)
    scene.context.SetTime(1.0)
    assert port.Eval(scene.sensor_context) is first         # not recomputed
    _pressed(scene, 0.002)
    again = port.Eval(scene.sensor_context)
    assert again is not first
    assert again[scene.ball].sum() == pytest.approx(K_EFF * 0.002, rel=1e-12)


def test_bad_configurations_are_refused_by_value():
    scene = Scene()
    with pytest.raises(ValueError, match="'shear'"):
        TactileSensor(scene.sg, scene.ball, SCALE, touch_function="shear")
    with pytest.raises(ValueError, match="'gaussian'"):
        TactileSensor(scene.sg, scene.ball, SCALE, response_function="gaussian")
    with pytest.raises(ValueError, match="'soft'"):
        TactileSensor(scene.sg, scene.ball, SCALE, contact_model="soft")
    with pytest.raises(ValueError, match="-0.01"):
        TactileSensor(scene.sg, scene.ball, -0.01)
    with pytest.raises(ValueError, match="0.0"):
        TactileSensor(scene.sg, scene.ball, SCALE, response_radius=0.0)
    with pytest.raises(TypeError, match="'ball'"):
        TactileSensor(scene.sg, ["ball"], SCALE)
    with pytest.raises(ValueError, match="no sensing bodies"):
        TactileSensor(scene.sg, [], SCALE)


def test_hydroelastic_model_falls_back_to_point_contact_without_hydro_properties():
    scene = Scene(hydro=False, contact_model="hydroelastic")
    _pressed(scene, 0.002)
    assert scene.touch().sum() == pytest.approx(K_EFF * 0.002, rel=1e-12)


def test_merged_frame_force_vector_is_in_the_frame():
    def add_capsule(scene):
        gid = scene.sg.RegisterGeometry(scene.source, scene.frame, GeometryInstance(
            RigidTransform([0.0, 0.0, 0.04]), Capsule(0.01, 0.05), "phalanx"))
        scene.sg.AssignRole(scene.source, gid, ProximityProperties())

    scene = Scene(bodies="frame", extra=add_capsule, touch_function="force_vector",
                  response_function="spread_linear")
    X_WF = _pressed(scene, 0.002, yaw=0.9)
    f_F = scene.touch().sum(axis=0)
    R_WF = X_WF.rotation().matrix()
    np.testing.assert_allclose(f_F, R_WF.T @ [0, 0, K_EFF * 0.002], rtol=1e-12, atol=1e-12)


def test_spread_linear_with_no_sensor_in_reach_falls_back_to_nearest():
    scene = Scene(touch_function="normal_force", response_function="spread_linear",
                  response_radius=1e-6)
    _pressed(scene, 0.001)
    T = scene.touch()[:, 0]
    assert np.count_nonzero(T) == 1
    assert T.sum() == pytest.approx(K_EFF * 0.001, rel=1e-12)


def test_unknown_ids_and_geometry_without_proximity_are_refused_by_id():
    from scenegraph import IllustrationProperties
    from scenegraph.identifiers import GeometryId
    scene = Scene()
    unknown = GeometryId.get_new_id()
    with pytest.raises(RuntimeError, match=str(unknown.get_value())):
        TactileSensor(scene.sg, unknown, SCALE)
    visual = scene.sg.RegisterGeometry(scene.source, scene.frame, GeometryInstance(
        RigidTransform(), Sphere(0.01), "visual"))
    scene.sg.AssignRole(scene.source, visual, IllustrationProperties())
    with pytest.raises(RuntimeError, match=f"{visual}.*no proximity role"):
        TactileSensor(scene.sg, visual, SCALE)
    empty = scene.sg.RegisterFrame(scene.source, GeometryFrame("empty"))
    with pytest.raises(ValueError, match=f"frame {empty} has no proximity geometry"):
        TactileSensor(scene.sg, empty, SCALE)


D_BOX, D_SPHERE = 2.0, 5.0       # s/m
D_EFF = (K_SPHERE * D_BOX + K_BOX * D_SPHERE) / (K_BOX + K_SPHERE)   # Drake's combination


def test_hunt_crossley_factor_with_frame_velocities():
    scene = Scene(touch_function="normal_force", dissipation=(D_BOX, D_SPHERE))
    _pressed(scene, 0.002)
    port = scene.sensor.get_frame_velocities_input_port()
    # Approaching at 0.1 m/s (spinning about a horizontal axis adds no normal speed).
    port.FixValue(scene.sensor_context, {scene.frame: [0.3, 0.2, 0.0, 0.0, 0.0, -0.1]})
    assert scene.touch().sum() == pytest.approx(K_EFF * 0.002 * (1 + D_EFF * 0.1), rel=1e-9)
    # Separating faster than 1/d: no force at all (Drake keeps fn ≥ 0).
    port.FixValue(scene.sensor_context, {scene.frame: [0, 0, 0, 0, 0, 1.0]})
    assert not scene.touch().any()
    # A frame not listed is at rest: the elastic force.
    port.FixValue(scene.sensor_context, {})
    assert scene.touch().sum() == pytest.approx(K_EFF * 0.002, rel=1e-12)


def test_bad_frame_velocities_are_refused_by_frame():
    scene = Scene(dissipation=(D_BOX, D_SPHERE))
    _pressed(scene, 0.002)
    port = scene.sensor.get_frame_velocities_input_port()
    port.FixValue(scene.sensor_context, {scene.frame: [0.0, 0.0, -0.1]})
    with pytest.raises(ValueError, match=f"frame_velocities\\[{scene.frame}\\]"):
        scene.touch()
