"""Rebuilds hydroelastic reference scenes (tests/reference_data/hydroelastic.json) at the
numeric level: shapes from their records, representations from their proximity
records, world poses X_WG as (R, p). Test helper only."""
from __future__ import annotations

import itertools

import numpy as np

from scenegraph.hydroelastic.calculator import compute_contact_surface
from scenegraph.hydroelastic.contact_surface import HydroelasticContactRepresentation
from scenegraph.hydroelastic.representation import (make_compliant_representation,
                                                    make_rigid_representation)
from scenegraph.shapes import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Sphere
from tests.reference_loader import pose_arrays

REPRESENTATIONS = {"kTriangle": HydroelasticContactRepresentation.kTriangle,
                   "kPolygon": HydroelasticContactRepresentation.kPolygon}


def shape_from_record(rec: dict):
    kind = rec["type"]
    if kind == "Sphere":
        return Sphere(rec["radius"])
    if kind == "Box":
        return Box(rec["width"], rec["depth"], rec["height"])
    if kind == "Capsule":
        return Capsule(rec["radius"], rec["length"])
    if kind == "Cylinder":
        return Cylinder(rec["radius"], rec["length"])
    if kind == "Ellipsoid":
        return Ellipsoid(rec["a"], rec["b"], rec["c"])
    if kind == "HalfSpace":
        return HalfSpace()
    if kind == "Convex":
        return Convex(np.array(rec["vertices"], dtype=float).T, rec.get("label", ""))
    raise ValueError(kind)


def representation_from_record(geometry: dict):
    """The geometry's hydroelastic representation (None without hydroelastic properties)."""
    shape = shape_from_record(geometry["shape"])
    hydro = geometry["proximity"].get("hydroelastic")
    if hydro is None:
        return shape, None
    if hydro["compliance"] == "rigid":
        return shape, make_rigid_representation(shape, hydro.get("resolution_hint"))
    return shape, make_compliant_representation(shape, hydro["hydroelastic_modulus"],
                                                hydro.get("resolution_hint"),
                                                hydro.get("slab_thickness"))


class Scene:
    """Geometries of a reference scene; ids are list positions (registration order)."""

    def __init__(self, case: dict):
        self.geometries = case["scene"]["geometries"]
        self.names = [g["name"] for g in self.geometries]
        self.shapes, self.reps, self.poses = [], [], []
        for g in self.geometries:
            shape, rep = representation_from_record(g)
            self.shapes.append(shape)
            self.reps.append(rep)
            self.poses.append(pose_arrays(g["X_WG"]))

    def compute(self, i: int, j: int, representation: str, **kwargs):
        return compute_contact_surface(i, self.reps[i], self.poses[i], j, self.reps[j],
                                       self.poses[j], REPRESENTATIONS[representation], **kwargs)

    def candidate_pairs(self):
        """Pairs Drake would consider: not both anchored, not on the same frame."""
        for i, j in itertools.combinations(range(len(self.geometries)), 2):
            gi, gj = self.geometries[i], self.geometries[j]
            if gi["anchored"] and gj["anchored"]:
                continue
            if gi["frame"] is not None and gi["frame"] == gj["frame"]:
                continue
            yield i, j


def summarize(surface) -> dict:
    """The reference record's quantities, computed through the public ContactSurface API."""
    mesh = surface.tri_mesh_W() if surface.is_triangle() else surface.poly_mesh_W()
    field = surface.tri_e_MN() if surface.is_triangle() else surface.poly_e_MN()
    F = np.zeros(3)
    pA = 0.0
    for f in range(surface.num_faces()):
        p = field.EvaluateCartesian(f, surface.centroid(f))
        F += p * surface.area(f) * surface.face_normal(f)
        pA += p * surface.area(f)
    verts = np.array(mesh.vertices())
    return {"id_M": surface.id_M(), "id_N": surface.id_N(), "num_faces": surface.num_faces(),
            "num_vertices": surface.num_vertices(), "total_area": surface.total_area(),
            "centroid": np.array(surface.centroid()), "F": F, "pressure_area_sum": pA,
            "vertex_bbox_min": verts.min(axis=0), "vertex_bbox_max": verts.max(axis=0),
            "HasGradE_M": surface.HasGradE_M(), "HasGradE_N": surface.HasGradE_N(),
            "max_vertex_pressure": float(np.max(field.values()))}
