"""Generates tests/reference_data/hydroelastic_margin.json: pydrake's contact
surfaces for geometries with the hydroelastic "margin" property.

Run with the scratch virtualenv that holds pydrake (only tools/ scripts import it):

  /work/drake-venv/bin/python tools/drake_margin_reference.py

Each case is a two-geometry scene in tests/reference_data's scene format (see
its README), whose proximity records may carry "margin" [m]. For every case
the file records, from pydrake 1.51: the hydroelastic mesh Drake built for each
geometry (kind, vertex and element counts, volume or area, largest |p_GV|), and
ComputeContactSurfaces in both representations (ids by name, face and vertex
counts, total area, centroid, F = Σ p(c_f)·A_f·n_f on M, Σ p·A, the smallest and
largest vertex pressure), or the message AssignRole / the query raised.
"""
from __future__ import annotations

import json
import pathlib
import re
import sys

import numpy as np
import pydrake
from pydrake.geometry import (AddCompliantHydroelasticProperties,
                              AddCompliantHydroelasticPropertiesForHalfSpace,
                              AddRigidHydroelasticProperties, Box, Capsule, Cylinder, Ellipsoid,
                              FramePoseVector, GeometryFrame, GeometryInstance, HalfSpace,
                              HydroelasticContactRepresentation, ProximityProperties, SceneGraph,
                              Sphere)
from pydrake.math import RigidTransform, RollPitchYaw

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "reference_data" / "hydroelastic_margin.json"


def pose(rpy, p) -> dict:
    X = RigidTransform(RollPitchYaw(*rpy), np.array(p, dtype=float))
    return {"rotation": X.rotation().matrix().tolist(), "translation": X.translation().tolist()}


def compliant(E, hint=None, margin=None, slab=None) -> dict:
    record = {"compliance": "compliant", "hydroelastic_modulus": E}
    if hint is not None:
        record["resolution_hint"] = hint
    if slab is not None:
        record["slab_thickness"] = slab
    if margin is not None:
        record["margin"] = margin
    return {"hydroelastic": record}


def rigid(hint=None, margin=None) -> dict:
    record = {"compliance": "rigid"}
    if hint is not None:
        record["resolution_hint"] = hint
    if margin is not None:
        record["margin"] = margin
    return {"hydroelastic": record}


SPHERE = {"type": "Sphere", "radius": 0.1}
TILT = (0.21, -0.13, 0.37)
CASES = [
    # (case id, [(name, shape, proximity, X_WG)])
    ("margin_compliantSphere_rigidBox_gap", [
        ("sphere", SPHERE, compliant(1e6, 0.02, 1e-3), pose(TILT, [0.003, -0.002, 0.1005])),
        ("box", {"type": "Box", "width": 0.6, "depth": 0.6, "height": 0.1}, rigid(),
         pose((0, 0, 0.3), [0, 0, -0.05]))]),
    ("margin_compliantSphere_rigidBox_penetrating", [
        ("sphere", SPHERE, compliant(1e6, 0.02, 1e-3), pose(TILT, [0.003, -0.002, 0.095])),
        ("box", {"type": "Box", "width": 0.6, "depth": 0.6, "height": 0.1}, rigid(),
         pose((0, 0, 0.3), [0, 0, -0.05]))]),
    ("margin_compliantBox_rigidSphere_gap", [
        ("box", {"type": "Box", "width": 0.2, "depth": 0.15, "height": 0.1},
         compliant(1e5, None, 2e-3), pose((0.02, -0.03, 0.4), [0, 0, 0])),
        ("sphere", {"type": "Sphere", "radius": 0.05}, rigid(0.02),
         pose(TILT, [0.004, 0.003, 0.05 + 0.05 + 0.001]))]),
    ("margin_compliantCylinder_compliantSphere_gap", [
        ("cylinder", {"type": "Cylinder", "radius": 0.05, "length": 0.2},
         compliant(1e6, 0.01, 2e-3), pose((0.0, 0.0, 0.2), [0, 0, 0])),
        ("sphere", {"type": "Sphere", "radius": 0.06}, compliant(5e5, 0.02, 2e-3),
         pose(TILT, [0.05 + 0.06 + 0.0015, 0.002, 0.01]))]),
    ("margin_compliantCapsule_rigidBox_gap", [
        ("capsule", {"type": "Capsule", "radius": 0.03, "length": 0.1},
         compliant(1e6, 0.01, 1e-3), pose((0.03, np.pi / 2, 0.2), [0.002, 0, 0.0305])),
        ("box", {"type": "Box", "width": 0.6, "depth": 0.6, "height": 0.1}, rigid(),
         pose((0, 0, 0.3), [0, 0, -0.05]))]),
    ("margin_compliantEllipsoid_rigidBox_gap", [
        ("ellipsoid", {"type": "Ellipsoid", "a": 0.08, "b": 0.06, "c": 0.05},
         compliant(1e6, 0.02, 1e-3), pose((0.01, -0.02, 0.5), [0.001, 0.002, 0.0505])),
        ("box", {"type": "Box", "width": 0.6, "depth": 0.6, "height": 0.1}, rigid(),
         pose((0, 0, 0.3), [0, 0, -0.05]))]),
    ("margin_compliantHalfSpace_rigidSphere_gap", [
        ("half_space", {"type": "HalfSpace"}, compliant(1e6, None, 1e-3, slab=0.1),
         pose((0, 0, 0), [0, 0, 0])),
        ("sphere", {"type": "Sphere", "radius": 0.05}, rigid(0.01),
         pose(TILT, [0.003, 0.001, 0.0505]))]),
    ("margin_compliantSphere_rigidHalfSpace_gap", [
        ("sphere", SPHERE, compliant(1e6, 0.02, 1e-3), pose(TILT, [0.003, -0.002, 0.1005])),
        ("half_space", {"type": "HalfSpace"}, rigid(), pose((0, 0, 0), [0, 0, 0]))]),
    ("margin_compliantSphere_compliantSphere_gap", [
        ("lower", SPHERE, compliant(1e6, 0.02, 2e-3), pose((0.1, 0.2, -0.3), [0, 0, -0.1])),
        ("upper", SPHERE, compliant(2e6, 0.02, 2e-3), pose(TILT, [0.002, 0.001, 0.101]))]),
    ("margin_compliantSphere_compliantSphere_too_far", [
        ("lower", SPHERE, compliant(1e6, 0.02, 1e-3), pose((0.1, 0.2, -0.3), [0, 0, -0.1])),
        ("upper", SPHERE, compliant(2e6, 0.02, 1e-3), pose(TILT, [0.002, 0.001, 0.1025]))]),
    ("margin_compliantBox_compliantBox_penetrating", [
        ("slab", {"type": "Box", "width": 0.6, "depth": 0.6, "height": 0.1},
         compliant(1e6, None, 1e-3), pose((0, 0, 0.3), [0, 0, -0.05])),
        ("cube", {"type": "Box", "width": 0.1, "depth": 0.1, "height": 0.1}, compliant(2e6),
         pose((0.05, -0.04, 0.6), [0.01, 0.02, 0.048]))]),
    ("margin_rigidSphere_compliantBox_gap_ignored", [
        ("box", {"type": "Box", "width": 0.2, "depth": 0.15, "height": 0.1}, compliant(1e5),
         pose((0, 0, 0), [0, 0, 0])),
        ("sphere", {"type": "Sphere", "radius": 0.05}, rigid(0.02, 1e-3),
         pose(TILT, [0.004, 0.003, 0.05 + 0.05 + 0.0005]))]),
    ("margin_negative", [
        ("sphere", SPHERE, compliant(1e6, 0.02, -1e-3), pose(TILT, [0, 0, 0.1005])),
        ("box", {"type": "Box", "width": 0.6, "depth": 0.6, "height": 0.1}, rigid(),
         pose((0, 0, 0.3), [0, 0, -0.05]))]),
]


def drake_shape(record: dict):
    kind = record["type"]
    if kind == "Sphere":
        return Sphere(record["radius"])
    if kind == "Box":
        return Box(record["width"], record["depth"], record["height"])
    if kind == "Cylinder":
        return Cylinder(record["radius"], record["length"])
    if kind == "Capsule":
        return Capsule(record["radius"], record["length"])
    if kind == "Ellipsoid":
        return Ellipsoid(record["a"], record["b"], record["c"])
    if kind == "HalfSpace":
        return HalfSpace()
    raise ValueError(kind)


def drake_properties(record: dict) -> ProximityProperties:
    props = ProximityProperties()
    hydro = record["hydroelastic"]
    if hydro["compliance"] == "rigid":
        if "resolution_hint" in hydro:
            AddRigidHydroelasticProperties(hydro["resolution_hint"], props)
        else:
            AddRigidHydroelasticProperties(props)
    elif "slab_thickness" in hydro:
        AddCompliantHydroelasticPropertiesForHalfSpace(hydro["slab_thickness"],
                                                       hydro["hydroelastic_modulus"], props)
    else:
        AddCompliantHydroelasticProperties(hydro.get("resolution_hint", 1.0),
                                           hydro["hydroelastic_modulus"], props)
    if "margin" in hydro:
        props.AddProperty("hydroelastic", "margin", hydro["margin"])
    return props


def mesh_record(mesh) -> dict | None:
    if mesh is None:
        return None
    p = np.array(mesh.vertices())
    record = {"kind": type(mesh).__name__, "num_vertices": mesh.num_vertices(),
              "num_elements": mesh.num_elements(), "max_vertex_norm": float(np.linalg.norm(p, axis=1).max())}
    if hasattr(mesh, "CalcVolume"):
        record["volume"] = mesh.CalcVolume()
    else:
        record["area"] = mesh.total_area()
    return record


def surface_record(s, names, rep) -> dict:
    mesh = s.tri_mesh_W() if rep == "kTriangle" else s.poly_mesh_W()
    field = s.tri_e_MN() if rep == "kTriangle" else s.poly_e_MN()
    F, pA = np.zeros(3), 0.0
    for f in range(s.num_faces()):
        p = field.EvaluateCartesian(f, s.centroid(f))
        F += p * s.area(f) * np.asarray(s.face_normal(f))
        pA += p * s.area(f)
    values = np.array([field.EvaluateAtVertex(v) for v in range(mesh.num_vertices())])
    return {"id_M": names[s.id_M()], "id_N": names[s.id_N()], "num_faces": s.num_faces(),
            "num_vertices": mesh.num_vertices(), "total_area": s.total_area(),
            "centroid": np.asarray(s.centroid()).tolist(), "F": F.tolist(),
            "pressure_area_sum": pA, "min_vertex_pressure": float(values.min()),
            "max_vertex_pressure": float(values.max())}


def run_case(case_id: str, geometries: list) -> dict:
    scene = {"frames": [], "geometries": []}
    for name, shape, proximity, X_WG in geometries:
        scene["frames"].append({"name": f"F_{name}", "X_WF": X_WG})
        scene["geometries"].append({"name": name, "shape": shape, "anchored": False,
                                    "frame": f"F_{name}", "X_FG": pose((0, 0, 0), [0, 0, 0]),
                                    "X_WG": X_WG, "proximity": proximity})
    record = {"case_id": case_id, "kind": "ComputeContactSurfaces", "scene": scene}
    sg = SceneGraph()
    source = sg.RegisterSource("reference")
    poses = FramePoseVector()
    names, meshes = {}, {}
    try:
        for g in scene["geometries"]:
            frame = sg.RegisterFrame(source, GeometryFrame(g["frame"]))
            X = g["X_WG"]
            poses.set_value(frame, RigidTransform(pydrake.math.RotationMatrix(np.array(X["rotation"])),
                                                  np.array(X["translation"])))
            gid = sg.RegisterGeometry(source, frame, GeometryInstance(
                RigidTransform(), drake_shape(g["shape"]), g["name"]))
            sg.AssignRole(source, gid, drake_properties(g["proximity"]))
            names[gid] = g["name"]
    except Exception as error:       # Drake's refusal, recorded with its message
        record["throws"] = f"{type(error).__name__}: " + re.sub(r"id \d+", "id <id>", str(error))
        return record
    inspector = sg.model_inspector()
    for gid, name in names.items():
        meshes[name] = mesh_record(inspector.maybe_get_hydroelastic_mesh(gid))
    record["hydroelastic_meshes"] = meshes
    context = sg.CreateDefaultContext()
    sg.get_source_pose_port(source).FixValue(context, poses)
    query = sg.get_query_output_port().Eval(context)
    record["contact_surfaces"] = {}
    for rep in ("kTriangle", "kPolygon"):
        surfaces = query.ComputeContactSurfaces(getattr(HydroelasticContactRepresentation, rep))
        record["contact_surfaces"][rep] = [surface_record(s, names, rep) for s in surfaces]
    return record


def main() -> int:
    cases = [run_case(case_id, geometries) for case_id, geometries in CASES]
    data = {"category": "hydroelastic_margin", "pydrake_version": pydrake.__version__
            if hasattr(pydrake, "__version__") else "1.51.1", "format_version": 1,
            "set": "margin", "seed": 0, "num_cases": len(cases), "cases": cases}
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    for case in cases:
        summary = case.get("throws") or {rep: [(s["num_faces"], round(s["F"][2], 6))
                                               for s in case["contact_surfaces"][rep]]
                                         for rep in ("kTriangle", "kPolygon")}
        print(case["case_id"], summary)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
