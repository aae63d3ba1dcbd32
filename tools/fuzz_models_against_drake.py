"""Fuzzes the robot-loading path against pydrake 1.51.1: seeded mutations of
a URDF, an MJCF and an SDFormat model (seed % 3 picks the format; elements
and attributes dropped, duplicated, renamed, given hostile values or text;
joint types and link, frame and class references changed; unknown elements
added; the text truncated or a byte flipped), each loaded into a fresh plant
by both libraries, then finalized and posed.

    .venv/bin/python tools/fuzz_models_against_drake.py --seeds 0-399 [--timeout 30]
        [--json out.json] [--show 40]

Every case runs in a forked child (tests/robustness/isolated.py: a time limit and
a 3 GB address space), pydrake's in the scratch virtualenv (/work/drake-venv)
as a subprocess of this script (`--side drake`). A case that runs out of time
is tried once more with four times the limit (a loaded machine is not a
hang); its record then says "slow". For a model both accept, the
comparison covers what a user reads back: body names, joint names and types,
nq and nv, position limits, default positions, collision geometries per
body, and every body's pose in world at the default configuration and at a
seeded one (1-dof joints set by name, so the q orders need not agree).

Printed: a count per class -- both refuse; we refuse and pydrake loads; we
load and pydrake refuses; both load and agree; both load and differ; our
error not a ParsingError/RuntimeError/ValueError naming the file (a crash);
a hang or a dead child on either side -- then the first `--show` cases of
every class but agreement, each with its seed, its mutations and both
outcomes. A case's model is rebuilt from its seed alone
(`--dump SEED` prints it).
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import math
import pathlib
import random
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.robustness.isolated import run_isolated  # noqa: E402

DRAKE_PYTHON = "/work/drake-venv/bin/python"
TIME_STEP = 0.01       # a discrete plant: pydrake refuses mimic joints on continuous ones

URDF = """<?xml version="1.0"?>
<robot name="fuzz" xmlns:drake="http://drake.mit.edu">
  <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material>
  <link name="base">
    <inertial><origin xyz="0 0 0.05"/><mass value="2"/>
      <inertia ixx="0.01" iyy="0.02" izz="0.025" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision>
    <visual><geometry><box size="0.2 0.2 0.1"/></geometry><material name="grey"/></visual>
  </link>
  <link name="upper">
    <inertial><origin xyz="0 0 0.1" rpy="0 0 1.5707963267948966"/><mass value="1"/>
      <inertia ixx="0.004" iyy="0.001" izz="0.004" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 0.1"/><geometry><cylinder radius="0.02" length="0.2"/>
      </geometry></collision>
    <collision name="knuckle"><geometry><sphere radius="0.03"/></geometry></collision>
  </link>
  <link name="lower">
    <inertial><mass value="0.5"/>
      <inertia ixx="0.002" iyy="0.002" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 0.1" rpy="0.3 0 0"/><geometry>
      <capsule radius="0.02" length="0.15"/></geometry></collision>
  </link>
  <link name="slider">
    <inertial><mass value="0.2"/>
      <inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.05 0.05 0.05"/></geometry></collision>
  </link>
  <link name="finger_left">
    <inertial><mass value="0.05"/>
      <inertia ixx="0.0001" iyy="0.0001" izz="0.0001" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.01 0.02 0.04"/></geometry></collision>
  </link>
  <link name="finger_right">
    <inertial><mass value="0.05"/>
      <inertia ixx="0.0001" iyy="0.0001" izz="0.0001" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.01 0.02 0.04"/></geometry></collision>
  </link>
  <link name="tool"/>
  <joint name="shoulder" type="revolute">
    <origin xyz="0 0 0.1"/><parent link="base"/><child link="upper"/>
    <axis xyz="0 0 1"/><limit lower="-1.5" upper="1.5" effort="30" velocity="2"/>
    <dynamics damping="0.1"/>
  </joint>
  <joint name="elbow" type="continuous">
    <origin xyz="0 0 0.2" rpy="0.1 0.2 0.3"/><parent link="upper"/><child link="lower"/>
    <axis xyz="0 1 0"/>
  </joint>
  <joint name="slide" type="prismatic">
    <origin xyz="0 0 0.2"/><parent link="lower"/><child link="slider"/>
    <axis xyz="0 0 1"/><limit lower="-0.05" upper="0.1" effort="5" velocity="1"/>
  </joint>
  <joint name="left" type="prismatic">
    <origin xyz="0 0.02 0"/><parent link="slider"/><child link="finger_left"/>
    <axis xyz="0 1 0"/><limit lower="0" upper="0.04" effort="5" velocity="1"/>
  </joint>
  <joint name="right" type="prismatic">
    <origin xyz="0 -0.02 0"/><parent link="slider"/><child link="finger_right"/>
    <axis xyz="0 -1 0"/><limit lower="0" upper="0.04" effort="5" velocity="1"/>
    <mimic joint="left" multiplier="1" offset="0"/>
  </joint>
  <joint name="tool_mount" type="fixed">
    <origin xyz="0 0 0.05" rpy="0 1.5707963267948966 0"/><parent link="slider"/>
    <child link="tool"/>
  </joint>
  <drake:collision_filter_group name="hand">
    <drake:member link="finger_left"/><drake:member link="finger_right"/>
    <drake:ignored_collision_filter_group name="hand"/>
  </drake:collision_filter_group>
</robot>
"""

MJCF = """<mujoco model="fuzz">
  <compiler angle="radian" autolimits="true"/>
  <default>
    <joint damping="0.1"/>
    <geom rgba="0.3 0.3 0.3 1"/>
    <default class="limb">
      <joint type="hinge" axis="0 1 0" range="-1.5 1.5"/>
      <geom type="capsule" size="0.03"/>
    </default>
  </default>
  <worldbody>
    <geom name="floor" type="box" size="1 1 0.05" pos="0 0 -0.05"/>
    <site name="target" pos="0.5 0 0.2"/>
    <body name="base" pos="0 0 0.5" euler="0 0 1.5707963267948966">
      <geom name="base_box" type="box" size="0.1 0.1 0.05"/>
      <body name="upper" pos="0 0 0.1" childclass="limb">
        <joint name="shoulder"/>
        <geom name="upper_geom" fromto="0 0 0 0 0 0.3"/>
        <body name="lower" pos="0 0 0.3">
          <joint name="elbow" limited="false"/>
          <geom name="lower_cyl" type="cylinder" size="0.025 0.12" pos="0 0 0.12"/>
          <geom name="lower_ellipsoid" type="ellipsoid" size="0.03 0.04 0.05" pos="0 0 0.3"
                axisangle="1 0 0 0.7"/>
          <body name="hand" pos="0 0 0.4" xyaxes="0 1 0 -1 0 0">
            <joint name="wrist_slide" type="slide" axis="0 0 1" range="-0.05 0.05"/>
            <geom name="hand_sphere" type="sphere" size="0.04" pos="0 0 0.05"/>
            <site name="grip" pos="0 0 0.1"/>
          </body>
        </body>
      </body>
    </body>
    <body name="ball" pos="1 0 1">
      <freejoint name="ball_free"/>
      <geom name="ball_geom" type="sphere" size="0.1"/>
    </body>
    <body name="pendulum" pos="-1 0 1">
      <joint name="swivel" type="ball"/>
      <geom name="bob" type="sphere" size="0.05" pos="0 0 -0.3"/>
    </body>
  </worldbody>
  <contact><exclude body1="base" body2="upper"/></contact>
</mujoco>
"""

SDF = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="fuzz">
    <frame name="mount" attached_to="base"><pose>0 0 0.1 0 0 0.3</pose></frame>
    <link name="base">
      <pose>0 0 0.5 0 0 0</pose>
      <inertial><mass>2</mass><inertia><ixx>0.01</ixx><iyy>0.02</iyy><izz>0.025</izz>
        <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
      <collision name="base_box"><geometry><box><size>0.2 0.2 0.1</size></box></geometry>
      </collision>
      <visual name="base_visual"><geometry><box><size>0.2 0.2 0.1</size></box></geometry>
      </visual>
    </link>
    <link name="upper">
      <pose relative_to="mount">0 0 0.05 0.1 0.2 0.3</pose>
      <inertial><pose>0 0 0.1 0 0 0</pose><mass>1</mass><inertia><ixx>0.004</ixx>
        <iyy>0.004</iyy><izz>0.001</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>
      </inertial>
      <collision name="upper_cyl"><pose>0 0 0.1 0 0 0</pose><geometry><cylinder>
        <radius>0.02</radius><length>0.2</length></cylinder></geometry></collision>
      <collision name="knuckle"><geometry><sphere><radius>0.03</radius></sphere></geometry>
      </collision>
    </link>
    <link name="lower">
      <pose relative_to="upper">0 0 0.2 0 0 0</pose>
      <inertial><mass>0.5</mass></inertial>
      <collision name="lower_capsule"><pose>0 0 0.1 0.3 0 0</pose><geometry><capsule>
        <radius>0.02</radius><length>0.15</length></capsule></geometry></collision>
      <collision name="lower_ellipsoid"><geometry><ellipsoid><radii>0.03 0.04 0.05</radii>
        </ellipsoid></geometry></collision>
    </link>
    <link name="slider">
      <pose relative_to="lower">0 0 0.2 0 0 0</pose>
      <inertial><mass>0.2</mass></inertial>
      <collision name="slider_box"><geometry><box><size>0.05 0.05 0.05</size></box>
      </geometry></collision>
    </link>
    <link name="bob">
      <pose>-1 0 1 0 0 0</pose>
      <inertial><mass>0.3</mass></inertial>
      <collision name="bob_sphere"><geometry><sphere><radius>0.05</radius></sphere>
      </geometry></collision>
    </link>
    <joint name="shoulder" type="revolute">
      <parent>base</parent><child>upper</child>
      <axis><xyz>0 0 1</xyz><limit><lower>-1.5</lower><upper>1.5</upper></limit>
        <dynamics><damping>0.1</damping></dynamics></axis>
    </joint>
    <joint name="elbow" type="revolute">
      <pose>0 0 0.01 0 0 0</pose><parent>upper</parent><child>lower</child>
      <axis><xyz expressed_in="__model__">0 1 0</xyz></axis>
    </joint>
    <joint name="slide" type="prismatic">
      <parent>lower</parent><child>slider</child>
      <axis><xyz>0 0 1</xyz><limit><lower>-0.05</lower><upper>0.1</upper></limit></axis>
    </joint>
    <joint name="swivel" type="ball"><parent>world</parent><child>bob</child></joint>
    <joint name="weld" type="fixed"><parent>world</parent><child>base</child></joint>
  </model>
</sdf>
"""

HOSTILE = ["", " ", "nan", "inf", "-inf", "-1", "0", "1e400", "1e-320", "abc", "1 2",
           "1 2 3 4", "0 0 0", "-0", "1,2,3", "0x10", "1e308 1e308 1e308", "\u00e9\u00e8",
           "a" * 300, "${x}", "&amp;", "  1  2  3  ", "1e999 0 0", "3.0e-7 0 1", "true"]
JOINT_TYPES = ["revolute", "continuous", "prismatic", "fixed", "floating", "planar",
               "ball", "universal", "screw", "spiral", "", "Revolute", "hinge", "slide",
               "free"]
UNKNOWN = ["gazebo", "transmission", "sensor", "drake:joint", "frame", "plugin", "junk"]


def _elements(root):
    return [e for e in root.iter() if e is not root]


def _names(root):
    return sorted({e.get("name") for e in root.iter() if e.get("name")})


def mutate(rng: random.Random, text: str, kind: str):
    """(mutated bytes, [descriptions]) of `text` after 1-3 seeded mutations."""
    ET.register_namespace("drake", "http://drake.mit.edu")
    root = ET.fromstring(text)
    notes = []
    textual = []
    wanted = rng.randint(1, 3)
    while len(notes) + len(textual) < wanted:
        elements = _elements(root)
        op = rng.choice(["drop", "drop_attr", "hostile", "hostile", "hostile", "duplicate",
                         "rename", "joint_type", "reference", "unknown", "text"])
        e = rng.choice(elements)
        parent = {c: p for p in root.iter() for c in p}.get(e, root)
        if op == "drop":
            parent.remove(e)
            notes.append(f"drop <{e.tag} {e.get('name', '')}>")
        elif op == "drop_attr" and e.attrib:
            key = rng.choice(sorted(e.attrib))
            del e.attrib[key]
            notes.append(f"drop {e.tag}@{key}")
        elif op == "hostile" and e.attrib and (not e.text or rng.random() < 0.5):
            key = rng.choice(sorted(e.attrib))
            e.set(key, rng.choice(HOSTILE))
            notes.append(f"{e.tag}@{key}={e.get(key)[:20]!r}")
        elif op == "hostile" and e.text and e.text.strip():
            e.text = rng.choice(HOSTILE)            # (SDFormat's values are element text)
            notes.append(f"<{e.tag}>{e.text[:20]!r}")
        elif op == "duplicate":
            parent.insert(list(parent).index(e), copy.deepcopy(e))
            notes.append(f"duplicate <{e.tag} {e.get('name', '')}>")
        elif op == "rename" and e.get("name"):
            new = rng.choice(_names(root))
            notes.append(f"rename {e.tag} {e.get('name')!r} -> {new!r}")
            e.set("name", new)
        elif op == "joint_type":
            joints = [j for j in root.iter() if j.tag == "joint"]
            if joints:
                j = rng.choice(joints)
                j.set("type", rng.choice(JOINT_TYPES))
                notes.append(f"joint {j.get('name')!r} type={j.get('type')!r}")
        elif op == "reference":
            refs = [(x, k) for x in root.iter() for k in ("link", "body1", "body2", "joint",
                                                           "childclass", "class",
                                                           "relative_to", "attached_to",
                                                           "expressed_in")
                    if x.get(k) is not None]
            texts = [x for x in root.iter() if x.tag in ("parent", "child")]
            if texts and (not refs or rng.random() < 0.3):
                x = rng.choice(texts)
                x.text = rng.choice(_names(root) + ["world", "nope"])
                notes.append(f"<{x.tag}>{x.text!r}")
            elif refs:
                x, k = rng.choice(refs)
                x.set(k, rng.choice(_names(root) + ["world", "nope"]))
                notes.append(f"{x.tag}@{k}={x.get(k)!r}")
        elif op == "unknown":
            tag = rng.choice(UNKNOWN)
            e.append(ET.Element(tag, {"name": "u"}))
            notes.append(f"add <{tag}> in <{e.tag}>")
        elif op == "text":
            textual.append(rng.choice(["truncate", "flip"]))
        if not elements[1:]:
            break
    data = ET.tostring(root, encoding="unicode").encode()
    for op in textual:
        at = rng.randrange(len(data))
        if op == "truncate":
            data = data[:at]
            notes.append(f"truncate at byte {at}")
        else:
            data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
            notes.append(f"byte {at} = {data[at]}")
    return data, notes


KINDS = (("urdf", URDF, ".urdf"), ("mjcf", MJCF, ".xml"), ("sdf", SDF, ".sdf"))


def case(seed: int):
    """(kind, extension, data, notes) of a seed: the model is URDF, MJCF or
    SDFormat by seed % 3."""
    rng = random.Random(seed)
    kind, text, extension = KINDS[seed % 3]
    data, notes = mutate(rng, text, kind)
    return kind, extension, data, notes


def _q_value(name: str) -> float:
    """A seeded, library-independent value in [-0.5, 0.5) for position `name`."""
    digest = hashlib.sha256(name.encode()).digest()
    return int.from_bytes(digest[:4], "little") / 2 ** 32 - 0.5


def load(api, path: str) -> dict:
    """What a user reads back after loading `path` (see the module docstring)."""
    builder = api["DiagramBuilder"]()
    plant, scene_graph = api["AddMultibodyPlantSceneGraph"](builder, TIME_STEP)
    try:
        api["Parser"](plant).AddModels(path)
    except Exception as error:  # noqa: BLE001
        return {"outcome": "error", "stage": "parse", "type": type(error).__name__,
                "message": str(error)[:400]}
    try:
        plant.Finalize()
        context = plant.CreateDefaultContext()
    except Exception as error:  # noqa: BLE001
        return {"outcome": "error", "stage": "finalize", "type": type(error).__name__,
                "message": str(error)[:400]}
    bodies = [plant.get_body(api["BodyIndex"](i)) for i in range(plant.num_bodies())]
    joints = [plant.get_joint(j) for j in plant.GetJointIndices()]
    out = {"outcome": "ok", "nq": plant.num_positions(), "nv": plant.num_velocities(),
           "bodies": sorted(b.name() for b in bodies),
           "joints": sorted(f"{j.name()}:{j.type_name()}" for j in joints),
           "collisions": {b.name(): len(plant.GetCollisionGeometriesForBody(b))
                          for b in bodies},
           "limits": {}, "defaults": {}, "poses": {}, "poses_q": {}}
    for j in joints:
        lower, upper = j.position_lower_limits(), j.position_upper_limits()
        out["limits"][j.name()] = [_num(x) for x in list(lower) + list(upper)]
        out["defaults"][j.name()] = [_num(x) for x in j.default_positions()]
    for b in bodies:
        out["poses"][b.name()] = _pose(plant.EvalBodyPoseInWorld(context, b))
    for j in joints:
        if j.num_positions() == 1:
            lo, hi = j.position_lower_limits()[0], j.position_upper_limits()[0]
            value = _q_value(j.name())
            if math.isfinite(lo) and math.isfinite(hi):
                value = lo + (value + 0.5) * (hi - lo)
            q = plant.GetPositions(context)
            q[j.position_start()] = value
            plant.SetPositions(context, q)
    for b in bodies:
        out["poses_q"][b.name()] = _pose(plant.EvalBodyPoseInWorld(context, b))
    return out


def _num(x):
    x = float(x)
    return x if math.isfinite(x) else str(x)


def _pose(X):
    import numpy as np
    M = np.asarray(X.GetAsMatrix34(), dtype=float)
    return [_num(round(v, 7)) for v in M.ravel()]


def our_api() -> dict:
    from scenegraph.multibody import AddMultibodyPlantSceneGraph, BodyIndex, Parser
    from systems.framework import DiagramBuilder
    return {"DiagramBuilder": DiagramBuilder, "Parser": Parser, "BodyIndex": BodyIndex,
            "AddMultibodyPlantSceneGraph": AddMultibodyPlantSceneGraph}


def drake_api() -> dict:
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import AddMultibodyPlantSceneGraph
    from pydrake.multibody.tree import BodyIndex
    from pydrake.systems.framework import DiagramBuilder
    return {"DiagramBuilder": DiagramBuilder, "Parser": Parser, "BodyIndex": BodyIndex,
            "AddMultibodyPlantSceneGraph": AddMultibodyPlantSceneGraph}


def run_side(side: str, seeds, timeout: float) -> dict:
    api = drake_api() if side == "drake" else our_api()
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            _, ext, data, _ = case(seed)
            path = pathlib.Path(tmp) / f"fuzz_{seed}{ext}"
            path.write_bytes(data)
            record = run_isolated(load, (api, str(path)), timeout)
            if record["outcome"] == "hang":      # a loaded machine, or a real hang?
                record = run_isolated(load, (api, str(path)), 4 * timeout)
                record["slow"] = True            # (it needed the second, longer try)
            out[str(seed)] = record
    return out


def _seeds(text: str):
    seeds = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds.extend(range(int(lo), int(hi or lo) + 1))
    return seeds


def classify(ours: dict, theirs: dict) -> str:
    a, b = ours["outcome"], theirs["outcome"]
    if a in ("hang", "died"):
        return f"ours {a}"
    if b in ("hang", "died"):
        return f"pydrake {b}"
    if a == "error" and (ours["type"] not in ("ParsingError", "RuntimeError", "ValueError")
                         or "fuzz_" not in ours["message"]):
        return "our error names no file (or is not a parsing error)"
    if a == "error" and b == "error":
        return "both refuse"
    if a == "error":
        return "we refuse, pydrake loads"
    if b == "error":
        return "we load, pydrake refuses"
    keys = ("nq", "nv", "bodies", "joints", "collisions", "limits", "defaults")
    if any(ours[k] != theirs[k] for k in keys):
        return "both load, structure differs"
    if not _close(ours["poses"], theirs["poses"]) or not _close(ours["poses_q"],
                                                                theirs["poses_q"]):
        return "both load, poses differ"
    return "both load and agree"


def _close(p, q, tol=1e-6) -> bool:
    if p.keys() != q.keys():
        return False
    for k in p:
        for x, y in zip(p[k], q[k]):
            if isinstance(x, str) or isinstance(y, str):
                if x != y:
                    return False
            elif abs(x - y) > tol:
                return False
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-199")
    parser.add_argument("--side", choices=("ours", "drake", "both"), default="both")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--json", default=None)
    parser.add_argument("--show", type=int, default=40)
    parser.add_argument("--dump", type=int, default=None, help="print a seed's model")
    args = parser.parse_args(argv)
    if args.dump is not None:
        kind, ext, data, notes = case(args.dump)
        print(f"<!-- seed {args.dump} ({kind}): {'; '.join(notes)} -->")
        sys.stdout.write(data.decode(errors="replace") + "\n")
        return 0
    seeds = _seeds(args.seeds)
    if args.side != "both":
        print(json.dumps(run_side(args.side, seeds, args.timeout)))
        return 0
    drake = subprocess.run([DRAKE_PYTHON, __file__, "--side", "drake", "--seeds", args.seeds,
                            "--timeout", str(args.timeout)], capture_output=True, text=True,
                           check=True)
    theirs = json.loads(drake.stdout.strip().splitlines()[-1])
    ours = run_side("ours", seeds, args.timeout)
    classes: dict = {}
    for seed in seeds:
        key = str(seed)
        classes.setdefault(classify(ours[key], theirs[key]), []).append(seed)
    print(f"{len(seeds)} models (seeds {args.seeds}):")
    for name, members in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(members):5d}  {name}")
    for name, members in classes.items():
        if name in ("both load and agree", "both refuse"):
            continue
        print(f"\n== {name}")
        for seed in members[:args.show]:
            print(f"  seed {seed}: {'; '.join(case(seed)[3])}")
            for side, record in (("ours", ours[str(seed)]), ("pydrake", theirs[str(seed)])):
                print(f"    {side:8s}{_summary(record)}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"ours": ours, "pydrake": theirs, "classes": classes}, indent=1))
    return 0


def _summary(record: dict) -> str:
    if record["outcome"] == "error":
        return f"{record.get('stage', '')} {record['type']}: {record['message'][:160]}"
    if record["outcome"] == "ok":
        return f"ok nq={record['nq']} bodies={len(record['bodies'])}"
    return json.dumps(record)


if __name__ == "__main__":
    sys.exit(main())
