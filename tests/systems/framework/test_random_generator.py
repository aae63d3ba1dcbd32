"""RandomGenerator gives Drake's mt19937 outputs, copies continue identically and
independently, and bad seeds are refused by value."""

import copy
import pickle

import pytest

from systems.framework import RandomGenerator


# pydrake 1.51.1: [RandomGenerator()() for 3 calls] and RandomGenerator(42).
DRAKE_DEFAULT_SEED_OUTPUTS = [3499211612, 581869302, 3890346734]


DRAKE_SEED_42_OUTPUTS = [1608637542, 3421126067]


def test_random_generator_gives_drakes_mt19937_outputs():
    generator = RandomGenerator()
    assert [generator() for _ in range(3)] == DRAKE_DEFAULT_SEED_OUTPUTS
    generator = RandomGenerator(42)
    assert [generator() for _ in range(2)] == DRAKE_SEED_42_OUTPUTS
    assert RandomGenerator.min() == 0 and RandomGenerator.max() == 2**32 - 1


def test_random_generator_copies_continue_identically_and_independently():
    generator = RandomGenerator(42)
    generator()
    copies = [copy.deepcopy(generator), pickle.loads(pickle.dumps(generator))]
    expected = [generator() for _ in range(4)]
    for other in copies:
        assert isinstance(other, RandomGenerator)
        assert [other() for _ in range(4)] == expected
    assert generator.standard_normal(2).shape == (2,)   # numpy's distributions work


@pytest.mark.parametrize("seed", [-1, 2**32, 1.5, "7"])
def test_random_generator_refuses_bad_seeds_by_value(seed):
    with pytest.raises((TypeError, ValueError), match=repr(seed).strip("'")):
        RandomGenerator(seed)
