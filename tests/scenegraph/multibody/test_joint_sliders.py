"""JointSliders (pydrake.multibody.meshcat's): pydrake 1.51.1's slider names, ranges,
values and errors on the same model (recorded below from /work/drake-venv), an
output port read afresh at every evaluation, Run() publishing until the stop button,
and the plant's q following the sliders through ``commanded_positions``."""
import time

import numpy as np
import pytest

from scenegraph import Box, MakePhongIllustrationProperties
from scenegraph.multibody import AddMultibodyPlantSceneGraph, JointSliders, Parser
from scenegraph.visualization import Meshcat, MeshcatVisualizer
from systems.analysis import Simulator
from systems.framework import DiagramBuilder
from tests.scenegraph.visualization.scene_reader import fold, read_scene
from tests.scenegraph.visualization.ws_client import WsClient

URDF = """<robot name="arm">
  <link name="base"/>
  <link name="upper"><inertial><mass value="1"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0 0 0.2"/><geometry><box size="0.05 0.05 0.4"/></geometry></visual></link>
  <link name="lower"><inertial><mass value="1"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="elbow" type="continuous"><parent link="upper"/><child link="lower"/>
    <origin xyz="0 0 0.4"/><axis xyz="0 1 0"/></joint>
</robot>"""

# pydrake 1.51.1 on two copies of URDF (the second in model instance "two::arm"):
# GetSliderNames() and the values after SetPositions(0.3 * arange(18)).
PYDRAKE_NAMES = [
    "base_qw/arm", "base_qw/two::arm", "base_qx/arm", "base_qx/two::arm", "base_qy/arm",
    "base_qy/two::arm", "base_qz/arm", "base_qz/two::arm", "base_x/arm", "base_x/two::arm",
    "base_y/arm", "base_y/two::arm", "base_z/arm", "base_z/two::arm", "elbow/arm",
    "elbow/two::arm", "shoulder/arm", "shoulder/two::arm"]
PYDRAKE_SET = {"base_qw/arm": 0.0, "base_qw/two::arm": 2.7, "base_qx/arm": 0.3,
               "base_qx/two::arm": 3.0, "base_qy/arm": 0.6, "base_qy/two::arm": 3.3,
               "base_qz/arm": 0.9, "base_qz/two::arm": 3.6, "base_x/arm": 1.2,
               "base_x/two::arm": 3.9, "base_y/arm": 1.5, "base_y/two::arm": 4.2,
               "base_z/arm": 1.8, "base_z/two::arm": 4.5, "elbow/arm": 2.4,
               "elbow/two::arm": 5.1, "shoulder/arm": 2.0, "shoulder/two::arm": 2.0}


@pytest.fixture
def meshcat():
    m = Meshcat(port=0)
    yield m
    m._server.stop()


def _two_arms(time_step=0.0):
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
    Parser(plant).AddModelsFromString(URDF, "urdf")
    Parser(plant, "two").AddModelsFromString(URDF, "urdf")
    plant.Finalize()
    return builder, plant, scene_graph


def _welded_arm(time_step=0.0):
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
    Parser(plant).AddModelsFromString(URDF.replace(
        '<link name="base"/>', '<link name="base"/><joint name="weld" type="fixed">'
        '<parent link="world"/><child link="base"/></joint>'), "urdf")
    plant.Finalize()
    return builder, plant, scene_graph


def _slider(meshcat, name):
    return meshcat._server.controls[name]


def test_names_ranges_and_values_match_pydrake(meshcat):
    builder, plant, _ = _two_arms()
    sliders = JointSliders(meshcat, plant)
    assert meshcat.GetSliderNames() == PYDRAKE_NAMES      # model instance added: duplicates
    assert [meshcat.GetSliderValue(n) for n in PYDRAKE_NAMES] == [
        1.0, 1.0] + [0.0] * 16
    shoulder, elbow, qw = (_slider(meshcat, n) for n in ("shoulder/arm", "elbow/arm",
                                                          "base_qw/arm"))
    assert (shoulder.min, shoulder.max, shoulder.step) == (-2.0, 2.0, 0.01)
    assert (elbow.min, elbow.max) == (-10.0, 10.0) and (qw.min, qw.max) == (-10.0, 10.0)
    port = sliders.get_output_port()
    assert (port.get_name(), port.size(), sliders.num_input_ports()) == ("positions", 18, 0)
    sliders.SetPositions(0.3 * np.arange(18))
    for name, value in PYDRAKE_SET.items():
        assert meshcat.GetSliderValue(name) == pytest.approx(value, abs=1e-12), name


def test_plain_names_limits_steps_and_keycodes(meshcat):
    _, plant, _ = _welded_arm()
    sliders = JointSliders(meshcat, plant, initial_value=[0.5, -1.0], lower_limit=-1.5,
                 upper_limit=[1.0, 3.0], step=[0.5, 0.25], decrement_keycodes=["KeyA", "KeyS"],
                 increment_keycodes=["KeyQ", "KeyW"])
    assert meshcat.GetSliderNames() == ["elbow", "shoulder"]
    shoulder, elbow = _slider(meshcat, "shoulder"), _slider(meshcat, "elbow")
    assert (shoulder.min, shoulder.max, shoulder.step, shoulder.value) == (-1.5, 1.0, 0.5, 0.5)
    assert (elbow.min, elbow.max, elbow.step, elbow.value) == (-1.5, 3.0, 0.25, -1.0)
    assert shoulder.keycodes == ("KeyA", "KeyQ") and elbow.keycodes == ("KeyS", "KeyW")
    del sliders       # as pydrake's (its C++ destructor): the sliders go with the system
    assert meshcat.GetSliderNames() == []


@pytest.mark.parametrize("kwargs, message", [
    ({"initial_value": [1.0]}, "Expected initial_value of size 2, but got size 1 instead"),
    ({"lower_limit": [1.0, 2.0, 3.0]}, "Expected lower_limit of size 2, but got size 3"),
    ({"upper_limit": [1.0]}, "Expected upper_limit of size 2, but got size 1 instead"),
    ({"step": np.ones(3)}, "Expected step of size 2, but got size 3 instead"),
    ({"decrement_keycodes": ["KeyA"]},
     "Expected decrement_keycodes of size zero or 2, but got size 1 instead"),
])
def test_wrong_sizes_are_refused_as_pydrake_does(meshcat, kwargs, message):
    _, plant, _ = _welded_arm()
    with pytest.raises(RuntimeError, match=message):
        JointSliders(meshcat, plant, **kwargs)
    assert meshcat.GetSliderNames() == []


def test_the_output_follows_the_browser_without_a_context_change(meshcat):
    _, plant, _ = _welded_arm()
    sliders = JointSliders(meshcat, plant)
    context = sliders.CreateDefaultContext()
    port = sliders.get_output_port()
    assert list(port.Eval(context)) == [0.0, 0.0]
    with WsClient(meshcat.ws_url()) as browser:
        browser.messages(idle=0.05)
        browser.send({"type": "slider", "name": "shoulder", "value": 0.73})
        deadline = time.monotonic() + 5
        while meshcat.GetSliderValue("shoulder") != 0.73 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert list(port.Eval(context)) == [0.73, 0.0]     # no stale cached value


def test_delete_removes_the_sliders_and_the_output_keeps_the_nominal_values(meshcat):
    _, plant, _ = _welded_arm()
    other = meshcat.AddSlider("mine", 0, 1, 0.1, 0.5)
    sliders = JointSliders(meshcat, plant)
    sliders.SetPositions([5.0, 0.25])                   # shoulder's slider clamps to 2
    context = sliders.CreateDefaultContext()
    assert list(sliders.get_output_port().Eval(context)) == [2.0, 0.25]
    sliders.Delete()
    sliders.Delete()                                    # once only
    assert meshcat.GetSliderNames() == ["mine"] and other == 0.5
    assert list(sliders.get_output_port().Eval(context)) == [5.0, 0.25]
    with pytest.raises(RuntimeError, match="Expected q of size 2, but got size 3"):
        sliders.SetPositions([0.0, 0.0, 0.0])


def test_sliders_are_deleted_when_the_system_is_collected(meshcat):
    import gc
    _, plant, _ = _welded_arm()
    JointSliders(meshcat, plant)
    gc.collect()
    assert meshcat.GetSliderNames() == []
    again = JointSliders(meshcat, plant)                 # the names are free again
    assert meshcat.GetSliderNames() == ["elbow", "shoulder"] and again is not None


def test_run_publishes_slider_moves_until_the_stop_button(meshcat):
    builder, plant, scene_graph = _welded_arm()
    sliders = builder.AddSystem(JointSliders(meshcat, plant))
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    diagram = builder.Build()
    # With a timeout and nobody at the browser: the initial positions.
    assert list(sliders.Run(diagram, timeout=0.05)) == [0.0, 0.0]
    assert meshcat.GetButtonNames() == []
    with WsClient(meshcat.ws_url()) as browser:
        browser.messages(idle=0.05)

        def user():
            time.sleep(0.2)
            browser.send({"type": "slider", "name": "shoulder", "value": 1.0})
            time.sleep(0.2)
            browser.send({"type": "button", "name": "Stop JointSliders"})
        import threading
        thread = threading.Thread(target=user)
        thread.start()
        start = time.monotonic()
        q = sliders.Run(diagram, timeout=20.0, stop_button_keycode="KeyX")
        thread.join()
    assert time.monotonic() - start < 10 and list(q) == [1.0, 0.0]
    assert meshcat.GetButtonNames() == []
    # The published pose of the upper arm: rotated 1 rad about y.
    X = fold(read_scene(meshcat))["transforms"]["/drake/visualizer/arm/upper"]
    assert X[:3, :3] == pytest.approx(np.array([[np.cos(1), 0, np.sin(1)], [0, 1, 0],
                                                [-np.sin(1), 0, np.cos(1)]]), abs=1e-6)


@pytest.mark.parametrize("time_step", [0.0, 0.01])
def test_the_plant_follows_the_sliders_through_commanded_positions(meshcat, time_step):
    builder, plant, _ = _welded_arm(time_step)
    sliders = builder.AddSystem(JointSliders(meshcat, plant))
    builder.Connect(sliders.get_output_port(), plant.get_commanded_positions_input_port())
    simulator = Simulator(builder.Build())
    simulator.AdvanceTo(0.05)
    plant_context = plant.GetMyContextFromRoot(simulator.get_context())
    assert list(plant.GetPositions(plant_context)) == [0.0, 0.0]
    meshcat.SetSliderValue("elbow", -0.5)               # as a browser would move it
    simulator.AdvanceTo(0.1)
    assert list(plant.GetPositions(plant_context)) == pytest.approx([0.0, -0.5])


def test_a_real_robot(meshcat):
    from tests.scenegraph.multibody.robot_data import PACKAGE, package_root, urdf_path
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    parser.package_map().Add(PACKAGE, str(package_root()))
    parser.AddModels(str(urdf_path("panda_description/urdf/panda.urdf")))
    plant.Finalize()
    sliders = JointSliders(meshcat, plant)
    names = meshcat.GetSliderNames()
    assert len(names) == plant.num_positions() == 16
    joint1 = _slider(meshcat, "panda_joint1")
    assert (joint1.min, joint1.max) == pytest.approx((-2.8973, 2.8973))
    assert meshcat.GetSliderValue("panda_joint1") == 0.0
    assert sliders.get_output_port().size() == 16
