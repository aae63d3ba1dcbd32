"""The project's one set of numba settings for compiled kernels.

Every compiled kernel in the library is declared with `njit` from here:

* cache=True — machine code is written next to the source (``__pycache__``)
  and loaded by later processes; when that folder is not writable numba uses
  its user-wide cache, and ``NUMBA_CACHE_DIR`` (read by numba at import)
  overrides both.
* nogil=True — kernels release the GIL (threads can query in parallel).
* error_model="numpy" — division by zero gives inf/NaN as in numpy instead
  of raising (kernels test their denominators themselves).
* fastmath stays off: the proximity answers are exact to rounding, and
  reassociation would break the certificates.

Cache validity. numba stamps a cached kernel with the source of *its own*
file only, so a kernel whose callee in another module changed would load
stale machine code (after a ``git pull``, or an edit). Here every kernel of
this package is stamped instead with one digest of all the package's kernel
sources (each .py file that uses ``njit`` or a numba intrinsic): any change to
any of them recompiles them all, once. This is done with numba's cache
locator classes (subclasses of the three source-file locators, consulted
first and only for files of this package).

Kernels take only contiguous float64 / int64 arrays and scalars so that each
compiles exactly once.

Calling a kernel through numba's dispatcher resolves the type of every
argument on every call: about 0.1 µs per array, 0.2 µs per array inside a
named tuple (2.4 µs for the 13 arrays of PackedHulls). ``entry_point`` hands
out the compiled function for one fixed set of argument types, which skips
that step (3.8 -> 1.1 µs for PackedShapes + PackedHulls). It checks nothing:
an argument of another dtype, number of dimensions or layout is read as if it
had the compiled one (wrong memory, possibly a crash). Hot paths use it only
where every argument is built right there with fixed types, and keep the
dispatcher everywhere else.
"""
from __future__ import annotations

import functools
import hashlib
import os
import warnings

import numba
from numba.core import caching

__all__ = ["njit", "entry_point", "kernel_sources_digest", "sources_digest",
           "PACKAGE_LOCATORS"]

_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def sources_digest(directory: str) -> bytes:
    """sha256 over the kernel source files below `directory`: every .py file
    that mentions ``njit`` or ``intrinsic`` (relative path and content), plus
    numba's version."""
    digest = hashlib.sha256(numba.__version__.encode())
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                text = f.read()
            if b"njit" in text or b"intrinsic" in text:
                digest.update(os.path.relpath(path, directory).encode())
                digest.update(text)
    return digest.digest()


@functools.lru_cache(maxsize=None)
def kernel_sources_digest() -> bytes:
    """sources_digest of this package, computed once per process."""
    return sources_digest(_PACKAGE_DIR)


def _in_package(py_file) -> bool:
    return os.path.abspath(py_file).startswith(_PACKAGE_DIR + os.sep)


def _package_locator(base):
    """A subclass of numba's locator `base` that stamps this package's
    kernels with kernel_sources_digest() and declines every other file."""

    class Locator(base):
        def get_source_stamp(self):
            return kernel_sources_digest()

        @classmethod
        def from_function(cls, py_func, py_file):
            if not _in_package(py_file):
                return None
            return super().from_function(py_func, py_file)

    Locator.__name__ = Locator.__qualname__ = "Package" + base.__name__
    return Locator


PACKAGE_LOCATORS = tuple(_package_locator(base) for base in (
    caching.UserProvidedCacheLocator, caching.InTreeCacheLocator,
    caching.UserWideCacheLocator))
if not any(c.__name__ == PACKAGE_LOCATORS[0].__name__
           for c in caching.CacheImpl._locator_classes):
    caching.CacheImpl._locator_classes[:0] = list(PACKAGE_LOCATORS)


def _compile_lazily(function, options):
    try:
        return numba.njit(**options)(function)
    except RuntimeError as exc:
        if "no locator available" not in str(exc):
            raise
        # No writable cache folder anywhere (read-only install, no writable
        # home, no NUMBA_CACHE_DIR): compile in every process instead.
        warnings.warn(f"numba cannot cache {function.__qualname__} ({exc}); it will be "
                      f"compiled in every process. Set NUMBA_CACHE_DIR to a writable "
                      f"folder to keep compiled kernels.", RuntimeWarning, stacklevel=3)
        return numba.njit(**{**options, "cache": False})(function)


def njit(function=None, **options):
    """numba.njit with the project's options (see the module docstring);
    usable bare (``@njit``) or with extra options (``@njit(inline="always")``).
    Where no cache folder is writable, kernels compile per process (with a
    warning) rather than failing at import."""
    merged = {**_OPTIONS, **options}
    if function is None:
        return lambda f: _compile_lazily(f, merged)
    return _compile_lazily(function, merged)


def entry_point(dispatcher, args):
    """The machine-code entry of `dispatcher` compiled for the types of
    `args` (compiled, or loaded from the cache, now), callable as
    ``entry(*args)`` without numba's per-call type resolution.

    Unchecked: later calls must pass arguments of exactly these types (same
    dtype, ndim, layout, writability; the same named-tuple types), which the
    caller guarantees by construction (see the module docstring)."""
    if not hasattr(dispatcher, "compile"):  # NUMBA_DISABLE_JIT=1: a plain function
        return dispatcher
    signature = tuple(numba.typeof(a) for a in args)
    return dispatcher.compile(signature)
