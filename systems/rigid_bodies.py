"""Moved: RigidBodies and its helpers now live in ``scenegraph.rigid_bodies``.

A geometry consumer belongs beside the geometry it uses, and ``systems`` never
imports ``scenegraph``. This module keeps the old import path
working: ``from systems.rigid_bodies import RigidBodies`` imports
``scenegraph.rigid_bodies`` on first access to one of its names, so
``import systems`` alone still leaves ``scenegraph`` unimported. New code
imports ``scenegraph.rigid_bodies``.
"""
from __future__ import annotations

import importlib

_MOVED_TO = "scenegraph.rigid_bodies"
_NAMES = ("GRAVITY_W", "BodySpec", "RigidBodies", "add_table", "box_body", "capsule_body",
          "convex_body", "cylinder_body", "rotations", "sphere_body")


def __getattr__(name: str):
    """The moved module's `name`, imported from scenegraph.rigid_bodies on first use."""
    if name not in _NAMES:
        raise AttributeError(f"module 'systems.rigid_bodies' has no attribute {name!r} "
                             f"(it moved to {_MOVED_TO})")
    value = getattr(importlib.import_module(_MOVED_TO), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_NAMES))
