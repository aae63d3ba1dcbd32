"""RandomSimulation, MonteCarloSimulation and RandomSimulationResult (pydrake's),
with samples run in parallel processes or on any concurrent.futures.Executor.

pydrake's semantics (Drake's systems/analysis/monte_carlo.cc):

- ``RandomSimulation(make_simulator, output, final_time, generator)``:
  ``simulator = make_simulator(generator)``; ``system.SetRandomContext(context,
  generator)``; ``simulator.AdvanceTo(final_time)``; returns
  ``output(system, context)`` as a float.
- ``MonteCarloSimulation(make_simulator, output, final_time, num_samples,
  generator)``: for each sample in order, a copy of `generator` is taken
  (``generator_snapshot``), then the sample's simulator is made and its random
  context set from `generator` itself — so each sample's random numbers follow
  deterministically from the parent generator and the samples before it, and
  `generator` is left where the last sample left it. Results come in sample order.
  A ``None`` generator is a fresh ``RandomGenerator()`` (so repeated calls agree).

Parallel runs (pydrake 1.51's Python binding runs samples one after another; these
are extensions, keyword-only): as in Drake's parallel implementation, the simulators
are made and their random contexts set in this process, in sample order; only
``AdvanceTo`` and ``output`` run elsewhere. A sample's simulation never draws from
`generator`, so the outputs are the same numbers whatever the parallelism.

- ``num_parallel_executions`` (Drake's C++ spelling): 1 (kNoConcurrency) runs here;
  n > 1 runs on n worker processes of this machine; kUseHardwareConcurrency (−1)
  uses one per CPU. ``parallelism`` (an int, or True for all CPUs) is accepted too.
- ``executor``: any ``concurrent.futures.Executor`` — e.g. a Dask distributed
  ``Client(...).get_executor()`` or Ray's — runs the samples instead.

Samples travel as pickled Simulators (their System, Context and integrator state;
see systems/framework/_pickling.py), in chunks of several samples per task, with
`output`. Worker processes start by ``fork`` when that is safe (POSIX, no other
threads in this process), a fresh pool per call, so they see everything defined
here; otherwise (e.g. in Jupyter, whose kernel runs threads) by forkserver/spawn, a
pool kept for later calls. For those and for executors the payload is pickled with
cloudpickle when it is installed (the ``cluster`` extra), so a script's or
notebook's own classes and lambdas travel by value; else with pickle, and workers
must be able to import the modules that define the systems and `output`.
"""
from __future__ import annotations

import copy
import gc
import math
import multiprocessing
import os
import pickle
import threading
from concurrent.futures import Executor, ProcessPoolExecutor

from systems.framework.random_generator import RandomGenerator

__all__ = ["RandomSimulation", "MonteCarloSimulation", "RandomSimulationResult",
           "kNoConcurrency", "kUseHardwareConcurrency"]

kNoConcurrency = 1
kUseHardwareConcurrency = -1


class RandomSimulationResult:
    """One Monte Carlo sample: ``output`` (float) and ``generator_snapshot`` (a copy
    of the generator taken before the sample; ``RandomSimulation(make_simulator,
    output, final_time, copy.deepcopy(result.generator_snapshot))`` replays it)."""

    def __init__(self, generator_snapshot, output: float = float("nan")):
        self.generator_snapshot = generator_snapshot
        self.output = output

    def __repr__(self) -> str:
        return f"RandomSimulationResult(output={self.output!r})"


def _generator(generator):
    return RandomGenerator() if generator is None else generator


def _prepared(make_simulator, generator, what: str):
    """make_simulator(generator), then the system's random context from generator."""
    simulator = make_simulator(generator)
    if not (hasattr(simulator, "get_system") and hasattr(simulator, "AdvanceTo")):
        raise TypeError(f"{what}: make_simulator must return a Simulator; got "
                        f"{type(simulator).__name__}")
    system = simulator.get_system()
    system.SetRandomContext(simulator.get_mutable_context(), generator)
    return simulator


def _finish(simulator, output, final_time: float) -> float:
    simulator.AdvanceTo(final_time)
    value = output(simulator.get_system(), simulator.get_context())
    return float("nan") if value is None else float(value)


def _final_time(final_time, what: str) -> float:
    value = float(final_time)
    if not math.isfinite(value):
        raise ValueError(f"{what}: final_time must be finite; got {final_time!r}")
    return value


def RandomSimulation(make_simulator, output, final_time: float, generator=None) -> float:
    """Runs one random simulation to `final_time` [s] and returns
    ``output(system, context)`` (see the module docstring)."""
    what = "RandomSimulation"
    final_time = _final_time(final_time, what)
    simulator = _prepared(make_simulator, _generator(generator), what)
    return _finish(simulator, output, final_time)


def _num_workers(num_parallel_executions, parallelism) -> int:
    if parallelism is not None and parallelism is not False:
        if parallelism is True:
            return os.cpu_count() or 1
        if hasattr(parallelism, "num_threads"):      # a Parallelism-like object
            return max(1, int(parallelism.num_threads()))
        num_parallel_executions = parallelism
    if isinstance(num_parallel_executions, bool) or not isinstance(
            num_parallel_executions, int):
        raise TypeError(f"MonteCarloSimulation: num_parallel_executions must be an int; "
                        f"got {num_parallel_executions!r}")
    if num_parallel_executions == kUseHardwareConcurrency:
        return os.cpu_count() or 1
    if num_parallel_executions >= 1:
        return num_parallel_executions
    raise ValueError(f"MonteCarloSimulation: num_parallel_executions "
                     f"{num_parallel_executions} is not valid; valid options are "
                     f"kNoConcurrency (1), kUseHardwareConcurrency (-1) or a value >= 1")


def MonteCarloSimulation(make_simulator, output, final_time: float, num_samples: int,
                         generator=None, *, num_parallel_executions: int = kNoConcurrency,
                         executor: Executor | None = None, parallelism=None) -> list:
    """`num_samples` random simulations: a list of RandomSimulationResult in sample
    order (see the module docstring for the semantics and the parallel options)."""
    what = "MonteCarloSimulation"
    if isinstance(num_samples, bool) or int(num_samples) != num_samples \
            or int(num_samples) < 0:
        raise ValueError(f"{what}: num_samples must be an int >= 0; got {num_samples!r}")
    num_samples = int(num_samples)
    final_time = _final_time(final_time, what)
    generator = _generator(generator)
    workers = _num_workers(num_parallel_executions, parallelism)
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(f"{what}: executor must be a concurrent.futures.Executor; got "
                        f"{type(executor).__name__}")
    if executor is None and (workers == 1 or num_samples <= 1):
        results = []
        for _ in range(num_samples):
            snapshot = copy.deepcopy(generator)
            simulator = _prepared(make_simulator, generator, what)
            results.append(RandomSimulationResult(snapshot, _finish(simulator, output,
                                                                    final_time)))
        return results
    if executor is not None:
        return _run_parallel(executor, make_simulator, output, final_time, num_samples,
                             generator, max(workers, 2), by_value=True)
    context = _process_context()
    if context.get_start_method() == "fork":
        # A fresh fork per call: the workers see everything defined here so far.
        # gc.freeze: the collector leaves the inherited objects alone in the workers
        # (no copy-on-write of their pages, shorter collections), and here too.
        gc.freeze()
        try:
            with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
                return _run_parallel(pool, make_simulator, output, final_time,
                                     num_samples, generator, workers, by_value=False)
        finally:
            gc.unfreeze()
    return _run_parallel(_shared_pool(workers, context), make_simulator, output,
                         final_time, num_samples, generator, workers, by_value=True)


def _process_context():
    """fork where it is safe (POSIX, no other threads: quickest start, and the
    workers inherit everything this process imported); else forkserver/spawn."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")


_POOLS: dict = {}
_POOLS_LOCK = threading.Lock()


def _shared_pool(workers: int, context) -> ProcessPoolExecutor:
    """A forkserver/spawn pool kept for later calls (its workers start, and import
    the library, once: about a second each); replaced if a worker died."""
    key = (workers, context.get_start_method())
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None or getattr(pool, "_broken", False):
            pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
            _POOLS[key] = pool
        return pool


def _dumps(obj, first_sample: int, by_value: bool) -> bytes:
    """The payload of the chunk starting at `first_sample`; a pickling error gets a
    note naming the samples (see _pickle_payload)."""
    try:
        return _pickle_payload(obj, first_sample, by_value)
    except Exception as exc:
        if hasattr(exc, "add_note"):
            exc.add_note(f"(while pickling MonteCarloSimulation samples {first_sample}.."
                         f"{first_sample + len(obj[2]) - 1} for other processes; "
                         f"num_parallel_executions=1 runs them here)")
        raise


def _pickle_payload(obj, first_sample: int, by_value: bool) -> bytes:
    """pickle, else cloudpickle (when installed) for lambdas and local functions.
    by_value: workers that did not fork from this process cannot import this
    script's own classes (``__main__``, a notebook): cloudpickle them by value."""
    if by_value:
        try:
            import cloudpickle
        except ImportError:
            pass
        else:
            return cloudpickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        if isinstance(exc, TypeError) and "cannot be pickled or deep-copied" in str(exc):
            raise   # e.g. a live Meshcat: cloudpickle cannot help
        try:
            import cloudpickle
        except ImportError:
            raise TypeError(
                f"MonteCarloSimulation: sample {first_sample}'s simulator or `output` "
                f"cannot be pickled to go to another process ({exc}). Define the "
                f"systems' callables and `output` at module level, install cloudpickle "
                f"(pip install -e '.[cluster]'), or run the samples here "
                f"(num_parallel_executions=1)") from exc
        return cloudpickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


def _run_chunk(payload: bytes, first_sample: int) -> list:
    """In a worker: advance each pickled simulator and evaluate `output`."""
    output, final_time, simulators = pickle.loads(payload)
    values = []
    for k, simulator in enumerate(simulators):
        try:
            values.append(_finish(simulator, output, final_time))
        except Exception as exc:
            if hasattr(exc, "add_note"):
                exc.add_note(f"(in MonteCarloSimulation sample {first_sample + k})")
            raise
    return values


def _run_parallel(executor, make_simulator, output, final_time, num_samples, generator,
                  workers, by_value: bool) -> list:
    """Drake's dispatch: prepare each sample here in order, run chunks elsewhere;
    at most 4 chunks per worker are in flight (bounded memory)."""
    what = "MonteCarloSimulation"
    chunk = max(1, min(32, math.ceil(num_samples / (4 * workers))))
    snapshots, pending, values = [], [], [None] * num_samples
    max_in_flight = 4 * workers

    def collect(entry):
        start, future = entry
        for k, value in enumerate(future.result()):
            values[start + k] = value

    try:
        for start in range(0, num_samples, chunk):
            simulators = []
            for _ in range(start, min(start + chunk, num_samples)):
                snapshots.append(copy.deepcopy(generator))
                simulators.append(_prepared(make_simulator, generator, what))
            payload = _dumps((output, final_time, simulators), start, by_value)
            pending.append((start, executor.submit(_run_chunk, payload, start)))
            while len(pending) > max_in_flight:
                collect(pending.pop(0))
        while pending:
            collect(pending.pop(0))
    except BaseException:
        for _, future in pending:
            future.cancel()
        raise
    return [RandomSimulationResult(s, v) for s, v in zip(snapshots, values)]
