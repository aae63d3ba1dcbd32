"""Shapes sent to Meshcat: colours, Drake's z-up cylinder, closed outward capsule and cone
meshes, Mesh and Convex, triangle surface meshes, point clouds, lines and meshes from
matrices."""

import numpy as np
import pytest

from scenegraph import (Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, MeshcatCone,
                        Rgba, Sphere)
from scenegraph.hydroelastic.surface_mesh import TriangleSurfaceMesh
from tests.scenegraph.visualization.scene_reader import array, fold, matrix, read_scene


def _geometry(state, path):
    obj = state["objects"][path]
    return obj["geometries"][0], obj["materials"][0], obj["object"]


# --- shapes -------------------------------------------------------------------------
def test_shapes_and_colours(meshcat):
    meshcat.SetObject("sphere", Sphere(0.3), Rgba(0, 1, 0, 0.5))
    meshcat.SetObject("ellipsoid", Ellipsoid(0.1, 0.2, 0.3))
    meshcat.SetObject("half", HalfSpace())
    state = fold(read_scene(meshcat))
    geometry, material, _ = _geometry(state, "/drake/sphere")
    assert geometry["type"] == "SphereGeometry" and geometry["radius"] == 0.3
    assert material["color"] == 0x00FF00 and material["opacity"] == 0.5
    assert material["transparent"] is True
    _, material, obj = _geometry(state, "/drake/ellipsoid")
    np.testing.assert_allclose(np.asarray(obj["matrix"]).reshape(4, 4).T,
                               np.diag([0.1, 0.2, 0.3, 1.0]))
    assert material["color"] == 0xE6E6E6          # Drake's default Rgba(0.9, 0.9, 0.9)
    assert _geometry(state, "/drake/half")[0]["type"] == "PlaneGeometry"


def test_cylinder_is_drakes_z_up(meshcat):
    """three.js cylinders run along y; the object matrix turns y into Gz."""
    meshcat.SetObject("cyl", Cylinder(0.1, 0.6))
    geometry, _, obj = _geometry(fold(read_scene(meshcat)), "/drake/cyl")
    assert geometry["type"] == "CylinderGeometry" and geometry["height"] == 0.6
    X_GY = np.asarray(obj["matrix"]).reshape(4, 4).T
    np.testing.assert_allclose(X_GY[:3, :3] @ [0, 1, 0], [0, 0, 1], atol=1e-12)
    np.testing.assert_allclose(X_GY[:3, :3] @ [0, 0, 1], [0, -1, 0], atol=1e-12)


def _mesh_of(state, path):
    geometry = state["objects"][path]["geometries"][0]
    p = array(geometry["data"]["attributes"]["position"])
    faces = array(geometry["data"]["index"]).reshape(-1, 3)
    return p.astype(float), faces.astype(int)


def _signed_volume(p, faces):
    v0, v1, v2 = p[faces[:, 0]], p[faces[:, 1]], p[faces[:, 2]]
    return np.einsum("ij,ij->i", v0, np.cross(v1, v2)).sum() / 6.0


def test_capsule_and_cone_are_closed_outward_meshes(meshcat):
    meshcat.SetObject("capsule", Capsule(0.1, 0.4))
    meshcat.SetObject("cone", MeshcatCone(0.5, 0.1, 0.2))
    state = fold(read_scene(meshcat))
    p, faces = _mesh_of(state, "/drake/capsule")
    np.testing.assert_allclose(p.min(axis=0), [-0.1, -0.1, -0.3], atol=1e-6)
    np.testing.assert_allclose(p.max(axis=0), [0.1, 0.1, 0.3], atol=1e-6)
    exact = np.pi * 0.1**2 * 0.4 + 4 / 3 * np.pi * 0.1**3
    assert 0.97 * exact < _signed_volume(p, faces) < exact
    p, faces = _mesh_of(state, "/drake/cone")
    np.testing.assert_allclose(p.min(axis=0), [-0.1, -0.2, 0.0], atol=1e-6)
    np.testing.assert_allclose(p.max(axis=0), [0.1, 0.2, 0.5], atol=1e-6)
    exact = np.pi * 0.1 * 0.2 * 0.5 / 3
    assert 0.99 * exact < _signed_volume(p, faces) < exact


def test_mesh_and_convex_shapes(meshcat):
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    F = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
    meshcat.SetObject("mesh", Mesh(V.T, faces=F, scale=2.0))
    meshcat.SetObject("convex", Convex(V.T))
    state = fold(read_scene(meshcat))
    p, faces = _mesh_of(state, "/drake/mesh")
    np.testing.assert_allclose(p, 2 * V)
    np.testing.assert_array_equal(faces, F)
    p, faces = _mesh_of(state, "/drake/convex")
    assert len(faces) == 4 and abs(_signed_volume(p, faces)) == pytest.approx(1 / 6)


def test_triangle_surface_mesh_point_cloud_and_lines(meshcat):
    mesh = TriangleSurfaceMesh([[0, 1, 2]], [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    meshcat.SetObject("surface", mesh, Rgba(0, 0, 1, 1))
    cloud = np.array([[0.0, 1.0, np.nan], [0.0, 2.0, 0.0], [0.0, 3.0, 0.0]])
    meshcat.SetObject("cloud", cloud, 0.01, Rgba(1, 0, 0, 1))
    meshcat.SetLine("line", np.array([[0, 1, 2], [0, 0, 0], [0, 0, 1.0]]), 2.0)
    meshcat.SetLineSegments("segments", np.zeros((3, 2)), np.ones((3, 2)))
    with pytest.raises(RuntimeError, match="start has 2 columns but end has 3"):
        meshcat.SetLineSegments("bad", np.zeros((3, 2)), np.ones((3, 3)))
    with pytest.raises(TypeError, match=r"SetObject\(\): incompatible function arguments"):
        meshcat.SetObject("bad", "box")
    state = fold(read_scene(meshcat))
    p, faces = _mesh_of(state, "/drake/surface")
    np.testing.assert_allclose(p, [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    assert _geometry(state, "/drake/surface")[1]["color"] == 0x0000FF
    geometry, material, obj = _geometry(state, "/drake/cloud")
    assert obj["type"] == "Points" and material["size"] == 0.01
    np.testing.assert_allclose(array(geometry["data"]["attributes"]["position"]),
                               [[0, 0, 0], [1, 2, 3]])      # the NaN point is dropped
    assert state["objects"]["/drake/line"]["object"]["type"] == "Line"
    geometry, _, obj = _geometry(state, "/drake/segments")
    assert obj["type"] == "LineSegments"
    assert array(geometry["data"]["attributes"]["position"]).shape == (4, 3)


def test_triangle_meshes_from_matrices(meshcat):
    V = np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0.0]])        # 3×N
    F = np.array([[0], [1], [2]])                             # 3×M
    meshcat.SetTriangleMesh("tri", V, F, Rgba(1, 0, 0, 1), wireframe=True)
    meshcat.SetTriangleColorMesh("colored", V, F, np.eye(3))
    with pytest.raises(ValueError, match="face index is outside"):
        meshcat.SetTriangleMesh("bad", V, F + 3)
    X, Y = np.meshgrid(np.linspace(0, 1, 4), np.linspace(0, 1, 3))
    meshcat.PlotSurface("surface", X, Y, X * Y)
    state = fold(read_scene(meshcat))
    assert _geometry(state, "/drake/tri")[1]["wireframe"] is True
    geometry, material, _ = _geometry(state, "/drake/colored")
    np.testing.assert_allclose(array(geometry["data"]["attributes"]["color"]), np.eye(3))
    assert material["vertexColors"] is True
    assert _mesh_of(state, "/drake/surface")[1].shape == (2 * 3 * 2, 3)
