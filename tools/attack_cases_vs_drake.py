"""Runs the hand-written bad calls of tests/robustness/attack_cases.py in this
library and in pydrake 1.51.1, each case in a forked child (a hang or a crash
costs one case, never the run), and prints the two outcomes side by side.

    .venv/bin/python tools/attack_cases_vs_drake.py [--timeout 20] [--json out.json]
        [--only SUBSTRING]

pydrake runs in the scratch virtualenv (/work/drake-venv) as a subprocess of
this script (`--side drake`), on the same cases and with the same limits: a
child gets `--timeout` seconds and a 3 GB address space (an XML bomb or
/dev/zero cannot take the machine down); a child that times out or dies is
recorded as {"outcome": "hang"} or {"outcome": "died", "signal": ...}.

Columns: the case, who would try it (attacker / careless), this library's
outcome, pydrake's; a line is marked '*' when one side raised and the other
did not, or the two returned different values.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.robustness import attack_cases  # noqa: E402  (imports neither library)
from tests.robustness.isolated import run_isolated  # noqa: E402

DRAKE_PYTHON = "/work/drake-venv/bin/python"


def pydrake_api():
    """pydrake's names, as the cases use them."""
    import types

    from pydrake.geometry import (Box, FramePoseVector, GeometryInstance,
                                  ProximityProperties, SceneGraph, Sphere)
    from pydrake.math import RigidTransform, RollPitchYaw, RotationMatrix
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import AddMultibodyPlantSceneGraph, MultibodyPlant
    from pydrake.multibody.tree import (BodyIndex, FixedOffsetFrame, FrameIndex,
                                        JacobianWrtVariable, JointIndex, ModelInstanceIndex,
                                        PrismaticJoint, RevoluteJoint, RotationalInertia,
                                        SpatialInertia, UnitInertia, WeldJoint)
    from pydrake.systems.analysis import Simulator
    from pydrake.systems.framework import DiagramBuilder
    return types.SimpleNamespace(**{k: v for k, v in locals().items() if k != "types"})


def run_side(side: str, names, timeout: float) -> dict:
    api = pydrake_api() if side == "drake" else attack_cases.api_here()
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k, name in enumerate(names):
            out[name] = run_isolated(attack_cases.run_case,
                                     (name, api, pathlib.Path(tmp) / f"case{k}"), timeout)
    return out


def _short(record: dict) -> str:
    if record["outcome"] == "ok":
        return f"ok {json.dumps(record['value'])[:60]}"
    if record["outcome"] == "error":
        return f"{record['type']}: {record['message'][:90]}"
    return json.dumps(record)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", choices=("ours", "drake", "both"), default="both")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--only", default="")
    parser.add_argument("--json", default=None, help="write both sides' records here")
    args = parser.parse_args(argv)
    names = [n for n in attack_cases.CASES if args.only in n]
    if args.side != "both":
        print(json.dumps(run_side(args.side, names, args.timeout)))
        return 0
    drake = subprocess.run([DRAKE_PYTHON, __file__, "--side", "drake", "--timeout",
                            str(args.timeout), "--only", args.only],
                           capture_output=True, text=True, check=True)
    theirs = json.loads(drake.stdout.strip().splitlines()[-1])
    ours = run_side("ours", names, args.timeout)
    differ = 0
    for name in names:
        a, b = ours[name], theirs[name]
        mark = "*" if (a["outcome"] != b["outcome"] or a.get("value") != b.get("value")) \
            else " "
        differ += mark == "*"
        print(f"{mark} [{attack_cases.CASES[name][0]}] {name}\n    ours:   {_short(a)}\n"
              f"    pydrake: {_short(b)}")
    print(f"{len(names)} cases, {differ} with different outcomes")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps({"ours": ours, "pydrake": theirs},
                                                      indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
