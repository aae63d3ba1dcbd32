"""Renders the reference scenes of tests/scenegraph/render/render_scenes.py with
pydrake 1.51.1's RenderEngineVtk and stores the images for the agreement tests.

    /work/drake-venv/bin/python tools/render_drake_reference.py [--check]

Writes tests/reference_data/render/drake_render_reference.npz: for each scene
``<name>/color`` (H, W, 3) uint8, ``<name>/depth`` (H, W) float32 [m] and
``<name>/label`` (H, W) int16, plus ``scenes`` (the scene list as JSON) and
``pydrake_version``. Only tools/ imports pydrake. With ``--check`` it renders
and prints what it would store without writing.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "scenegraph" / "render"))

import render_scenes as rs  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="do not write the file")
    args = parser.parse_args(argv)
    import importlib.metadata
    version = importlib.metadata.version("drake")
    ns = rs.pydrake_namespace()
    scenes = rs.reference_scenes()
    arrays = {"scenes": np.array(json.dumps(scenes)),
              "pydrake_version": np.array(version)}
    for scene in scenes:
        sg, context, _, _, cameras = rs.build(scene, ns)
        color, depth, label = rs.render_all(sg, context, cameras, ns)
        arrays[f"{scene['name']}/color"] = color
        arrays[f"{scene['name']}/depth"] = depth.astype(np.float32)
        arrays[f"{scene['name']}/label"] = label.astype(np.int16)
        labels = sorted(set(label.ravel().tolist()))
        print(f"{scene['name']}: {color.shape[1]}x{color.shape[0]}, labels {labels}")
    if not args.check:
        np.savez_compressed(rs.REFERENCE, **arrays)
        print(f"wrote {rs.REFERENCE} ({rs.REFERENCE.stat().st_size} bytes), pydrake "
              f"{version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
