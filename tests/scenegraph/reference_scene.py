"""Rebuilds a reference scene (tests/reference_data/README.md format) through
the public SceneGraph API: frames first, then geometries, in list order, then
the collision filters as one declaration; the pose port is fixed to the
frames' X_WF."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scenegraph import (AddCompliantHydroelasticProperties,
                        AddCompliantHydroelasticPropertiesForHalfSpace,
                        AddRigidHydroelasticProperties, Box, Capsule,
                        CollisionFilterDeclaration, Convex, Cylinder, Ellipsoid,
                        FramePoseVector, GeometryFrame, GeometryInstance, GeometrySet,
                        HalfSpace, ProximityProperties, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix
from scenegraph.scene_graph import SceneGraph


def pose(record: dict) -> RigidTransform:
    return RigidTransform(RotationMatrix(np.array(record["rotation"])),
                          np.array(record["translation"]))


def shape(record: dict):
    kind = record["type"]
    if kind == "Sphere":
        return Sphere(record["radius"])
    if kind == "Box":
        return Box(record["width"], record["depth"], record["height"])
    if kind == "Capsule":
        return Capsule(record["radius"], record["length"])
    if kind == "Cylinder":
        return Cylinder(record["radius"], record["length"])
    if kind == "Ellipsoid":
        return Ellipsoid(record["a"], record["b"], record["c"])
    if kind == "HalfSpace":
        return HalfSpace()
    if kind == "Convex":
        return Convex(np.array(record["vertices"], dtype=float).T, record.get("label", ""))
    raise ValueError(kind)


def proximity_properties(record: dict) -> ProximityProperties:
    props = ProximityProperties()
    hydro = record.get("hydroelastic")
    if hydro is None:
        return props
    if hydro["compliance"] == "rigid":
        if "resolution_hint" in hydro:
            AddRigidHydroelasticProperties(hydro["resolution_hint"], props)
        else:
            AddRigidHydroelasticProperties(props)
    elif "slab_thickness" in hydro:
        AddCompliantHydroelasticPropertiesForHalfSpace(
            hydro["slab_thickness"], hydro["hydroelastic_modulus"], props)
    else:
        AddCompliantHydroelasticProperties(hydro["resolution_hint"],
                                           hydro["hydroelastic_modulus"], props)
    return props


@dataclass
class ReferenceScene:
    scene_graph: SceneGraph
    context: object
    ids: dict            # geometry name -> GeometryId
    names: dict          # GeometryId -> geometry name
    frames: dict         # frame name -> FrameId

    def query(self):
        return self.scene_graph.get_query_output_port().Eval(self.context)


def _geometry_set(record: dict, ids: dict, frames: dict) -> GeometrySet:
    return GeometrySet([ids[n] for n in record.get("geometries", [])],
                       [frames[n] for n in record.get("frames", [])])


def build(scene: dict, config=None) -> ReferenceScene:
    scene_graph = SceneGraph() if config is None else SceneGraph(config)
    source = scene_graph.RegisterSource("reference")
    frames = {}
    for frame in scene["frames"]:
        frames[frame["name"]] = scene_graph.RegisterFrame(source, GeometryFrame(frame["name"]))
    ids = {}
    for geometry in scene["geometries"]:
        instance = GeometryInstance(pose(geometry["X_FG"]), shape(geometry["shape"]),
                                    geometry["name"])
        if geometry["anchored"]:
            gid = scene_graph.RegisterAnchoredGeometry(source, instance)
        else:
            gid = scene_graph.RegisterGeometry(source, frames[geometry["frame"]], instance)
        scene_graph.AssignRole(source, gid, proximity_properties(geometry["proximity"]))
        ids[geometry["name"]] = gid
    filters = scene.get("collision_filters", [])
    if filters:
        declaration = CollisionFilterDeclaration()
        for statement in filters:
            if statement["op"] == "ExcludeWithin":
                declaration.ExcludeWithin(_geometry_set(statement["set"], ids, frames))
            elif statement["op"] == "ExcludeBetween":
                declaration.ExcludeBetween(_geometry_set(statement["set_a"], ids, frames),
                                           _geometry_set(statement["set_b"], ids, frames))
            else:
                raise ValueError(statement["op"])
        scene_graph.collision_filter_manager().Apply(declaration)
    context = scene_graph.CreateDefaultContext()
    poses = FramePoseVector()
    for frame in scene["frames"]:
        poses.set_value(frames[frame["name"]], pose(frame["X_WF"]))
    scene_graph.get_source_pose_port(source).FixValue(context, poses)
    return ReferenceScene(scene_graph, context, ids, {v: k for k, v in ids.items()}, frames)
