"""Adds MuJoCo's own answers to tests/reference_data/mjcf/ (written first by
tools/mjcf_drake_reference.py), to adjudicate where pydrake's MJCF reading
departs from MuJoCo's meaning.

Run with the project's virtualenv, where the [test] extra's dm-control brings
the ``mujoco`` package (only this tool imports it; the tests never do):

    .venv/bin/python tools/mjcf_mujoco_reference.py [--models a,b]

For every model recorded by pydrake, the original XML is compiled by MuJoCo
and, for each recorded configuration, pydrake's q is mapped onto MuJoCo's
qpos (hinge and slide joints in tree order: their values are the same;
roll-pitch-yaw ball joints as the quaternion of R_FM; a floating body's
(qw, qx, qy, qz, x, y, z) as MuJoCo's (x, y, z, qw, qx, qy, qz)); then
mj_kinematics gives every body's pose X_WB (as a 4x4 matrix, by body name).

Also recorded, per model: MuJoCo's geom pairs that may collide, as
[[body, geom name], [body, geom name]] sorted (geom<n> for an unnamed geom, n
its index in its body): contype/conaffinity compatible
((t1 & a2) | (t2 & a1) != 0), not in the same weld group, not a weld group
and its parent's weld group (neither welded to the world; the filterparent
rule), and no <contact><exclude> between their bodies.
"""
from __future__ import annotations

import argparse
import json
import pathlib

import mujoco
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "reference_data" / "mjcf"


def suite_dir() -> pathlib.Path:
    import importlib.util

    return pathlib.Path(importlib.util.find_spec("dm_control").submodule_search_locations[0]) \
        / "suite"


def xml_path(entry) -> pathlib.Path:
    if entry["source"] == "dm_control suite":
        return suite_dir() / entry["file"]
    return ROOT / entry["source"] / entry["file"]


def geom_keys(model) -> list:
    """[body name, geom name] of every geom (geom<n> when unnamed)."""
    keys, count = [], {}
    for g in range(model.ngeom):
        b = int(model.geom_bodyid[g])
        name = mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_GEOM, g)
        n = count.get(b, 0)
        count[b] = n + 1
        body = mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, b)
        keys.append([body, name or f"geom{n}"])
    return keys


def allowed_pairs(model) -> list:
    keys = geom_keys(model)
    weld = model.body_weldid
    parent = model.body_parentid
    excluded = {int(s) for s in model.exclude_signature}
    pairs = []
    for g1 in range(model.ngeom):
        for g2 in range(g1 + 1, model.ngeom):
            t1, a1 = model.geom_contype[g1], model.geom_conaffinity[g1]
            t2, a2 = model.geom_contype[g2], model.geom_conaffinity[g2]
            if not ((t1 & a2) or (t2 & a1)):
                continue
            b1, b2 = int(model.geom_bodyid[g1]), int(model.geom_bodyid[g2])
            w1, w2 = int(weld[b1]), int(weld[b2])
            p1, p2 = int(weld[parent[w1]]), int(weld[parent[w2]])
            if w1 == w2 or (w1 != 0 and w2 != 0 and (w1 == p2 or p1 == w2)):
                continue
            if ((min(b1, b2) << 16) + max(b1, b2)) in excluded:
                continue
            pairs.append(sorted([keys[g1], keys[g2]]))
    return sorted(pairs)


def rpy_quaternion(rpy) -> np.ndarray:
    """(w, x, y, z) of Drake's RollPitchYaw: R = Rz(y)·Ry(p)·Rx(r)."""
    r, p, y = rpy
    quat = np.zeros(4)
    half = np.array([r, p, y]) / 2
    cr, cp, cy = np.cos(half)
    sr, sp, sy = np.sin(half)
    quat[:] = [cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
               cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy]
    return quat


def qpos_of(model, ref, q) -> np.ndarray:
    """pydrake's q (ref's joints) as MuJoCo's qpos (module docstring)."""
    qpos = model.qpos0.copy()
    drake_joints = [j for j in ref["joints"] if j["num_positions"] > 0]
    floating = {j["child_body"]: j for j in drake_joints if j["type_name"] == "quaternion_floating"}
    others = [j for j in drake_joints if j["type_name"] != "quaternion_floating"]
    k = 0
    for jnt in range(model.njnt):
        adr = model.jnt_qposadr[jnt]
        kind = model.jnt_type[jnt]
        if kind == mujoco.mjtJoint.mjJNT_FREE:
            body = mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, model.jnt_bodyid[jnt])
            s = floating[body]["position_start"]
            qpos[adr:adr + 3] = q[s + 4:s + 7]
            qpos[adr + 3:adr + 7] = q[s:s + 4]
            continue
        joint = others[k]
        k += 1
        s = joint["position_start"]
        if kind == mujoco.mjtJoint.mjJNT_BALL:
            qpos[adr:adr + 4] = rpy_quaternion(q[s:s + 3])
        else:
            qpos[adr] = q[s]
    if k != len(others):
        raise ValueError(f"{k} MuJoCo joints for {len(others)} pydrake joints")
    return qpos


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="")
    args = parser.parse_args()
    index = json.loads((OUT / "index.json").read_text())
    keys = [k for k in args.models.split(",") if k] or [
        k for k, v in index["models"].items() if not v["refused"]]
    for key in keys:
        entry = index["models"][key]
        path = OUT / f"{key}.json"
        ref = json.loads(path.read_text())
        model = mujoco.MjModel.from_xml_path(str(xml_path(entry)))
        data = mujoco.MjData(model)
        poses = []
        for config in ref["configurations"]:
            data.qpos[:] = qpos_of(model, ref, np.array(config["q"]))
            mujoco.mj_kinematics(model, data)
            X = {}
            for b in range(model.nbody):
                T = np.eye(4)
                T[:3, :3] = data.xmat[b].reshape(3, 3)
                T[:3, 3] = data.xpos[b]
                X[mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, b)] = T.tolist()
            poses.append(X)
        ref["mujoco"] = {"version": mujoco.__version__, "X_WB": poses,
                         "allowed_pairs": allowed_pairs(model)}
        path.write_text(json.dumps(ref, separators=(",", ":")))
        print(f"{key:14s} bodies={model.nbody:3d} allowed pairs="
              f"{len(ref['mujoco']['allowed_pairs']):5d}")


if __name__ == "__main__":
    main()
