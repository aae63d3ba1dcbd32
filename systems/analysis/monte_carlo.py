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
``AdvanceTo`` and ``output`` may run elsewhere. A sample's simulation never draws
from `generator`, so the outputs are the same numbers whatever the parallelism, and
an error is that of the earliest failing sample, as serially.

- ``num_parallel_executions`` (Drake's C++ spelling): 1 (kNoConcurrency) runs here;
  n > 1 runs n simulations at a time on this machine: n − 1 worker processes and
  this process, which prepares every sample and, whenever the workers have enough
  queued, simulates the next one itself (that sample is never pickled);
  kUseHardwareConcurrency (−1) uses one per CPU. ``parallelism`` (an int, or True
  for all CPUs) is accepted too.
- ``executor``: any ``concurrent.futures.Executor`` — e.g. a Dask distributed
  ``Client(...).get_executor()`` or Ray's — runs all the simulations instead.

Samples travel as pickled Simulators (their System, Context and integrator state;
see systems/framework/_pickling.py) with `output`, in chunks: one sample for each
worker's first, then doubling, but never more than a share of what is left (see
_Dispatch). Worker processes start by ``fork`` when that is safe (POSIX, no other
threads in this process), a fresh pool per call, so they see everything defined
here; otherwise (e.g. in Jupyter, whose kernel runs threads) by forkserver/spawn, a
pool kept for later calls. For those and for executors the payload is pickled with
cloudpickle when it is installed (the ``cluster`` extra), so a script's or
notebook's own classes and lambdas travel by value; else with pickle, and workers
must be able to import the modules that define the systems and `output`.
"""
from __future__ import annotations

import atexit
import contextlib
import copy
import gc
import math
import multiprocessing
import os
import pickle
import sys
import threading
from concurrent.futures import Executor   # ProcessPoolExecutor imported where used

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
    args = (make_simulator, output, final_time, num_samples, generator)
    if executor is not None:
        # All simulations on the executor (a cluster, say); this process prepares.
        executions = max(workers, 2)
        return _Dispatch(executor, *args, executions=executions, helpers=executions,
                         max_chunk=32, max_busy=4 * executions, run_here=False,
                         by_value=True).run()
    # W executions on this machine: W − 1 worker processes and this process.
    helpers = workers - 1
    context = _process_context()
    if context.get_start_method() == "fork":
        # A fresh fork per call: the workers see everything defined here so far.
        # gc.freeze: the collector leaves the inherited objects alone in the workers
        # (no copy-on-write of their pages, shorter collections), and here too.
        gc.freeze()
        try:
            from concurrent.futures import ProcessPoolExecutor
            with ProcessPoolExecutor(max_workers=helpers, mp_context=context) as pool:
                return _Dispatch(pool, *args, executions=workers, helpers=helpers,
                                 max_chunk=16, max_busy=2 * helpers, run_here=True,
                                 by_value=False).run()
        finally:
            gc.unfreeze()
    return _Dispatch(_shared_pool(helpers, context), *args, executions=workers,
                     helpers=helpers, max_chunk=16, max_busy=2 * helpers, run_here=True,
                     by_value=True).run()


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
_SWITCH_INTERVAL_S = 2e-4   # while this process both dispatches and simulates
_SWITCH_LOCK = threading.Lock()
_SWITCH_STATE = {"users": 0, "saved": None}


@contextlib.contextmanager
def _short_switch_interval():
    """Python's thread switch interval at most _SWITCH_INTERVAL_S while inside;
    the interval found by the first of concurrent callers (threads running
    MonteCarloSimulation at once) is restored when the last one leaves."""
    with _SWITCH_LOCK:
        if _SWITCH_STATE["users"] == 0:
            _SWITCH_STATE["saved"] = sys.getswitchinterval()
            sys.setswitchinterval(min(_SWITCH_STATE["saved"], _SWITCH_INTERVAL_S))
        _SWITCH_STATE["users"] += 1
    try:
        yield
    finally:
        with _SWITCH_LOCK:
            _SWITCH_STATE["users"] -= 1
            if _SWITCH_STATE["users"] == 0:
                sys.setswitchinterval(_SWITCH_STATE["saved"])


def _shared_pool(workers: int, context) -> ProcessPoolExecutor:
    """A forkserver/spawn pool kept for later calls (its workers start, and import
    the library, once); replaced if a worker died. The kept
    pools are shut down at interpreter exit (atexit runs while the modules they
    need still exist; left to garbage collection during shutdown, a pool's
    callback finds `multiprocessing` already gone and prints an error)."""
    key = (workers, context.get_start_method())
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None or getattr(pool, "_broken", False):
            from concurrent.futures import ProcessPoolExecutor
            if not _POOLS:
                atexit.register(_shut_down_pools)
            pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
            _POOLS[key] = pool
        return pool


def _shut_down_pools() -> None:
    """Shuts down the pools _shared_pool keeps (at interpreter exit)."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for pool in pools:
        pool.shutdown(wait=True, cancel_futures=True)


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
    return _finish_all(simulators, output, final_time, first_sample)


def _finish_all(simulators, output, final_time: float, first_sample: int) -> list:
    """_finish for each simulator; an error gets a note naming its sample."""
    values = []
    for k, simulator in enumerate(simulators):
        try:
            values.append(_finish(simulator, output, final_time))
        except Exception as exc:
            if hasattr(exc, "add_note"):
                exc.add_note(f"(in MonteCarloSimulation sample {first_sample + k})")
            raise
    return values


class _Dispatch:
    """The parallel runs' bookkeeping: each sample is prepared here, in sample order
    (Drake's order: make_simulator, then SetRandomContext, both from `generator`),
    then either sent to `pool` — pickled, in chunks — or run here.

    Chunks start at one sample (the pool's processes start at once instead of
    waiting for whole chunks to be made here), double after each round of
    `helpers` chunks up to `max_chunk`, and never exceed a share of the samples
    left, ceil(left / (2 × executions)) (guided self-scheduling: the last chunks
    are short, so everyone finishes together). At most `max_busy` chunks wait or run
    in the pool (with `run_here`, one per helper once no more samples are left than
    executions); when that many do, the next sample runs here if `run_here` (no
    pickling for it, and this process does a share of the simulations instead of
    waiting), else this process waits for the oldest chunk.

    Errors: the one of the earliest failing sample is raised, as serially — a chunk
    in the pool holds samples before any that is prepared or run here after it."""

    def __init__(self, pool, make_simulator, output, final_time, num_samples,
                 generator, *, executions, helpers, max_chunk, max_busy, run_here,
                 by_value):
        self.pool, self.make_simulator, self.output = pool, make_simulator, output
        self.final_time, self.num_samples = final_time, num_samples
        self.generator = generator
        self.executions, self.helpers = executions, helpers
        self.max_chunk, self.max_busy = max_chunk, max_busy
        self.run_here, self.by_value = run_here, by_value
        self.snapshots, self.values = [], [None] * num_samples
        self.pending = []       # (first sample, future), in sample order

    def _prepare(self):
        self.snapshots.append(copy.deepcopy(self.generator))
        return _prepared(self.make_simulator, self.generator, "MonteCarloSimulation")

    def _collect(self, block: bool) -> None:
        """Stores the outputs of finished chunks, oldest first (raises the first
        failure); block: wait for the oldest."""
        while self.pending and (block or self.pending[0][1].done()):
            start, future = self.pending.pop(0)
            block = False
            for k, value in enumerate(future.result()):
                self.values[start + k] = value

    def _earlier_errors_first(self) -> None:
        """Before raising an error of a sample prepared or run here: the samples in
        the pool come before it, so their errors are raised first."""
        for _, future in self.pending:
            future.exception()          # waits
        self._collect(block=False)

    def run(self) -> list:
        if not self.run_here:
            return self._run()
        # The pool's results reach `pending` through its manager thread, which needs
        # the GIL a dozen times per result; while this thread simulates, each
        # hand-over waits out the switch interval (5 ms by default), so finished
        # chunks would be seen late and this process would end up running most of
        # the samples itself. A short interval while dispatching keeps that latency
        # to a few ms.
        with _short_switch_interval():
            return self._run()

    def _run(self) -> list:
        start, size, chunks = 0, 1, 0
        try:
            while start < self.num_samples:
                self._collect(block=False)
                busy = sum(1 for _, future in self.pending if not future.done())
                left = self.num_samples - start
                max_busy = self.max_busy
                if self.run_here and left <= self.executions:
                    max_busy = self.helpers     # the last few: one chunk per helper
                if busy >= max_busy and not self.run_here:
                    self._collect(block=True)
                    continue
                try:
                    if busy < max_busy:
                        count = min(size, self.max_chunk,
                                    max(1, math.ceil(left / (2 * self.executions))))
                        simulators = [self._prepare() for _ in range(count)]
                        payload = _dumps((self.output, self.final_time, simulators),
                                         start, self.by_value)
                        del simulators
                        self.pending.append(
                            (start, self.pool.submit(_run_chunk, payload, start)))
                        start, chunks = start + count, chunks + 1
                        if chunks % self.helpers == 0:
                            size *= 2
                    else:
                        simulator = self._prepare()
                        self.values[start] = _finish_all(
                            [simulator], self.output, self.final_time, start)[0]
                        del simulator
                        start += 1
                except Exception:
                    self._earlier_errors_first()
                    raise
            self._collect(block=False)
            while self.pending:
                self._collect(block=True)
        except BaseException:
            for _, future in self.pending:
                future.cancel()
            raise
        return [RandomSimulationResult(snapshot, value)
                for snapshot, value in zip(self.snapshots, self.values)]
