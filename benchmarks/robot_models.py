"""example-robot-data's URDFs for the robot benchmarks, and OBJ copies of them.

pydrake 1.51's Parser refuses collision meshes that are not .obj/.vtk/.gltf,
and most of example-robot-data's robots name STL or COLLADA (.dae) files. To
time both libraries on the same work, the benchmarks load *OBJ copies*: the
URDF's description folder is copied into a cache folder laid out as the
package ``example-robot-data`` (``<cache>/robots/<description>/...``), every
STL/DAE mesh the URDF names is converted to ``<file>.obj`` next to it (trimesh:
``trimesh.load(path, force="mesh")``, a COLLADA scene's node transforms
applied, the file's units kept; vertices and triangles only, coordinates
written with repr() so that they round-trip exactly), and the URDF's mesh
filenames are rewritten to the copies (``package://`` and ``package:///``
forms kept as they were). Files the URDF names that are already .obj are
copied unchanged (with the rest of the folder: .mtl, textures).

Nothing here imports either library: benchmarks/bench_robots.py and
benchmarks/load_all_robots.py use it with this project's virtualenv, and the
tools/ scripts that time pydrake import it with pydrake's (both venvs hold the
same example-robot-data and trimesh; the copies are made once and shared).

The cache folder is ``$SCENEGRAPH_ROBOT_CACHE`` if set, else
``~/.cache/scenegraph-benchmarks/example-robot-data-<version>-obj``. A copy
is complete when its URDF exists (written last, atomically), so concurrent or
interrupted runs never see half a robot.

Run as a script to make the copies ahead of timing:

    .venv/bin/python benchmarks/robot_models.py [--all | KEY ...]
"""
from __future__ import annotations

import argparse
import importlib.metadata
import os
import pathlib
import re
import shutil
import sys
import tempfile

PACKAGE = "example-robot-data"

# The benchmark's robots: key -> URDF path relative to <package root>/robots.
ROBOTS = {
    "panda": "panda_description/urdf/panda.urdf",
    "ur5": "ur_description/urdf/ur5_robot.urdf",
    "kinova": "kinova_description/robots/kinova.urdf",
    "xarm7": "xarm_description/urdf/xarm7.urdf",
    "z1": "z1_description/urdf/z1.urdf",
    "so100": "so_arm_description/urdf/so100.urdf",
    "go2": "go2_description/urdf/go2.urdf",
    "solo12": "solo_description/robots/solo12.urdf",
    "tiago": "tiago_description/robots/tiago.urdf",
    "talos": "talos_data/robots/talos_reduced.urdf",
    "double_pendulum": "double_pendulum_description/urdf/double_pendulum.urdf",
    "allegro": "allegro_hand_description/urdf/allegro_right_hand.urdf",
    "g1": "g1_description/urdf/g1_29dof_rev_1_0.urdf",
    "romeo": "romeo_description/urdf/romeo_small.urdf",
}

CONVERTED = (".stl", ".dae")       # lower-cased suffixes converted to OBJ
# A package URI in a filename attribute: group 1 "package://" or "package:///",
# group 2 the package name, group 3 the path inside it.
_PACKAGE_URI = re.compile(r'filename="(package:/{2,3})([^/"]+)/([^"]+)"')


def package_root() -> pathlib.Path:
    """The installed folder that is the package ``example-robot-data``."""
    dist = importlib.metadata.distribution(PACKAGE)
    return pathlib.Path(dist.locate_file(f"cmeel.prefix/share/{PACKAGE}"))


def package_version() -> str:
    return importlib.metadata.version(PACKAGE)


def all_urdfs(root: pathlib.Path | None = None) -> list:
    """Every URDF of the package, as paths relative to <root>/robots, sorted."""
    robots = (root or package_root()) / "robots"
    return sorted(p.relative_to(robots).as_posix() for p in robots.rglob("*.urdf"))


def urdf_path(key_or_rel: str) -> str:
    """A benchmark key (``panda``) or a path relative to robots/, as the latter."""
    return ROBOTS.get(key_or_rel, key_or_rel)


def cache_root() -> pathlib.Path:
    """The package root of the OBJ copies (see the module docstring)."""
    configured = os.environ.get("SCENEGRAPH_ROBOT_CACHE")
    if configured:
        return pathlib.Path(configured)
    base = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache")
    return base / "scenegraph-benchmarks" / f"{PACKAGE}-{package_version()}-obj"


def pycache_prefix() -> pathlib.Path:
    """PYTHONPYCACHEPREFIX of the measured processes (bench_robots.process_env):
    a folder next to cache_root()."""
    return cache_root().parent / "pycache"


def package_map(urdf: pathlib.Path, root: pathlib.Path) -> dict:
    """{package name: folder} for the packages `urdf`'s mesh URIs name:
    ``example-robot-data`` is `root`; any other name (b1's URDFs use
    ``package://b1_description``) is the folder of that name below
    <root>/robots when there is one (a ROS user's package path would give the
    same). Names that match no folder are left out (those meshes fail to
    resolve, as they would for a user)."""
    entries = {PACKAGE: str(root)}
    for _, name, _ in _PACKAGE_URI.findall(urdf.read_text(errors="replace")):
        if name != PACKAGE and (root / "robots" / name).is_dir():
            entries[name] = str(root / "robots" / name)
    return entries


def _mesh_source(root: pathlib.Path, package: str, rel: str) -> pathlib.Path:
    """The file a package URI names below `root` (the original package)."""
    if package == PACKAGE:
        return root / rel
    return root / "robots" / package / rel


def _atomic_write_text(path: pathlib.Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + ".")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def write_obj(source: pathlib.Path, target: pathlib.Path) -> None:
    """Writes `source` (STL or DAE, read by trimesh as one mesh in the file's
    own units) to `target` as an OBJ with vertices and triangles only."""
    import numpy as np
    import trimesh
    mesh = trimesh.load(str(source), force="mesh")
    lines = [f"v {x!r} {y!r} {z!r}"
             for x, y, z in np.asarray(mesh.vertices, dtype=float).tolist()]
    lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in np.asarray(mesh.faces).tolist()]
    _atomic_write_text(target, "\n".join(lines) + "\n")


def _copy_folder(source: pathlib.Path, target: pathlib.Path) -> None:
    """Copies `source` into `target` once, without STL/DAE meshes and URDFs
    (converted and rewritten on demand); a marker file records completion."""
    marker = target / ".copied"
    if marker.exists() or not source.is_dir():
        return

    def ignore(folder, names):
        return [n for n in names if pathlib.Path(n).suffix.lower() in CONVERTED + (".urdf",)
                and os.path.isfile(os.path.join(folder, n))]

    shutil.copytree(source, target, ignore=ignore, dirs_exist_ok=True)
    marker.write_text("")


def obj_copy(key_or_rel: str, cache: pathlib.Path | None = None,
             root: pathlib.Path | None = None) -> pathlib.Path:
    """The OBJ copy of a robot's URDF (made if missing): a benchmark key or a
    path relative to robots/. Returns the copied URDF's path; its package
    root is `cache` (default cache_root())."""
    rel_urdf = urdf_path(key_or_rel)
    root = root or package_root()
    cache = cache or cache_root()
    target = cache / "robots" / rel_urdf
    if target.exists():
        return target
    source_urdf = root / "robots" / rel_urdf
    (cache / "robots").mkdir(parents=True, exist_ok=True)
    if not (cache / "package.xml").exists() and (root / "package.xml").exists():
        shutil.copyfile(root / "package.xml", cache / "package.xml")
    _copy_folder(root / "robots" / rel_urdf.split("/")[0],
                 cache / "robots" / rel_urdf.split("/")[0])

    def replace(match: re.Match) -> str:
        scheme, package, rel = match.groups()
        source = _mesh_source(root, package, rel)
        copy = _mesh_source(cache, package, rel)
        if source.suffix.lower() in CONVERTED:
            rel += ".obj"
            converted = _mesh_source(cache, package, rel)
            if source.exists() and not converted.exists():
                write_obj(source, converted)
        elif source.is_file() and not copy.exists():
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copy)
        return f'filename="{scheme}{package}/{rel}"'

    text = _PACKAGE_URI.sub(replace, source_urdf.read_text())
    _atomic_write_text(target, text)
    return target


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Makes the OBJ copies ahead of timing.")
    parser.add_argument("robots", nargs="*", help="keys or paths below robots/ "
                        "(default: the benchmark's robots)")
    parser.add_argument("--all", action="store_true", help=f"all of {PACKAGE}'s URDFs")
    args = parser.parse_args(argv)
    names = all_urdfs() if args.all else (args.robots or list(ROBOTS))
    for name in names:
        try:
            print(f"{name:60s} {obj_copy(name)}", flush=True)
        except Exception as error:  # noqa: BLE001  report and go on
            print(f"{name:60s} FAILED: {type(error).__name__}: {error}", flush=True)
    print(f"cache: {cache_root()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
