"""RandomDistribution (pydrake.common's): the distributions RandomSource and random
input ports draw from — kUniform on [0, 1), kGaussian N(0, 1), kExponential (rate 1)."""
from __future__ import annotations

import enum

import numpy as np

__all__ = ["RandomDistribution", "draw"]


class RandomDistribution(enum.IntEnum):
    """The distribution of random samples: kUniform on [0, 1), kGaussian with mean 0
    and variance 1, kExponential with rate 1."""
    kUniform = 0
    kGaussian = 1
    kExponential = 2


def draw(distribution, generator, size: int) -> np.ndarray:
    """`size` samples of `distribution` from a numpy Generator."""
    kind = RandomDistribution(distribution)
    if kind == RandomDistribution.kUniform:
        return generator.uniform(0.0, 1.0, size)
    if kind == RandomDistribution.kGaussian:
        return generator.standard_normal(size)
    return generator.exponential(1.0, size)
