"""mesh_io.file_has_triangles on large COLLADA files: the answer comes from
the file's first and last 64 kB when the faces' closing tag is in the tail
(a robot's visual .dae holds megabytes of vertex arrays before its faces),
and a file without faces is still told apart."""
from __future__ import annotations

from scenegraph import mesh_io

_HEAD = (b'<?xml version="1.0"?>\n<COLLADA><library_geometries><geometry><mesh>\n'
         b'<source id="p"><float_array count="300000">')


def _collada(faces: bytes) -> bytes:
    numbers = b" ".join(b"0.125" for _ in range(100_000))         # ~600 kB of floats
    return _HEAD + numbers + b"</float_array></source>\n" + faces + (
        b"\n</mesh></geometry></library_geometries>"
        + b"<library_visual_scenes>" + b" " * 1000 + b"</library_visual_scenes></COLLADA>\n")


def test_the_closing_tag_in_the_tail_answers_without_the_middle():
    indices = b" ".join(b"0 1 2" for _ in range(20_000))           # ~120 kB of indices
    data = _collada(b'<triangles count="20000"><p>' + indices + b"</p></triangles>")
    head, tail = data[:mesh_io._PEEK], data[-mesh_io._PEEK:]
    assert b"<triangles" not in head and b"<triangles" not in tail
    assert mesh_io._quick_has_triangles(".dae", head, tail, len(data)) is True
    assert mesh_io._quick_has_triangles(".dae", head, b"</mesh>" * 10, len(data)) is None


def test_large_collada_files_with_and_without_faces(tmp_path):
    with_faces = tmp_path / "with.dae"
    with_faces.write_bytes(_collada(b'<polylist count="1"><vcount>3</vcount><p>0 1 2</p>'
                                    b'</polylist>'))
    without = tmp_path / "without.dae"
    without.write_bytes(_collada(b"<lines count=\"1\"><p>0 1</p></lines>"))
    assert mesh_io.file_has_triangles(with_faces) is True
    assert mesh_io.file_has_triangles(without) is False
