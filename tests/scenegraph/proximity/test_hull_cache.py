"""Qhull's answers kept on disk (proximity/hull_cache.py): a hull built from
kept triangles is the hull Qhull gives, a damaged file is never trusted, other
points never read another set's answer, and a new process builds a seen hull
without importing scipy."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from scenegraph.proximity import convex_hull as ch
from scenegraph.proximity import hull_cache


@pytest.fixture
def cache_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(hull_cache, "_folders", lambda: [str(tmp_path / "hulls")])
    return tmp_path / "hulls"


def _fields(hull):
    return {name: getattr(hull, name) for name in hull.__dataclass_fields__}


def _same(a, b) -> bool:
    fa, fb = _fields(a), _fields(b)
    return all(fa[k] == fb[k] if isinstance(fa[k], str) else np.array_equal(fa[k], fb[k])
               for k in fa)


def _points(seed=3, n=150):
    return np.random.default_rng(seed).normal(size=(n, 3))


def test_a_hull_from_kept_triangles_equals_qhulls(cache_folder):
    points = _points()
    first = ch.compute_convex_hull(points)          # Qhull, then kept
    assert len(list(cache_folder.glob("*.npz"))) == 1
    again = ch.compute_convex_hull(points)          # read back
    assert _same(first, again)


def test_a_box_with_coplanar_faces_is_the_same_read_back(cache_folder):
    corners = np.array([[x, y, z] for x in (0, 1) for y in (0, 2) for z in (0, 3)], float)
    points = np.vstack([corners, [[0.5, 1.0, 0.0], [0.5, 0.0, 1.5]]])   # on faces
    first = ch.compute_convex_hull(points)
    again = ch.compute_convex_hull(points)
    assert _same(first, again) and len(again.plane_normals) == 6


def test_a_damaged_file_is_ignored_and_replaced(cache_folder):
    points = _points(seed=4)
    first = ch.compute_convex_hull(points)
    (path,) = cache_folder.glob("*.npz")
    path.write_bytes(b"not an npz")
    assert _same(first, ch.compute_convex_hull(points))
    assert hull_cache._read(str(path), len(points)) is not None     # rewritten


def test_out_of_range_indices_are_never_trusted(cache_folder):
    points = _points(seed=5)
    ch.compute_convex_hull(points)
    (path,) = cache_folder.glob("*.npz")
    U = ch.check_spans_volume(points, "t")
    simplices, neighbors, equations = hull_cache._read(str(path), len(U))
    simplices = simplices.copy()
    simplices[0, 0] = len(U)                                          # no such point
    np.savez(path, simplices=simplices, neighbors=neighbors, equations=equations)
    assert hull_cache._read(str(path), len(U)) is None


def test_points_one_ulp_apart_have_their_own_entries(cache_folder):
    points = _points(seed=6)
    moved = points.copy()
    moved[0, 0] = np.nextafter(moved[0, 0], np.inf)
    ch.compute_convex_hull(points)
    ch.compute_convex_hull(moved)
    assert len(list(cache_folder.glob("*.npz"))) == 2


def test_a_new_process_builds_a_seen_hull_without_scipy(tmp_path):
    code = ("import sys, numpy as np\n"
            "from scenegraph.proximity import convex_hull as ch\n"
            "from scenegraph.proximity import hull_cache\n"
            f"hull_cache._folders = lambda: [{str(tmp_path)!r}]\n"
            "points = np.random.default_rng(7).normal(size=(90, 3))\n"
            "hull = ch.compute_convex_hull(points)\n"
            "print(len(hull.vertices), 'scipy' in sys.modules)\n")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env=dict(os.environ)).stdout.split()
            for _ in range(2)]
    assert runs[0][1] == "True" and runs[1][1] == "False"   # Qhull once, then the disk
    assert runs[0][0] == runs[1][0]
