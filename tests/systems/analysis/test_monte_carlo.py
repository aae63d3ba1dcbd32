"""RandomSimulation and MonteCarloSimulation with pydrake 1.51's semantics, run here, on
worker processes and on a Dask LocalCluster (extensions)."""
import copy
from concurrent.futures import ThreadPoolExecutor

import pytest

from systems.analysis import (MonteCarloSimulation, RandomSimulation,
                              RandomSimulationResult, Simulator)
from systems.framework import DiagramBuilder, RandomDistribution, RandomGenerator
from systems.primitives import RandomSource
from tests.systems.analysis.montecarlo_scenes import (make_pendulum_simulator,
                                                      make_scene_simulator,
                                                      pendulum_theta, scene_clearance,
                                                      uniform)
import numpy as np
from systems.primitives import Integrator

# pydrake 1.51.1: RandomGenerator(7) after MonteCarloSimulation of 3 samples of a
# diagram holding one RandomSource (each SetRandomContext draws one seed).
DRAKE_SEED_7_AFTER_THREE_SOURCES = 1369975286


def _make_random_source_simulator(generator):
    builder = DiagramBuilder()
    builder.AddNamedSystem("source", RandomSource(RandomDistribution.kUniform, 1, 0.1))
    return Simulator(builder.Build())


def _first_source_sample(system, context):
    return context.get_discrete_state_vector().GetAtIndex(0)


def test_generator_is_consumed_in_sample_order_as_in_drake():
    # Each sample's SetRandomContext draws one seed from the parent generator.
    generator = RandomGenerator(7)
    MonteCarloSimulation(_make_random_source_simulator, _first_source_sample, 0.25, 3,
                         generator)
    assert generator() == DRAKE_SEED_7_AFTER_THREE_SOURCES


def test_snapshots_replay_their_samples():
    generator = RandomGenerator(11)
    results = MonteCarloSimulation(make_pendulum_simulator, pendulum_theta, 1.0, 4,
                                   generator)
    assert all(isinstance(r, RandomSimulationResult) for r in results)
    assert len({r.output for r in results}) == 4
    for result in results:
        replay = RandomSimulation(make_pendulum_simulator, pendulum_theta, 1.0,
                                  copy.deepcopy(result.generator_snapshot))
        assert replay == result.output
    # Each snapshot is the generator before its sample: two draws per sample.
    fresh = RandomGenerator(11)
    for result in results:
        assert copy.deepcopy(result.generator_snapshot)() == fresh()
        fresh()


def test_no_generator_means_a_fresh_default_one_each_call():
    first = MonteCarloSimulation(make_pendulum_simulator, pendulum_theta, 0.5, 2)
    second = MonteCarloSimulation(make_pendulum_simulator, pendulum_theta, 0.5, 2)
    assert [r.output for r in first] == [r.output for r in second]
    theta0 = uniform(RandomGenerator(), -1.0, 1.0)
    assert first[0].generator_snapshot() == RandomGenerator()()
    assert theta0 != 0.0


def _outputs(**kwargs):
    generator = RandomGenerator(5)
    results = MonteCarloSimulation(make_pendulum_simulator, pendulum_theta, 2.0, 9,
                                   generator, **kwargs)
    return [r.output for r in results], generator(), [r.generator_snapshot() for r in
                                                       results]


def test_worker_processes_give_the_same_numbers_in_sample_order():
    serial = _outputs()
    assert _outputs(num_parallel_executions=2) == serial
    assert _outputs(parallelism=True) == serial
    assert _outputs(executor=ThreadPoolExecutor(2)) == serial


@pytest.mark.parametrize("kwargs", [
    dict(num_parallel_executions=2), dict(num_parallel_executions=3),
    dict(executor=ThreadPoolExecutor(3))])
def test_many_samples_keep_their_order_and_numbers_on_every_dispatch(kwargs):
    # 40 samples: chunks of growing and shrinking size go to the workers while this
    # process runs samples of its own; outputs, snapshots and the generator left
    # behind are those of the serial run, sample by sample.
    def run(**options):
        generator = RandomGenerator(9)
        results = MonteCarloSimulation(make_pendulum_simulator, pendulum_theta, 0.3, 40,
                                       generator, **options)
        return ([r.output for r in results], [r.generator_snapshot() for r in results],
                generator())
    serial = run()
    assert len(set(serial[0])) == 40
    assert run(**kwargs) == serial


def _theta_above(system, context):
    """θ [rad], refusing θ < −0.2 rad (to fail some samples on purpose)."""
    theta = pendulum_theta(system, context)
    if theta < -0.2:
        raise ValueError(f"theta {theta} too small")
    return theta


@pytest.mark.parametrize("executions", [2, 3])
def test_the_earliest_failing_sample_is_reported_whatever_the_parallelism(executions):
    thetas = [r.output for r in MonteCarloSimulation(
        make_pendulum_simulator, pendulum_theta, 0.1, 12, RandomGenerator(3))]
    failing = [i for i, theta in enumerate(thetas) if theta < -0.2]
    assert failing == [8, 10]     # the samples before 8 succeed; a later one fails too
    with pytest.raises(ValueError, match="too small") as info:
        MonteCarloSimulation(make_pendulum_simulator, _theta_above, 0.1, 12,
                             RandomGenerator(3), num_parallel_executions=executions)
    assert "(in MonteCarloSimulation sample 8)" in info.value.__notes__
    assert str(info.value) == f"theta {thetas[8]} too small"


def test_a_scene_graph_diagram_runs_on_workers_like_here():
    kwargs = dict(make_simulator=make_scene_simulator, output=scene_clearance,
                  final_time=0.4, num_samples=3)
    serial = MonteCarloSimulation(generator=RandomGenerator(2), **kwargs)
    parallel = MonteCarloSimulation(generator=RandomGenerator(2),
                                    num_parallel_executions=2, **kwargs)
    assert [r.output for r in parallel] == [r.output for r in serial]
    assert len({r.output for r in serial}) == 3


def test_a_lambda_output_travels_by_cloudpickle():
    serial = MonteCarloSimulation(make_pendulum_simulator, lambda s, c: c.get_time(),
                                  0.5, 3, RandomGenerator(1))
    parallel = MonteCarloSimulation(make_pendulum_simulator, lambda s, c: c.get_time(),
                                    0.5, 3, RandomGenerator(1), num_parallel_executions=2)
    assert [r.output for r in parallel] == [r.output for r in serial] == [0.5] * 3


def _failing_output(system, context):
    raise ValueError("output failed on purpose")


def test_a_failing_sample_raises_its_error_naming_the_sample():
    with pytest.raises(ValueError, match="output failed on purpose") as info:
        MonteCarloSimulation(make_pendulum_simulator, _failing_output, 0.1, 3,
                             RandomGenerator(1), num_parallel_executions=2)
    assert any("MonteCarloSimulation sample 0" in note
               for note in getattr(info.value, "__notes__", []))


@pytest.mark.parametrize("kwargs, match", [
    (dict(num_samples=-1), "num_samples must be an int >= 0; got -1"),
    (dict(num_samples=2.5), "num_samples must be an int >= 0; got 2.5"),
    (dict(num_parallel_executions=0), "num_parallel_executions 0 is not valid"),
    (dict(final_time=float("nan")), "final_time must be finite; got nan"),
    (dict(executor="pool"), "executor must be a concurrent.futures.Executor; got str"),
])
def test_bad_arguments_are_refused_by_value_and_leave_the_generator(kwargs, match):
    generator = RandomGenerator(3)
    args = dict(make_simulator=make_pendulum_simulator, output=pendulum_theta,
                final_time=0.5, num_samples=2, generator=generator)
    args.update(kwargs)
    with pytest.raises((ValueError, TypeError), match=match):
        MonteCarloSimulation(**args)
    assert generator() == RandomGenerator(3)()


def test_make_simulator_must_return_a_simulator():
    with pytest.raises(TypeError, match="make_simulator must return a Simulator; got int"):
        RandomSimulation(lambda generator: 3, pendulum_theta, 1.0, RandomGenerator())


def test_dask_local_cluster_of_processes_gives_the_same_numbers():
    import distributed  # dask's (the `test` and `cluster` extras install it)
    serial = _outputs()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert _outputs(executor=client.get_executor()) == serial


def test_the_library_does_not_import_dask_until_asked():
    import subprocess
    import sys
    code = ("import sys, systems.analysis, systems.framework; "
            "print(sorted(m for m in ('dask', 'distributed', 'cloudpickle') "
            "if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_with_other_threads_running_workers_start_by_forkserver_once():
    # As in Jupyter: fork is unsafe with threads, so a forkserver pool is kept.
    import threading

    from systems.analysis import monte_carlo
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        serial = _outputs()
        assert _outputs(num_parallel_executions=2) == serial
        pool = monte_carlo._POOLS[(1, "forkserver")]
        assert _outputs(num_parallel_executions=2) == serial
        assert monte_carlo._POOLS[(1, "forkserver")] is pool
    finally:
        stop.set()
        thread.join()
        pool = monte_carlo._POOLS.pop((1, "forkserver"), None)
        if pool is not None:
            pool.shutdown()


def _make_simulator_with_meshcat(generator):
    from scenegraph import MeshcatVisualizer, SceneGraph
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, _MESHCAT[0])
    return Simulator(builder.Build())


_MESHCAT = []


def test_a_sample_that_cannot_travel_names_what_and_which_samples():
    from scenegraph import Meshcat
    _MESHCAT.append(Meshcat())
    try:
        with pytest.raises(TypeError, match=r"Meshcat \(the live viewer server") as info:
            MonteCarloSimulation(_make_simulator_with_meshcat, pendulum_theta, 0.1, 2,
                                 RandomGenerator(1), num_parallel_executions=2)
        assert any("while pickling MonteCarloSimulation samples 0..0" in note
                   for note in info.value.__notes__)
    finally:
        _MESHCAT.clear()


def test_the_thread_switch_interval_is_restored_after_parallel_runs_and_failures():
    """While this process both dispatches and simulates, the switch interval is
    0.2 ms (results from the pool arrive on time); afterwards it is the user's
    again, also when a sample failed."""
    import sys
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.004)
    try:
        MonteCarloSimulation(make_pendulum_simulator, pendulum_theta, 0.1, 6,
                             RandomGenerator(3), num_parallel_executions=2)
        assert sys.getswitchinterval() == pytest.approx(0.004)
        with pytest.raises(ValueError, match="too small"):
            MonteCarloSimulation(make_pendulum_simulator, _theta_above, 0.1, 12,
                                 RandomGenerator(3), num_parallel_executions=2)
        assert sys.getswitchinterval() == pytest.approx(0.004)
    finally:
        sys.setswitchinterval(before)


def test_the_switch_interval_is_short_while_dispatching_and_shared_by_concurrent_calls():
    """Nested (or concurrent) users of the short interval: the first one's
    interval comes back only when the last one leaves."""
    import sys
    from systems.analysis import monte_carlo
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.004)
    try:
        with monte_carlo._short_switch_interval():
            assert sys.getswitchinterval() == pytest.approx(2e-4)
            with monte_carlo._short_switch_interval():
                assert sys.getswitchinterval() == pytest.approx(2e-4)
            assert sys.getswitchinterval() == pytest.approx(2e-4)
        assert sys.getswitchinterval() == pytest.approx(0.004)
    finally:
        sys.setswitchinterval(before)


def test_kept_pools_are_shut_down_at_interpreter_exit():
    # Left to garbage collection during interpreter shutdown, a kept pool's
    # callback could find multiprocessing gone and print "Exception ignored":
    # the library lets go of its pools at exit, while the modules still exist.
    # atexit runs its hooks last-registered first: the checker registered
    # before the pool exists runs after the library's hook.
    import subprocess
    import sys
    code = ("import atexit, multiprocessing\n"
            "from systems.analysis import monte_carlo\n"
            "if __name__ == '__main__':\n"
            "    atexit.register(lambda: print('kept at exit:', len(monte_carlo._POOLS)))\n"
            "    pool = monte_carlo._shared_pool(1, multiprocessing.get_context('spawn'))\n"
            "    print(pool.submit(abs, -3).result())\n"
            "    del pool\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.split() == ["3", "kept", "at", "exit:", "0"]
    assert "Exception ignored" not in out.stderr


def test_monte_carlo_replays_each_sample_from_its_snapshot():
    def make_simulator(generator):
        system = Integrator(1)
        simulator = Simulator(system)
        system.get_input_port().FixValue(simulator.get_mutable_context(),
                                         [generator.uniform(-1.0, 1.0)])
        return simulator

    def output(system, context):
        return context.get_continuous_state_vector()[0]

    results = MonteCarloSimulation(make_simulator, output, final_time=2.0, num_samples=3,
                                   generator=np.random.default_rng(7))
    assert all(isinstance(r, RandomSimulationResult) for r in results)
    draws = np.random.default_rng(7).uniform(-1.0, 1.0, 3)
    np.testing.assert_allclose([r.output for r in results], 2.0 * draws, atol=1e-9)
    replay = make_simulator(results[1].generator_snapshot)
    replay.AdvanceTo(2.0)
    assert output(None, replay.get_context()) == pytest.approx(results[1].output)
