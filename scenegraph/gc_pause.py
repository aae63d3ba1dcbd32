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
it (also when it raises). Users: the Parser (a whole AddModels), the plant's
first forward kinematics (loading its kernel) and SceneGraph's context
creation (loading the pair-query kernels, scenegraph._warmup).

When the last block ends, the objects made meanwhile are moved to the
collector's oldest generation unexamined (`promote_young`), with whatever
else was young at that moment, unless every block in that time was opened
with ``promote=False`` (the Parser: a parse that fails, or a reader's
temporary structures, can leave cyclic garbage, which the next young pass
should find). Left in the youngest generation, they would all be walked by
the first automatic pass after the block (one pass over everything the block
made: ~20-30 ms of CPU after numba's import and the first kernel loads, at a
robot's first query), then again by the next middle-generation pass, only to
be kept: they are the model and the loaded kernels. In the oldest generation
they are examined by the next full collection, as every long-lived object
is; cyclic garbage formed in the block (or young before it) is collected
then, not sooner. This is ``gc.freeze()`` followed at once by
``gc.unfreeze()`` (two list splices), so nothing stays frozen; it is skipped
when the program has frozen objects itself (unfreezing would release them).

Nested and concurrent blocks share one count: collection resumes when the
last block ends, and only if it was enabled when the first began (a program
that disabled the collector itself keeps it disabled, and its young objects
where they are). Only automatic collection is paused; ``gc.collect()`` still
runs when called.
"""
from __future__ import annotations

import contextlib
import gc
import threading

__all__ = ["paused_gc", "promote_young"]

_LOCK = threading.Lock()
_depth = 0
_resume = False
_promote = False


@contextlib.contextmanager
def paused_gc(promote: bool = True):
    """Automatic garbage collection off while the block runs; with
    `promote`, what it makes is moved to the oldest generation when the
    last block ends (see the module docstring)."""
    global _depth, _resume, _promote
    with _LOCK:
        if _depth == 0:
            _resume = gc.isenabled()
            _promote = False
            gc.disable()
        _depth += 1
        _promote = _promote or promote
    try:
        yield
    finally:
        with _LOCK:
            _depth -= 1
            if _depth == 0 and _resume:
                if _promote:
                    promote_young()
                gc.enable()


def promote_young() -> None:
    """Moves every object in the collector's young generations to its
    oldest, without examining them (see the module docstring); nothing when
    the program has objects frozen (gc.freeze) itself."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()
