"""pydrake 1.51 behaviours found by running pydrake's own binding tests here (issue 34,
round 3; tools/port_pydrake_tests.py) and by newcomers: each expected value below is
what pydrake 1.51.1 does for the same calls."""
import contextlib
import copy
import io
import json
import pickle
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from scenegraph import (CollisionFilterDeclaration, Convex, GeometryId, GeometryInstance,
                        GeometrySet, FrameId, InMemoryMesh, Mesh, MeshSource,
                        Plane, ProximityProperties, Role, SceneGraph, SourceId, Sphere)
from scenegraph.math import RigidTransform
from scenegraph.mesh_source import MemoryFile
from systems.analysis import PrintSimulatorStatistics, Simulator
from systems.framework import (EventStatus, LeafSystem, ValueProducer, Value)
from systems.primitives import Adder, Integrator, SelectorParams

PICKLES = json.loads((Path(__file__).parent / "reference_data" /
                      "pydrake_pickles.json").read_text())


def _pydrake_pickle(name):
    return pickle.loads(bytes.fromhex(PICKLES[name]))


class _Counting(LeafSystem):
    """One output y = t whose calc calls are counted."""

    def __init__(self):
        super().__init__()
        self.calls = 0
        self.port = self.DeclareVectorOutputPort("y", 1, self._calc)

    def _calc(self, context, output):
        self.calls += 1
        output.SetFromVector([context.get_time()])


# --- cache switches ----------------------------------------------------------------
def test_disable_caching_recomputes_every_eval_until_enabled():
    system = _Counting()
    context = system.CreateDefaultContext()
    system.port.Eval(context)
    system.port.Eval(context)
    assert system.calls == 1
    context.DisableCaching()
    assert system.port.cache_entry().is_cache_entry_disabled(context)
    system.port.Eval(context)
    system.port.Eval(context)
    assert system.calls == 3
    context.EnableCaching()
    system.port.Eval(context)
    system.port.Eval(context)
    assert system.calls == 4 and not system.port.cache_entry().is_cache_entry_disabled(context)


def test_one_entry_disabled_and_disabled_by_default_for_new_contexts():
    system = _Counting()
    entry = system.port.cache_entry()
    context = system.CreateDefaultContext()
    entry.disable_caching(context)
    assert entry.is_cache_entry_disabled(context)
    entry.enable_caching(context)
    assert not entry.is_cache_entry_disabled(context)
    assert not entry.is_disabled_by_default()
    system.port.disable_caching_by_default()
    assert entry.is_disabled_by_default()
    fresh = system.CreateDefaultContext()
    assert entry.is_cache_entry_disabled(fresh) and not entry.is_cache_entry_disabled(context)


def test_frozen_cache_serves_up_to_date_values_and_refuses_to_compute():
    system = _Counting()
    context = system.CreateDefaultContext()
    system.port.Eval(context)
    context.FreezeCache()
    assert context.is_cache_frozen()
    assert system.port.Eval(context)[0] == 0.0          # up to date: served
    context.SetTime(1.0)                                 # changes still invalidate
    with pytest.raises(RuntimeError, match="frozen"):
        system.port.Eval(context)
    assert context.Clone().is_cache_frozen()             # Clone keeps the switches
    context.UnfreezeCache()
    assert not context.is_cache_frozen()
    assert system.port.Eval(context)[0] == 1.0 and system.calls == 2


def test_set_all_cache_entries_out_of_date_and_cache_entry_value_access():
    system = _Counting()
    context = system.CreateDefaultContext()
    system.port.Eval(context)
    context.SetAllCacheEntriesOutOfDate()
    assert system.port.cache_entry().is_out_of_date(context)
    cev = system.port.cache_entry().get_mutable_cache_entry_value(context)
    with pytest.raises(RuntimeError, match="the current value is out of date"):
        cev.GetValueOrThrow()
    serial = cev.get_serial_number()
    value = cev.GetMutableValueOrThrow()                 # allowed: out of date
    assert cev.get_serial_number() == serial + 1 and value.size() == 1
    cev.mark_up_to_date()
    with pytest.raises(RuntimeError, match="already up to date"):
        cev.GetMutableValueOrThrow()


def test_num_total_states_counts_continuous_and_discrete_entries():
    system = LeafSystem()
    system.DeclareContinuousState(2)
    system.DeclareDiscreteState(3)
    system.DeclareDiscreteState(1)
    assert system.CreateDefaultContext().num_total_states() == 6
    system.DeclareAbstractState(Value("x"))
    with pytest.raises(RuntimeError, match="abstract"):
        system.CreateDefaultContext().num_total_states()


# --- other framework behaviours -------------------------------------------------------
def test_value_producer_allocate_mistakes_raise_runtime_error_naming_the_function():
    def broken_alloc_callback():
        return "hello"

    system = LeafSystem()
    system.DeclareCacheEntry(description="", value_producer=ValueProducer(
        allocate=broken_alloc_callback, calc=lambda context, output: None))
    with pytest.raises(RuntimeError, match="broken_alloc_callback.*return.*Value.*not.*str"):
        system.CreateDefaultContext()


def test_get_monitor_returns_a_wrapper_that_always_returns_a_status():
    simulator = Simulator(Integrator(1))
    calls = []
    monitor = calls.append                             # returns None
    simulator.set_monitor(monitor)
    wrapped = simulator.get_monitor()
    assert wrapped is not monitor
    status = wrapped(simulator.get_context())
    assert calls == [simulator.get_context()]
    assert status.severity() == EventStatus.Severity.kDidNothing
    simulator.clear_monitor()
    assert simulator.get_monitor() is None


def test_system_type_names_are_drakes_for_library_systems():
    class Mine(LeafSystem):
        pass

    assert Adder(3, 10).GetSystemType() == "drake::systems::Adder<double>"
    assert SceneGraph().GetSystemType() == "drake::geometry::SceneGraph<double>"
    assert Mine().GetSystemType() == f"{__name__}.{Mine.__qualname__}"


def test_selector_params_print_as_pydrake():
    P = SelectorParams
    params = P(inputs=[P.InputPortParams(name="x", size=3)],
               outputs=[P.OutputPortParams(name="a", selections=[
                   P.OutputSelection(input_port_index=0, input_offset=0)])])
    assert repr(params) == (
        "SelectorParams(inputs=[InputPortParams(name='x', size=3)], outputs=["
        "OutputPortParams(name='a', selections=[OutputSelection(input_port_index=0, "
        "input_offset=0)])])")
    assert pickle.loads(pickle.dumps(params)) == params


def test_basic_vector_value_copy_is_a_copy():
    from systems.framework import BasicVector
    vector = BasicVector([1.0, 2.0])
    copied = vector._get_value_copy()
    copied[0] = 5.0
    assert vector.get_value().tolist() == [1.0, 2.0]


def test_set_continuous_state_of_the_wrong_size_raises_index_error():
    context = Integrator(2).CreateDefaultContext()
    for bad in ([1.0, 2.0, 3.0], [1.0], np.zeros(3)):
        with pytest.raises(IndexError, match=f"size {np.size(bad)} does not match.* 2"):
            context.SetContinuousState(bad)
    assert context.get_continuous_state_vector().CopyToVector().tolist() == [0.0, 0.0]


def test_print_simulator_statistics_writes_null_for_nan_as_drake():
    simulator = Simulator(Integrator(2))
    simulator.Initialize()
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        PrintSimulatorStatistics(simulator)
    printed = text.getvalue()
    assert "Initial time step taken = nan        s" in printed   # fmt's {:10.6g}
    summary = json.loads(printed.split("JSON Statistics:\n", 1)[1])
    assert summary["integrator_actual_initial_step_size_taken"] is None
    assert "NaN" not in printed


# --- geometry -------------------------------------------------------------------------
def test_ids_print_as_pydrake_and_kinds_never_alike():
    gid, fid, sid = GeometryId.get_new_id(), FrameId.get_new_id(), SourceId.get_new_id()
    assert str(gid) == repr(gid) == f"<GeometryId value={gid.get_value()}>"
    assert str(fid).startswith("<FrameId value=") and str(sid).startswith("<SourceId value=")
    same_value = FrameId._reserved(7), GeometryId._reserved(7)
    assert str(same_value[0]) != str(same_value[1])
    assert f"{gid}" == str(gid.get_value())     # messages: Drake's bare number


def test_star_import_rebinds_neither_math_nor_all():
    import math
    namespace = {}
    exec("import scenegraph.math, scenegraph.all\nfrom scenegraph import *", namespace)
    assert "math" not in namespace or namespace["math"] is math
    assert "all" not in namespace and "annotations" not in namespace
    assert namespace["SceneGraph"] is SceneGraph


def test_pydrake_pickles_load():
    source = _pydrake_pickle("mesh_source_path")
    assert source.is_path() and source.path() == Path("/a/path.obj")
    mesh = _pydrake_pickle("in_memory")
    assert mesh.mesh_file == MemoryFile("v 0 0 0", ".obj", "hint")
    assert mesh.supporting_files == {"a.mtl": MemoryFile("x", ".mtl", "a.mtl")}
    shape = _pydrake_pickle("mesh")       # not read: the file does not exist
    assert isinstance(shape, Mesh) and shape.scale3().tolist() == [1.0, 2.0, 3.0]
    assert shape.source().path() == Path("/path/to/file.obj")
    convex = _pydrake_pickle("convex")
    assert isinstance(convex, Convex) and convex.scale() == 2.0
    plane = _pydrake_pickle("plane")
    assert plane.unit_normal().tolist() == [0.0, 0.0, 1.0]
    assert plane.CalcHeight([0.0, 0.0, 3.0]) == 2.0
    for obj in (source, mesh, InMemoryMesh(mesh_file=MemoryFile("a", ".obj", "h")),
                MeshSource(mesh=mesh)):
        assert repr(pickle.loads(pickle.dumps(obj))) == repr(obj)
    again = pickle.loads(pickle.dumps(plane))
    assert again.reference_point().tolist() == plane.reference_point().tolist()


def test_properties_in_group_are_abstract_values():
    props = ProximityProperties()
    props.AddProperty("g", "p", 3)
    values = props.GetPropertiesInGroup("g")
    assert isinstance(values["p"], Value) and values["p"].get_value() == 3


def _two_spheres():
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("s")
    ids = [scene_graph.RegisterGeometry(source, scene_graph.world_frame_id(),
                                        GeometryInstance(RigidTransform(), Sphere(1), n))
           for n in ("a", "b")]
    scene_graph.AssignRole(source, ids[0], ProximityProperties())
    return scene_graph, source, ids


def test_acquiring_a_collision_filter_manager_changes_the_proximity_version():
    scene_graph, source, ids = _two_spheres()
    before = scene_graph.model_inspector().geometry_version()
    scene_graph.collision_filter_manager()
    after = scene_graph.model_inspector().geometry_version()
    assert not before.IsSameAs(after, Role.kProximity)
    assert before.IsSameAs(after, Role.kIllustration)
    context = scene_graph.CreateDefaultContext()
    query = scene_graph.get_query_output_port()
    before = copy.copy(query.Eval(context).inspector().geometry_version())
    scene_graph.collision_filter_manager(context)
    after = query.Eval(context).inspector().geometry_version()
    assert not before.IsSameAs(after, Role.kProximity)


def test_assign_proximity_role_during_a_transient_declaration_raises_unchanged():
    scene_graph, source, ids = _two_spheres()
    context = scene_graph.CreateDefaultContext()
    manager = scene_graph.collision_filter_manager(context)
    manager.ApplyTransient(CollisionFilterDeclaration().ExcludeWithin(GeometrySet(ids)))
    with pytest.raises(RuntimeError, match="active, transient filter declarations"):
        scene_graph.AssignRole(context, source, ids[1], ProximityProperties())
    inspector = query_inspector = scene_graph.get_query_output_port().Eval(
        context).inspector()
    assert query_inspector.GetProximityProperties(ids[1]) is None
    assert inspector.NumGeometriesWithRole(Role.kProximity) == 1
    scene_graph.AssignRole(source, ids[1], ProximityProperties())   # the model: fine


def test_deformable_geometry_is_refused_saying_it_is_not_offered():
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("s")
    with pytest.raises(NotImplementedError, match="deformable geometry is not offered"):
        scene_graph.RegisterDeformableGeometry(
            source, scene_graph.world_frame_id(),
            GeometryInstance(RigidTransform(), Sphere(1), "d"), 0.1)
    assert scene_graph.model_inspector().num_geometries() == 0


def test_meshcat_serves_a_favicon_and_404_for_missing_files():
    from scenegraph import Meshcat
    meshcat = Meshcat()
    with urllib.request.urlopen(meshcat.web_url() + "/favicon.ico") as response:
        assert response.read(4) == b"\x00\x00\x01\x00"      # an ICO header
    with pytest.raises(Exception, match="HTTP.*404"):
        urllib.request.urlopen(meshcat.web_url() + "/favicon.ico/no_such_file")


def test_migration_guide_rows_see_instance_attributes():
    import sys
    sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
    import api_coverage
    from systems.analysis import InitializeParams, RandomSimulationResult
    assert api_coverage.has_member(RandomSimulationResult, "output")
    assert api_coverage.has_member(RandomSimulationResult, "generator_snapshot")
    assert api_coverage.has_member(InitializeParams, "suppress_initialization_events")
    assert not api_coverage.has_member(InitializeParams, "no_such_member")


# --- round 3, sensors and rendering (sensors_test, render tests) -------------------------
def test_camera_config_focal_helpers_as_pydrake():
    from scenegraph.sensors import CameraConfig
    fov = CameraConfig.FovDegrees(x=90)
    assert fov.focal_x(width=64, height=48) == pytest.approx(32.0)
    assert fov.focal_y(width=64, height=48) == pytest.approx(32.0)     # follows x
    both = CameraConfig.FovDegrees(x=90, y=90)
    assert both.focal_y(64, 48) == pytest.approx(24.0)
    assert CameraConfig.FocalLength(y=20).focal_x() == 20.0
    with pytest.raises(RuntimeError, match="at least x or y for FovDegrees"):
        CameraConfig.FovDegrees().focal_x(64, 48)
    config = CameraConfig(width=64, height=48, focal=CameraConfig.FovDegrees(y=90))
    assert (config.focal_x(), config.focal_y()) == pytest.approx((24.0, 24.0))


def test_depth_conversions_resize_the_output_as_drake():
    from scenegraph.sensors import (ConvertDepth16UTo32F, ConvertDepth32FTo16U,
                                    ImageDepth16U, ImageDepth32F)
    depth = ImageDepth32F(3, 4)
    depth.mutable_data[...] = 1.5
    out16 = ImageDepth16U()
    ConvertDepth32FTo16U(input=depth, output=out16)
    assert (out16.width(), out16.height()) == (3, 4) and (out16.data == 1500).all()
    out32 = ImageDepth32F(7, 7)
    ConvertDepth16UTo32F(input=out16, output=out32)
    assert (out32.width(), out32.height()) == (3, 4) and (out32.data == 1.5).all()


def test_simulator_publish_switches_warn_as_deprecated_in_pydrake():
    import warnings
    from systems.analysis import ApplySimulatorConfig, SimulatorConfig
    simulator = Simulator(Adder(1, 1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        simulator.set_publish_every_time_step(publish=True)
        simulator.set_publish_at_initialization(publish=True)
        ApplySimulatorConfig(SimulatorConfig(publish_every_time_step=False), simulator)
    from systems.common.deprecation import DrakeDeprecationWarning
    assert [w.category for w in caught] == [DrakeDeprecationWarning] * 2
    assert issubclass(DrakeDeprecationWarning, DeprecationWarning)
    assert "must be defined in the LeafSystem" in str(caught[0].message)
    assert "2026-06-01" in str(caught[1].message)
    assert simulator.get_publish_every_time_step() is False   # the config still applies


def test_configure_random_state_draws_x0_plus_sqrt_covariance_times_normals():
    from systems.framework import RandomGenerator
    from systems.primitives import LinearSystem, TrajectoryLinearSystem
    from systems.trajectories import PiecewisePolynomial
    w = RandomGenerator().standard_normal(2)       # what a fresh generator draws first
    continuous = LinearSystem(np.eye(2), np.zeros((2, 1)), np.eye(2), np.zeros((2, 1)))
    discrete = TrajectoryLinearSystem(
        A=PiecewisePolynomial(np.eye(2)), B=PiecewisePolynomial(np.zeros((2, 1))),
        C=PiecewisePolynomial(np.eye(2)), D=PiecewisePolynomial(np.zeros((2, 1))),
        time_period=0.1)
    for system, state in ((continuous, "get_continuous_state_vector"),
                          (discrete, "get_discrete_state_vector")):
        system.configure_default_state(x0=np.array([1.0, 2.0]))
        context = system.CreateDefaultContext()
        system.SetRandomContext(context, RandomGenerator())     # no covariance: x0
        np.testing.assert_array_equal(getattr(context, state)().CopyToVector(), [1.0, 2.0])
        system.configure_random_state(covariance=np.diag([4.0, 0.01]))
        system.SetRandomContext(context, RandomGenerator())
        np.testing.assert_allclose(getattr(context, state)().CopyToVector(),
                                   [1.0 + 2.0 * w[0], 2.0 + 0.1 * w[1]], atol=1e-12)
        system.configure_random_state(covariance=np.zeros((2, 2)))     # singular: x0
        system.SetRandomContext(context, RandomGenerator())
        np.testing.assert_array_equal(getattr(context, state)().CopyToVector(), [1.0, 2.0])
        with pytest.raises(ValueError, match="covariance is 3x3 but the system has 2"):
            system.configure_random_state(covariance=np.eye(3))
        with pytest.raises(ValueError, match="not symmetric positive semidefinite"):
            system.configure_random_state(covariance=-np.eye(2))


def test_affine_system_update_coefficients_as_drake():
    from systems.primitives import AffineSystem
    system = AffineSystem(A=[[1.0]], B=[[2.0]], f0=[3.0], C=[[4.0]], D=[[0.0]], y0=[6.0])
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0])
    system.get_input_port(0).FixValue(context, [1.0])
    system.UpdateCoefficients(A=[[7.0]], B=[[8.0]], f0=[9.0], C=[[10.0]], D=[[0.0]],
                              y0=[12.0])
    assert system.EvalTimeDerivatives(context).CopyToVector().tolist() == [7.0 + 8.0 + 9.0]
    assert system.get_output_port(0).Eval(context).tolist() == [10.0 + 12.0]
    with pytest.raises(RuntimeError, match="New and current B have different sizes"):
        system.UpdateCoefficients(A=[[1.0]], B=[[1.0, 2.0]], f0=[0.0], C=[[1.0]], D=[[0.0]],
                                  y0=[0.0])
    with pytest.raises(RuntimeError, match="new_D makes the output dependent on input"):
        system.UpdateCoefficients(A=[[1.0]], B=[[1.0]], f0=[0.0], C=[[1.0]], D=[[5.0]],
                                  y0=[0.0])
    assert system.A().tolist() == [[7.0]] and system.D().tolist() == [[0.0]]   # unchanged


def test_meshcat_test_hooks_inject_messages_and_return_packed_commands():
    import umsgpack
    from scenegraph import Box, Meshcat, Rgba
    meshcat = Meshcat()
    meshcat.AddButton("alice")
    meshcat._InjectWebsocketMessage(message=umsgpack.packb({"type": "button",
                                                            "name": "alice"}))
    assert meshcat.GetButtonClicks("alice") == 1
    with pytest.raises(TypeError, match="must be bytes"):
        meshcat._InjectWebsocketMessage({"type": "button", "name": "alice"})
    assert meshcat._GetPackedObject("/test/box") == b""
    meshcat.SetObject("/test/box", Box(1, 1, 1), Rgba(1, 0, 0, 1))
    meshcat.SetTransform("/test/box", RigidTransform([1.0, 2.0, 3.0]))
    meshcat.SetProperty("/Lights/AmbientLight/<object>", "intensity", 2)
    assert umsgpack.unpackb(meshcat._GetPackedObject("/test/box"))["type"] == "set_object"
    transform = umsgpack.unpackb(meshcat._GetPackedTransform(path="/test/box"))
    matrix = np.frombuffer(transform["matrix"].data, dtype=np.float32)   # column-major 4x4
    assert transform["path"] == "/test/box" and matrix[12:15].tolist() == [1.0, 2.0, 3.0]
    packed = meshcat._GetPackedProperty("/Lights/AmbientLight/<object>", "intensity")
    assert umsgpack.unpackb(packed)["value"] == 2.0
    assert repr(Meshcat.PerspectiveCamera(fov=80)) == \
        "PerspectiveCamera(fov=80.0, aspect=1.0, near=0.01, far=100.0, zoom=1.0)"
    assert "left=0.1" in repr(Meshcat.OrthographicCamera(left=0.1))
    assert "data:application/octet-binary;base64," in meshcat.StaticHtml()
