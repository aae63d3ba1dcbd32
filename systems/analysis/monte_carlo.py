"""RandomSimulation, MonteCarloSimulation and RandomSimulationResult (pydrake's).

`make_simulator(generator)` builds a Simulator (drawing any random choices it wants
from `generator`); the system's random context is set from the generator
(System.SetRandomContext), the simulation is advanced to `final_time`, and
`output(system, context)` gives the scalar recorded. `generator` is any object the
callables understand (a numpy Generator works); MonteCarloSimulation stores a deep
copy taken before each sample, so that a sample can be replayed. Samples run one
after another (pydrake's `parallelism` argument is accepted and ignored).
"""
from __future__ import annotations

import copy

import numpy as np

__all__ = ["RandomSimulation", "MonteCarloSimulation", "RandomSimulationResult"]


class RandomSimulationResult:
    """One Monte Carlo sample: ``output`` (float) and ``generator_snapshot`` (a copy of
    the generator taken before the sample)."""

    def __init__(self, generator_snapshot, output: float = float("nan")):
        self.generator_snapshot = generator_snapshot
        self.output = output

    def __repr__(self) -> str:
        return f"RandomSimulationResult(output={self.output!r})"


def _default_generator(generator):
    return np.random.default_rng(0) if generator is None else generator


def RandomSimulation(make_simulator, output, final_time: float, generator=None) -> float:
    """Runs one random simulation and returns ``output(system, context)`` at
    `final_time` [s]."""
    generator = _default_generator(generator)
    simulator = make_simulator(generator)
    system = simulator.get_system()
    context = simulator.get_mutable_context()
    system.SetRandomContext(context, generator)
    simulator.Initialize()
    simulator.AdvanceTo(float(final_time))
    return float(output(system, context))


def MonteCarloSimulation(make_simulator, output, final_time: float, num_samples: int,
                         generator=None, parallelism=None) -> list:
    """`num_samples` RandomSimulation results (a list of RandomSimulationResult)."""
    if int(num_samples) < 0:
        raise ValueError(f"MonteCarloSimulation: num_samples must be >= 0; got "
                         f"{num_samples}")
    generator = _default_generator(generator)
    results = []
    for _ in range(int(num_samples)):
        snapshot = copy.deepcopy(generator)
        value = RandomSimulation(make_simulator, output, final_time, generator)
        results.append(RandomSimulationResult(snapshot, value))
    return results
