"""Mesh files' arrays kept on disk (scenegraph/mesh_cache.py): a kept answer
is trimesh's, a damaged or out-of-range entry is never trusted, a changed
file gets its own entry, a failed read keeps nothing, and a new process reads
a seen STL without importing trimesh."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
import trimesh

from scenegraph import mesh_cache
from scenegraph.mesh_io import load_mesh_file, parse_obj


@pytest.fixture
def cache_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(mesh_cache, "_folders", lambda: [str(tmp_path / "meshes")])
    return tmp_path / "meshes"


def _box_file(folder, extension: str, extents=(0.1, 0.2, 0.3)):
    path = folder / f"box{extension}"
    mesh = trimesh.creation.box(extents=extents)
    mesh.apply_translation([0.01, -0.02, 0.03])
    mesh.export(str(path))
    return path


def _trimesh_arrays(path):
    mesh = trimesh.load(str(path), force="mesh", process=False)
    return np.asarray(mesh.vertices, dtype=float), np.asarray(mesh.faces, dtype=np.int64)


@pytest.mark.parametrize("extension", [".stl", ".dae", ".ply"])
def test_a_kept_answer_is_trimeshs_arrays(tmp_path, cache_folder, extension):
    path = _box_file(tmp_path, extension)
    V0, F0 = _trimesh_arrays(path)
    first = load_mesh_file(path)                    # trimesh, then kept
    assert len(list(cache_folder.glob("*.mesh"))) == 1
    again = load_mesh_file(path)                    # read back
    for V, F in (first, again):
        assert V.dtype == np.float64 and F.dtype == np.int64
        assert np.array_equal(V, V0) and np.array_equal(F, F0)
    assert len(again[1]) == 12 and len(again[0]) == (36 if extension == ".stl" else 8)


def _obj_text(n: int) -> str:
    """A closed n-gon prism's OBJ text (2n vertices, 4n - 4 triangles),
    coordinates written in full."""
    t = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    lines = [f"v {float(np.cos(a))!r} {float(np.sin(a))!r} {z!r}" for z in (0.0, 0.25) for a in t]
    lines += [f"f 1 {k + 1} {k}" for k in range(2, n)]                       # bottom
    lines += [f"f {n + 1} {n + k} {n + k + 1}" for k in range(2, n)]         # top
    lines += [f"f {k + 1} {(k + 1) % n + 1} {n + (k + 1) % n + 1} {n + k + 1}" for k in range(n)]
    return "\n".join(lines) + "\n"


def test_a_large_obj_file_is_kept_and_read_back_as_its_reader_reads_it(tmp_path, cache_folder):
    path = tmp_path / "prism.obj"
    path.write_text(_obj_text(600))
    assert path.stat().st_size >= mesh_cache.OBJ_MIN_BYTES
    expected = parse_obj(path.read_bytes(), str(path))
    first = load_mesh_file(path)
    assert len(list(cache_folder.glob("*.mesh"))) == 1
    again = load_mesh_file(path)
    for V, F in (first, again):
        assert np.array_equal(V, expected[0]) and np.array_equal(F, expected[1])
    assert again[0].shape == (1200, 3) and again[1].shape == (600 * 4 - 4, 3)


def test_a_gltf_file_is_not_kept_its_buffers_may_be_other_files(tmp_path, cache_folder):
    path = _box_file(tmp_path, ".glb")
    V, F = load_mesh_file(path)
    assert np.array_equal(V, _trimesh_arrays(path)[0]) and len(F) == 12
    assert not cache_folder.exists()


def test_a_small_obj_file_is_not_kept(tmp_path, cache_folder):
    path = tmp_path / "tri.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    V, F = load_mesh_file(path)
    assert V.shape == (4, 3) and F.tolist()[0] == [0, 2, 1]
    assert not cache_folder.exists()


def test_a_damaged_entry_is_ignored_and_replaced(tmp_path, cache_folder):
    path = _box_file(tmp_path, ".stl")
    V0, F0 = load_mesh_file(path)
    (entry,) = cache_folder.glob("*.mesh")
    entry.write_bytes(b"not an entry")
    V, F = load_mesh_file(path)
    assert np.array_equal(V, V0) and np.array_equal(F, F0)
    assert mesh_cache._read(str(entry)) is not None                 # rewritten


def test_out_of_range_non_finite_or_cut_entries_are_never_trusted(tmp_path, cache_folder):
    path = _box_file(tmp_path, ".stl")
    load_mesh_file(path)
    (entry,) = cache_folder.glob("*.mesh")
    V, F = mesh_cache._read(str(entry))
    bad_F = F.copy()
    bad_F[0, 0] = len(V)                                            # no such vertex
    mesh_cache._write(entry.stem, V, bad_F)
    assert mesh_cache._read(str(entry)) is None
    bad_V = V.copy()
    bad_V[1, 2] = np.nan
    mesh_cache._write(entry.stem, bad_V, F)
    assert mesh_cache._read(str(entry)) is None
    mesh_cache._write(entry.stem, V, F)
    whole = entry.read_bytes()
    entry.write_bytes(whole[:-8])                                   # cut short
    assert mesh_cache._read(str(entry)) is None
    entry.write_bytes(b"SGMESH00" + whole[8:])                      # another layout
    assert mesh_cache._read(str(entry)) is None
    assert np.array_equal(load_mesh_file(path)[0], _trimesh_arrays(path)[0])
    assert mesh_cache._read(str(entry)) is not None                 # rewritten


def test_a_changed_file_gets_its_own_entry(tmp_path, cache_folder):
    path = _box_file(tmp_path, ".stl")
    V0, _ = load_mesh_file(path)
    _box_file(tmp_path, ".stl", extents=(0.1, 0.2, 0.4))             # same name, new bytes
    V1, _ = load_mesh_file(path)
    assert len(list(cache_folder.glob("*.mesh"))) == 2
    assert np.ptp(V0[:, 2]) == pytest.approx(0.3) and np.ptp(V1[:, 2]) == pytest.approx(0.4)


def test_the_key_tells_bytes_formats_and_readers_apart():
    stamp = mesh_cache._readers_stamp()
    key = mesh_cache._key(b"solid x", ".stl", stamp)
    assert key != mesh_cache._key(b"solid x", ".ply", stamp)
    assert key != mesh_cache._key(b"solid y", ".stl", stamp)
    assert key != mesh_cache._key(b"solid x", ".stl", stamp.replace("trimesh=", "trimesh=0"))


def test_a_failed_read_keeps_nothing_and_names_the_file(tmp_path, cache_folder):
    path = tmp_path / "broken.ply"
    path.write_bytes(b"ply\nformat ascii 1.0\nelement vertex 3\nend_header\n1 2\n")
    with pytest.raises(RuntimeError, match="broken.ply"):
        load_mesh_file(path)
    assert not cache_folder.exists() or not list(cache_folder.glob("*.mesh"))


def test_the_readers_stamp_names_the_installed_versions_and_the_readers_source():
    import hashlib
    from importlib.metadata import version

    from scenegraph import mesh_io
    with open(mesh_io.__file__, "rb") as f:
        source = hashlib.sha1(f.read()).hexdigest()
    assert mesh_cache._readers_stamp() == (
        f"trimesh={version('trimesh')};pycollada={version('pycollada')};"
        f"numpy={np.__version__};mesh_io={source};format={mesh_cache._FORMAT}")


def test_a_new_process_reads_a_seen_stl_without_trimesh(tmp_path):
    path = _box_file(tmp_path, ".stl")
    code = ("import sys\n"
            "from scenegraph import mesh_cache\n"
            f"mesh_cache._folders = lambda: [{str(tmp_path / 'meshes')!r}]\n"
            "from scenegraph.mesh_io import load_mesh_file\n"
            f"V, F = load_mesh_file({str(path)!r})\n"
            "print(len(V), len(F), float(V.sum()), 'trimesh' in sys.modules)\n")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env=dict(os.environ)).stdout.split()
            for _ in range(2)]
    assert runs[0][3] == "True" and runs[1][3] == "False"   # trimesh once, then the disk
    assert runs[0][:3] == runs[1][:3] == ["36", "12", repr(float(_trimesh_arrays(path)[0].sum()))]
