"""The project's one set of numba settings for compiled kernels.

Every compiled kernel in the library is declared with `njit` from here:

* cache=True — machine code is written next to the source (``__pycache__``)
  and loaded by later processes; when that folder is not writable numba uses
  its user-wide cache, and ``NUMBA_CACHE_DIR`` (read by numba at import)
  overrides both. A cache is invalidated when the source or numba changes.
* nogil=True — kernels release the GIL (threads can query in parallel).
* error_model="numpy" — division by zero gives inf/NaN as in numpy instead
  of raising (kernels test their denominators themselves).
* fastmath stays off: the proximity answers are exact to rounding, and
  reassociation would break the certificates.

Kernels take only contiguous float64 / int64 arrays and scalars so that each
compiles exactly once.
"""
from __future__ import annotations

import numba

__all__ = ["njit"]

_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")


def njit(function=None, **options):
    """numba.njit with the project's options (see the module docstring);
    usable bare (``@njit``) or with extra options (``@njit(inline="always")``)."""
    merged = {**_OPTIONS, **options}
    if function is None:
        return lambda f: numba.njit(**merged)(f)
    return numba.njit(**merged)(function)
