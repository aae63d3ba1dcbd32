"""RandomGenerator (pydrake.common's): Drake's random number engine, std::mt19937.

``RandomGenerator()`` starts from Drake's default seed (5489, std::mt19937's) and
``RandomGenerator(seed)`` from `seed` (0 <= seed < 2**32); calling it returns the
engine's next 32-bit output — the same numbers pydrake's RandomGenerator gives for
the same seed (numpy's MT19937 seeded the way std::mt19937 seeds).

Extensions (pydrake's RandomGenerator cannot be copied or pickled, and has no other
methods): it is a ``numpy.random.Generator`` over that engine, so every numpy
distribution works on it (``generator.standard_normal(3)``); ``copy.deepcopy`` and
``pickle`` give an independent generator in the same state (what
``RandomSimulationResult.generator_snapshot`` holds, and how a sample is replayed in
another process). numpy's distributions are not libstdc++'s: only the raw 32-bit
outputs match pydrake.
"""
from __future__ import annotations

import numpy as np

__all__ = ["RandomGenerator"]


def _mt19937(seed: int) -> np.random.MT19937:
    """An MT19937 bit generator seeded as std::mt19937(seed) is."""
    bits = np.random.MT19937(0)
    bits.state = np.random.RandomState(seed).get_state(legacy=False)
    return bits


class RandomGenerator(np.random.Generator):
    """std::mt19937 (see the module docstring)."""

    default_seed = 5489

    def __init__(self, seed: int = 5489):
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"RandomGenerator(seed): seed must be an int; got {seed!r}")
        if not 0 <= int(seed) < 2**32:
            raise ValueError(f"RandomGenerator(seed): seed must be in [0, 2**32); got "
                             f"{seed}")
        super().__init__(_mt19937(int(seed)))

    def __call__(self) -> int:
        """The engine's next output, an int in [0, 2**32)."""
        return int(self.bit_generator.random_raw())

    @staticmethod
    def min() -> int:
        """Smallest output: 0 (std::mt19937::min())."""
        return 0

    @staticmethod
    def max() -> int:
        """Largest output: 2**32 − 1 (std::mt19937::max())."""
        return 2**32 - 1

    def __reduce__(self):
        return (_restore_generator, (self.bit_generator.state,))

    def __deepcopy__(self, memo) -> "RandomGenerator":
        return _restore_generator(self.bit_generator.state)

    def __copy__(self) -> "RandomGenerator":
        return _restore_generator(self.bit_generator.state)

    def __repr__(self) -> str:
        return f"<RandomGenerator mt19937 at position {self.bit_generator.state['state']['pos']}>"


def _restore_generator(state: dict) -> RandomGenerator:
    generator = RandomGenerator.__new__(RandomGenerator)
    bits = np.random.MT19937(0)
    bits.state = state
    np.random.Generator.__init__(generator, bits)
    return generator
