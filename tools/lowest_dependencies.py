"""The test suite on the oldest versions pyproject.toml allows.

    python3 tools/lowest_dependencies.py [--keep DIR] [--only-install] [-- PYTEST ARGS]

pyproject.toml's core requirements give each dependency a lower bound
(``numpy>=1.26``); a bound nobody has run on is a promise nobody checked. This
script makes a new virtualenv, installs this checkout with its ``[test]``
extra under constraints that pin every core dependency with a lower bound to
that bound (``numpy==1.26``, which is 1.26.0), and runs pytest there on a copy of the checkout
(its own compile cache, which starts empty: a cold run, ~10-25 minutes on 2
cores). A pin the test extra cannot live with (dask's distributed needs a
newer tornado than the core's bound) is dropped, named, and the resolver's
choice printed; the core install alone honours it (``--only-install`` stops
after installing, to try the demo there).

Nothing in the library imports this script. Last run (2026-11-29, before
numpy's bound moved to 1.26.1): numpy 1.26.0, scipy 1.10.0, networkx 3.0,
trimesh 4.0.0, numba 0.66.0, meshcat 0.3.2, pycollada 0.8, pillow 9.1.0
(tornado 6.6.1 with the test extra): 5576 passed, 2 failed — pydrake's
pickles need numpy 1.26.1 (the first 1.x that reads numpy 2 pickles, hence
the bound) and a probe that assumed numpy 2's lazy numpy.ma (fixed); both
pass on numpy 1.26.1.
"""
from __future__ import annotations

import argparse
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def lower_bounds(requirements) -> dict:
    """{distribution: its lower bound} of the requirements holding ``>=X``."""
    bounds = {}
    for requirement in requirements:
        match = re.match(r"\s*([A-Za-z0-9_.\-]+)[^;]*?>=\s*([0-9][0-9A-Za-z.]*)", requirement)
        if match:
            bounds[match[1].lower()] = match[2]
    return bounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it")
    parser.add_argument("--only-install", action="store_true")
    parser.add_argument("pytest_args", nargs="*", default=["-q", "-p", "no:warnings"])
    args = parser.parse_args()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    bounds = lower_bounds(project["dependencies"])
    work = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="lowest-deps-"))
    work.mkdir(parents=True, exist_ok=True)
    copy = work / "checkout"
    if not copy.exists():
        subprocess.run(["git", "clone", "-q", str(ROOT), str(copy)], check=True)
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    pins = dict(bounds)
    core = work / "core.txt"
    core.write_text("".join(f"{name}=={version}\n" for name, version in pins.items()))
    result = subprocess.run([str(python), "-m", "pip", "install", "-q", "-e", ".",
                             "-c", str(core)], cwd=copy, capture_output=True, text=True)
    if result.returncode:
        print(result.stderr[-3000:])
        return result.returncode
    print("core install at the lower bounds:", ", ".join(f"{n} {v}" for n, v in pins.items()))
    if args.only_install:
        print(f"virtualenv: {venv}  checkout: {copy}")
        return 0
    while True:
        constraints = work / "constraints.txt"
        constraints.write_text("".join(f"{n}=={v}\n" for n, v in pins.items()))
        result = subprocess.run([str(python), "-m", "pip", "install", "-e", ".[test]",
                                 "-c", str(constraints)], cwd=copy, capture_output=True,
                                text=True)
        if result.returncode == 0:
            break
        named = re.findall(r"The user requested \(constraint\) ([A-Za-z0-9_.\-]+)==",
                           result.stdout + result.stderr)
        conflicting = [name for name in pins if name in {n.lower() for n in named}]
        if not conflicting:
            print(result.stdout[-3000:], result.stderr[-3000:])
            return result.returncode
        for name in conflicting:
            print(f"the test extra needs a newer {name} than {pins.pop(name)}: pin dropped")
    freeze = subprocess.run([str(python), "-m", "pip", "freeze"], capture_output=True,
                            text=True).stdout.lower()
    chosen = {name: re.search(rf"^{re.escape(name)}==(\S+)", freeze, re.MULTILINE)
              for name in bounds}
    print("installed:", ", ".join(f"{n} {m[1] if m else '?'}" for n, m in chosen.items()))
    status = subprocess.run([str(python), "-m", "pytest", *args.pytest_args], cwd=copy)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return status.returncode


if __name__ == "__main__":
    sys.exit(main())
