"""Returned arrays boxed from the environment's constants (scenegraph/_array_boxing.py):
a kernel returning arrays hands out ordinary, writable numpy arrays that own
their memory, and no return runs numba's unpickling of the array class."""
from __future__ import annotations

import cProfile
import gc
import pstats

import numpy as np
import numba

from scenegraph import _array_boxing, _jit  # noqa: F401  (_jit installs the boxer)


@numba.njit(cache=False)
def _two_arrays(n):
    rows = np.empty((n, 2), dtype=np.int64)
    values = np.empty((n, 3))
    for k in range(n):
        rows[k, 0], rows[k, 1] = k, k + 1
        values[k, 0], values[k, 1], values[k, 2] = 0.5 * k, -1.0, 2.0 ** k
    return 7, rows, values[1:]


def _unpickle_calls(call) -> int:
    profile = cProfile.Profile()
    profile.enable()
    call()
    profile.disable()
    stats = pstats.Stats(profile).stats
    return sum(entry[1] for key, entry in stats.items() if key[2] == "_numba_unpickle")


def test_the_installed_boxer_is_the_modules():
    from numba.core import pythonapi, types
    assert pythonapi._boxers.functions[types.Array] is _array_boxing.box_array


def test_returned_arrays_are_plain_writable_arrays_with_the_kernels_values():
    code, rows, values = _two_arrays(4)
    assert code == 7
    assert type(rows) is np.ndarray and type(values) is np.ndarray
    assert rows.dtype == np.int64 and values.dtype == np.float64
    np.testing.assert_array_equal(rows, [[0, 1], [1, 2], [2, 3], [3, 4]])
    np.testing.assert_array_equal(values, [[0.5, -1.0, 2.0], [1.0, -1.0, 4.0],
                                           [1.5, -1.0, 8.0]])
    assert rows.flags.writeable and values.flags.writeable
    values[0, 0] = 3.0
    assert values[0, 0] == 3.0


def test_returned_arrays_keep_their_memory_alive():
    _, rows, values = _two_arrays(1000)
    gc.collect()
    scratch = [np.full(3000, 9.0) for _ in range(50)]   # reuse any freed memory
    assert rows[999, 1] == 1000 and values[998, 0] == 499.5
    del scratch


def test_a_return_runs_no_unpickling():
    _two_arrays(3)      # compiled
    assert _unpickle_calls(lambda: [_two_arrays(3) for _ in range(20)]) == 0


def test_install_is_idempotent():
    _array_boxing.install()
    _array_boxing.install()
    from numba.core import pythonapi, types
    assert pythonapi._boxers.functions[types.Array] is _array_boxing.box_array
    assert _array_boxing._ORIGINAL[types.Array] is not _array_boxing.box_array
