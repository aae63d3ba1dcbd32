"""Python's cyclic garbage collector paused while a model is built or its
compiled kernels are loaded.

A parse (and Finalize) creates thousands of small objects that all stay alive —
elements, bodies, frames, geometries, properties — and almost no reference
cycles that die; so does loading compiled kernels (their modules' dispatchers,
unpickled code libraries and environments). Each of the collector's automatic
passes then walks survivors only, and a full (generation 2) pass walks every
tracked object of the process: with numba's compiled kernels loaded that is
over a hundred thousand objects, and a robot's first load in a process would
trigger several such passes (docs/speed.md § Loading robots has the figures).
``paused_gc()`` turns automatic collection off for the block and back on after
it (also when it raises); garbage that does form is collected by the next
automatic pass, as usual. Users: the Parser (a whole AddModels), the plant's
first forward kinematics (loading its kernel) and SceneGraph's context
creation (loading the pair-query kernels, scenegraph._warmup).

Nested and concurrent blocks share one count: collection resumes when the
last block ends, and only if it was enabled when the first began (a program
that disabled the collector itself keeps it disabled). Only automatic
collection is paused; ``gc.collect()`` still runs when called.
"""
from __future__ import annotations

import contextlib
import gc
import threading

__all__ = ["paused_gc"]

_LOCK = threading.Lock()
_depth = 0
_resume = False


@contextlib.contextmanager
def paused_gc():
    """Automatic garbage collection off while the block runs (see the
    module docstring)."""
    global _depth, _resume
    with _LOCK:
        if _depth == 0:
            _resume = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _LOCK:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()
