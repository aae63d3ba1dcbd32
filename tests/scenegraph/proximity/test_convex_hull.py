"""Convex hulls: geometry, orientation, facet merging, caching, bad input."""
from __future__ import annotations

import numpy as np
import pytest
import trimesh
from scipy.spatial import ConvexHull

from scenegraph.proximity.convex_hull import (
    clear_convex_hull_cache, compute_convex_hull, convex_hull)


def cube_points(h=0.1):
    return np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * h


def volume(hull):
    V, F = hull.vertices, hull.faces
    return (V[F[:, 0]] * np.cross(V[F[:, 1]], V[F[:, 2]])).sum() / 6.0


def test_cube_with_interior_points():
    rng = np.random.default_rng(0)
    pts = np.concatenate([cube_points(), rng.uniform(-0.09, 0.09, (50, 3))])
    hull = compute_convex_hull(pts)
    assert hull.num_vertices == 8
    assert len(hull.faces) == 12
    assert len(hull.plane_normals) == 6              # coplanar triangles merged
    assert sorted(np.bincount(hull.face_plane).tolist()) == [2] * 6
    np.testing.assert_allclose(hull.plane_offsets, 0.1, atol=1e-15)
    assert volume(hull) == pytest.approx(0.008, abs=1e-15)
    lo, hi = hull.local_aabb()
    np.testing.assert_allclose(lo, -0.1)
    np.testing.assert_allclose(hi, 0.1)


def test_random_points_outward_and_containing():
    rng = np.random.default_rng(1)
    pts = rng.normal(size=(300, 3)) * [0.1, 0.05, 0.2]
    hull = compute_convex_hull(pts)
    ref = ConvexHull(pts)
    assert volume(hull) == pytest.approx(ref.volume, rel=1e-12)
    # Every input point is inside every facet plane.
    s = pts @ hull.plane_normals.T - hull.plane_offsets
    assert s.max() <= 1e-15
    # Triangles are counter-clockwise from outside: their normal is the facet's.
    V, F = hull.vertices, hull.faces
    n = np.cross(V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]])
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    np.testing.assert_allclose(n, hull.face_normals, atol=1e-9)
    # Every hull vertex lies on at least three facets.
    on = np.abs(V @ hull.plane_normals.T - hull.plane_offsets) <= 1e-14
    assert (on.sum(axis=1) >= 3).all()
    # Closed, consistently oriented triangle mesh.
    assert trimesh.Trimesh(V, F, process=False).is_watertight


def test_cache_by_source_and_scale(tmp_path):
    clear_convex_hull_cache()
    pts = cube_points()
    a = convex_hull(pts)
    assert convex_hull(pts.copy()) is a
    b = convex_hull(pts, 2.0)
    assert b is not a
    np.testing.assert_allclose(b.plane_offsets, 0.2)
    c = convex_hull(pts, [1.0, 2.0, 3.0])
    np.testing.assert_allclose(sorted(c.plane_offsets), [0.1, 0.1, 0.2, 0.2, 0.3, 0.3])
    assert convex_hull(pts.T) is a                    # (3, N) accepted
    path = tmp_path / "box.obj"
    trimesh.creation.box((0.2, 0.4, 0.6)).export(path)
    f = convex_hull(str(path), 0.5)
    assert convex_hull(path, 0.5) is f
    np.testing.assert_allclose(f.vertices.max(axis=0), [0.05, 0.1, 0.15], atol=1e-15)
    assert len(f.plane_normals) == 6


@pytest.mark.parametrize("pts,match", [
    (cube_points()[:3], "at least 4"),
    (np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0.5, 0.2, 0]], float), "coplanar"),
    (np.array([[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3]], float), "coplanar"),
    (np.array([[0, 0, 0]] * 5, float), "at least 4"),
    (np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, np.nan]]), "NaN"),
    (np.zeros((4, 2)), r"\(N, 3\)"),
])
def test_degenerate_input_is_rejected(pts, match):
    with pytest.raises(ValueError, match=match):
        convex_hull(pts)


def test_bad_scale_and_missing_file(tmp_path):
    with pytest.raises(ValueError, match="scale"):
        convex_hull(cube_points(), 0.0)
    with pytest.raises(ValueError, match="scale"):
        convex_hull(cube_points(), [1.0, np.inf, 1.0])
    with pytest.raises(ValueError, match="cannot read"):
        convex_hull(tmp_path / "nope.obj")


def test_mirroring_scale_keeps_outward_orientation():
    rng = np.random.default_rng(2)
    pts = rng.normal(size=(40, 3))
    hull = convex_hull(pts, [-1.0, 1.0, 1.0])
    assert volume(hull) > 0
    np.testing.assert_allclose(hull.vertices[:, 0].min(), -pts[:, 0].max())


@pytest.mark.parametrize("vertices,faces,reason", [
    ([[0, 1, 0], [0, 0, 1], [0, 0, 0]], [[0, 1, 2]], "at least 4 distinct points, got 3"),
    ([[0, 1, 0, 1], [0, 0, 1, 1], [0, 0, 0, 0]], [[0, 1, 2], [1, 3, 2]], "coplanar"),
])
def test_flat_mesh_shape_data_names_the_mesh(vertices, faces, reason):
    from scenegraph import Mesh
    from scenegraph.proximity.shape_data import shape_data_from_shape

    mesh = Mesh(np.array(vertices, float), faces=faces, label="floor_tile")
    with pytest.raises(ValueError, match=rf"Mesh 'floor_tile' cannot take part in proximity "
                                         rf"queries \(they use its convex hull\): .*{reason}"):
        shape_data_from_shape(mesh)


def test_flat_mesh_file_is_named_by_its_path(tmp_path):
    from scenegraph import Mesh
    from scenegraph.proximity.shape_data import shape_data_from_shape

    path = tmp_path / "quad.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n")
    with pytest.raises(ValueError, match=f"Mesh '{path}' cannot take part.*coplanar"):
        shape_data_from_shape(Mesh(str(path)))
