"""Small plants the multibody tests build by hand (no files): a planar
two-link arm with a closed-form pose, a tree with every joint type, and the
two-tree scene whose order pydrake 1.51 reported (q order, names)."""
from __future__ import annotations

import numpy as np

from scenegraph import Box, ProximityProperties, Sphere
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.multibody import (AddMultibodyPlantSceneGraph, BallRpyJoint, FixedOffsetFrame,
                                  MultibodyPlant, PlanarJoint, PrismaticJoint,
                                  QuaternionFloatingJoint, RevoluteJoint, RpyFloatingJoint,
                                  SpatialInertia, WeldJoint)
from systems.framework import DiagramBuilder

L1, L2 = 0.7, 0.45   # link lengths of the planar arm [m]


def unit_sphere_inertia(mass=1.0):
    return SpatialInertia.SolidSphereWithMass(mass, 0.1)


def planar_arm(time_step=0.0, with_scene_graph=True):
    """Two revolute joints about +z: link1 at the world origin, link2 at
    (L1, 0, 0) in link1. Body frames sit at the joints. Returns
    (builder, plant, scene_graph or None, link1, link2)."""
    builder = DiagramBuilder()
    if with_scene_graph:
        plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
    else:
        plant, scene_graph = builder.AddSystem(MultibodyPlant(time_step)), None
    link1 = plant.AddRigidBody("link1", unit_sphere_inertia(2.0))
    link2 = plant.AddRigidBody("link2", unit_sphere_inertia(1.0))
    plant.AddJoint(RevoluteJoint("shoulder", plant.world_frame(), link1.body_frame(),
                                 [0, 0, 1]))
    elbow_parent = plant.AddFrame(FixedOffsetFrame("elbow_parent", link1.body_frame(),
                                                   RigidTransform([L1, 0, 0])))
    plant.AddJoint(RevoluteJoint("elbow", elbow_parent, link2.body_frame(), [0, 0, 1],
                                 -2.0, 2.0))
    return builder, plant, scene_graph, link1, link2


def every_joint_tree(time_step=0.0):
    """A tree using every joint type, with tilted joint frames and offsets:
    world -quaternion_floating- base -revolute- a -prismatic- b -ball_rpy- c
    -planar- d -rpy_floating- e, base -weld- w. Returns (builder, plant,
    scene_graph, bodies dict)."""
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
    names = ["base", "a", "b", "c", "d", "e", "w"]
    bodies = {n: plant.AddRigidBody(n, SpatialInertia.MakeFromCentralInertia(
        1.0 + i, [0.01 * i, -0.02, 0.03], np.diag([0.1, 0.2, 0.25]))) for i, n in
        enumerate(names)}

    def offset(name, body, rpy, xyz):
        return plant.AddFrame(FixedOffsetFrame(name, body.body_frame(),
                                               RigidTransform(RollPitchYaw(*rpy), xyz)))

    def child(name, body, rpy, xyz):
        return plant.AddFrame(FixedOffsetFrame(name, body.body_frame(),
                                               RigidTransform(RollPitchYaw(*rpy), xyz)))

    plant.AddJoint(QuaternionFloatingJoint("float", plant.world_frame(),
                                           bodies["base"].body_frame()))
    plant.AddJoint(RevoluteJoint("rev", offset("rev_F", bodies["base"], (0.3, -0.2, 0.1),
                                               (0.2, 0.1, 0.0)),
                                 child("rev_M", bodies["a"], (0.1, 0.4, -0.3), (0, 0.05, 0)),
                                 [1.0, 2.0, -0.5]))
    plant.AddJoint(PrismaticJoint("pri", offset("pri_F", bodies["a"], (0.0, 0.5, 0.2),
                                                 (0.1, 0.0, 0.3)), bodies["b"].body_frame(),
                                  [0.3, -1.0, 0.2]))
    plant.AddJoint(BallRpyJoint("ball", offset("ball_F", bodies["b"], (0.2, 0.0, -0.4),
                                               (0.0, 0.2, 0.1)),
                                child("ball_M", bodies["c"], (0.0, -0.3, 0.2), (0.1, 0, 0))))
    plant.AddJoint(PlanarJoint("planar", offset("planar_F", bodies["c"], (0.5, 0.1, 0.0),
                                                 (0.3, 0.0, 0.0)),
                               bodies["d"].body_frame()))
    plant.AddJoint(RpyFloatingJoint("rpyf", offset("rpyf_F", bodies["d"], (-0.2, 0.3, 0.1),
                                                   (0.0, 0.0, 0.2)),
                                    bodies["e"].body_frame()))
    plant.AddJoint(WeldJoint("weld", bodies["base"].body_frame(), bodies["w"].body_frame(),
                             RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [0.0, 0.4, 0.0])))
    return builder, plant, scene_graph, bodies


def random_q(plant, rng):
    """A random configuration: joint values in [-1, 1], quaternions of unit length."""
    q = rng.uniform(-1.0, 1.0, plant.num_positions())
    for j in plant.GetJointIndices():
        joint = plant.get_joint(j)
        if joint.type_name() == "quaternion_floating":
            s = joint.position_start()
            q[s:s + 4] /= np.linalg.norm(q[s:s + 4])
    return q


def two_trees(builder=None, time_step=0.0):
    """The scene whose order and names pydrake 1.51 reported: two model
    instances ("tree", "second::tree") of a base with branches a1-a2
    (revolute, prismatic) and b1-b2 (revolute, revolute), a box on each base
    and a sphere on each a1 (collision), a sphere on each base (visual)."""
    builder = builder or DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
    for prefix in ("", "second::"):
        mi = plant.AddModelInstance(prefix + "tree")
        I = unit_sphere_inertia()
        base, a1, a2, b1, b2 = (plant.AddRigidBody(n, mi, I)
                                for n in ("base", "a1", "a2", "b1", "b2"))

        def fo(name, body, xyz):
            return plant.AddFrame(FixedOffsetFrame(name, body.body_frame(),
                                                   RigidTransform(RollPitchYaw(0.1, 0.2, 0.3),
                                                                  xyz)))
        plant.AddJoint(RevoluteJoint("ja1", fo("ja1_parent", base, [0.1, 0, 0]),
                                     a1.body_frame(), [0, 0, 1], -1, 1))
        plant.AddJoint(PrismaticJoint("ja2", fo("ja2_parent", a1, [0, 0.2, 0]),
                                      a2.body_frame(), [1, 0, 0], -1, 1))
        plant.AddJoint(RevoluteJoint("jb1", fo("jb1_parent", base, [0, 0, 0.3]),
                                     b1.body_frame(), [0, 1, 0]))
        plant.AddJoint(RevoluteJoint("jb2", fo("jb2_parent", b1, [0.2, 0, 0.1]),
                                     b2.body_frame(), [0, 1, 0], -1, 1))
        plant.RegisterCollisionGeometry(base, RigidTransform(), Box(0.1, 0.1, 0.1), "Box",
                                        ProximityProperties())
        plant.RegisterCollisionGeometry(a1, RigidTransform(), Sphere(0.05), "cA",
                                        ProximityProperties())
        plant.RegisterVisualGeometry(base, RigidTransform(), Sphere(0.1), "Sphere",
                                     [0.5, 0.5, 0.5, 1])
    return builder, plant, scene_graph
