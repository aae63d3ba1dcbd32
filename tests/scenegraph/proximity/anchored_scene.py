"""A SceneGraph of anchored proximity geometries at given poses, shared by
the tests that replay one pair from a benchmark scene or a fuzz example."""
import numpy as np

from scenegraph import GeometryInstance, ProximityProperties, SceneGraph
from scenegraph.math import RigidTransform, RotationMatrix


def anchored_query(*geometries):
    """(QueryObject, [GeometryId]) of a new SceneGraph holding each
    (name, shape, R_WG (3, 3), p_WG (3,) [m]) of `geometries` as an anchored
    geometry with the proximity role, registered in the order given."""
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("anchored")
    ids = []
    for name, shape, R_WG, p_WG in geometries:
        X_WG = RigidTransform(RotationMatrix(np.asarray(R_WG, dtype=float)),
                              np.asarray(p_WG, dtype=float))
        gid = scene_graph.RegisterAnchoredGeometry(source, GeometryInstance(X_WG, shape, name))
        scene_graph.AssignRole(source, gid, ProximityProperties())
        ids.append(gid)
    context = scene_graph.CreateDefaultContext()
    return scene_graph.get_query_output_port().Eval(context), ids
