"""The plain-OBJ fast path of scenegraph.mesh_io.parse_obj (numpy, for large
meshes) gives exactly what the
general line-by-line reader gives -- the same vertices bit for bit, the same
triangles, the same error -- on every kind of record and layout it might be
handed, and hands everything it does not read itself to that reader."""
import numpy as np
import pytest

from scenegraph import mesh_io

TETRA_V = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
TETRA_F = "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"

TEXTS = {
    "plain": TETRA_V + TETRA_F,
    "no final newline": (TETRA_V + TETRA_F).rstrip("\n"),
    "CRLF": (TETRA_V + TETRA_F).replace("\n", "\r\n"),
    "comments, groups, normals, texture coordinates": (
        "# made by hand\nmtllib a.mtl\no thing\n" + TETRA_V
        + "vn 0 0 1\nvt 0.5 0.5\ng side\nusemtl red\ns off\n" + TETRA_F),
    "slashed references": TETRA_V + "vt 0 0\nvn 0 0 1\n" + (
        "f 1/1/1 3/1/1 2/1/1\nf 1//1 2//1 4//1\nf 1/1 4/1 3/1\nf 2 3 4\n"),
    "negative references": TETRA_V + "f -4 -2 -3\nf -4 -3 -1\nf -4 -1 -2\nf -3 -2 -1\n",
    "tabs and repeated spaces": TETRA_V.replace(" ", "\t") + TETRA_F.replace(" ", "   "),
    "exact decimals": ("v 0.1 0.30000000000000004 1e-320\nv 1.7976931348623157e308 -0.0 .5\n"
                       "v 5. +2 -3.25e+2\nv 4.9e-324 0.7 0.2\n" + TETRA_F),
    "vertices only": TETRA_V,
    # --- layouts left to the general reader (same answer or same error) ---
    "leading whitespace": "  " + TETRA_V.replace("\n", "\n  ") + TETRA_F,
    "quads": TETRA_V + "v 1 1 0\nf 1 2 5 3\nf 1 2 4\n",
    "w coordinates": TETRA_V.replace("\n", " 1\n") + TETRA_F,
    "vertex colours": TETRA_V.replace("\n", " 0.5 0.5 0.5\n") + TETRA_F,
    "a 2-number and a 4-number vertex": "v 0 0\nv 1 0 0 0\nv 0 1 0\nv 0 0 1\n" + TETRA_F,
    "a 2-index and a 4-index face": TETRA_V + "f 1 2\nf 1 2 3 4\n",
    "faces between vertices": "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nv 0 0 1\nf 1 2 4\n",
    "a reference to a later vertex": "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\nv 0 0 1\n",
    "index 0": TETRA_V + "f 0 1 2\n",
    "index out of range": TETRA_V + "f 1 2 9\n",
    "negative index out of range": TETRA_V + "f -1 -2 -9\n",
    "huge index": TETRA_V + "f 1 2 99999999999999999999999\n",
    "a bare v": TETRA_V + "v\n" + TETRA_F,
    "a bare f at the end": TETRA_V + "f",
    "a comment after a vertex": "v 0 0 0 # origin\n" + TETRA_V[8:] + TETRA_F,
    "nan vertex": TETRA_V.replace("v 1 0 0", "v nan 0 0") + TETRA_F,
    "inf vertex": TETRA_V.replace("v 1 0 0", "v 1 inf 0") + TETRA_F,
    "underscore digits": TETRA_V.replace("v 1 0 0", "v 1_0 0 0") + TETRA_F,
    "a word for a number": TETRA_V.replace("v 1 0 0", "v one 0 0") + TETRA_F,
    "a float face index": TETRA_V + "f 1 2 3.0\n",
    "a reference with no index": TETRA_V + "f /1 2 3\n",
    "form feed line break": TETRA_V + "\x0c" + TETRA_F,
    "lone carriage returns": (TETRA_V + TETRA_F).replace("\n", "\r"),
    "non-ASCII comment": "# café\n" + TETRA_V + TETRA_F,
    "no vertices": "# nothing\n",
    # --- the block reader's layout, and near misses it leaves to the line reader ---
    "trailing spaces": TETRA_V.replace("\n", " \n") + TETRA_F,
    "a comment line inside the vertex block": TETRA_V[:16] + "# c\n" + TETRA_V[16:] + TETRA_F,
    "a normal inside the vertex block": TETRA_V[:16] + "vn 0 0 1\n" + TETRA_V[16:] + TETRA_F,
    "a group line inside the face block": TETRA_V + TETRA_F[:8] + "g two\n" + TETRA_F[8:],
    "a 4-number and a 2-number vertex in one block": (
        "v 0 0 0 0\nv 1 0\nv 0 1 0\nv 0 0 1\n" + TETRA_F),
    "a face on the vertices' last line's heels": TETRA_V + "f 1 2 3\nf 1 2 4",
    "double spaces in one vertex": TETRA_V.replace("v 1 0 0", "v 1  0 0") + TETRA_F,
}


def _general(data):
    """parse_obj with the fast path switched off."""
    original = mesh_io._parse_plain_obj
    mesh_io._parse_plain_obj = lambda text: None
    try:
        return mesh_io.parse_obj(data, "mesh.obj")
    finally:
        mesh_io._parse_plain_obj = original


def _outcome(read, data):
    try:
        V, F = read(data)
    except RuntimeError as error:
        return ("error", str(error))
    assert V.dtype == np.float64 and F.dtype == np.int64
    assert V.shape[1:] == (3,) and F.shape[1:] == (3,)
    return ("ok", V.tobytes(), F.tobytes())


@pytest.mark.parametrize("name", list(TEXTS))
def test_fast_path_reads_exactly_what_the_general_reader_reads(name):
    data = TEXTS[name].encode("utf-8")
    assert _outcome(lambda d: mesh_io.parse_obj(d, "mesh.obj"), data) == _outcome(_general,
                                                                                 data)


def test_plain_files_take_the_fast_path_and_the_others_do_not():
    plain = {"plain", "no final newline", "CRLF", "slashed references", "negative references",
             "comments, groups, normals, texture coordinates", "tabs and repeated spaces",
             "exact decimals", "vertices only", "trailing spaces",
             "a comment line inside the vertex block", "a normal inside the vertex block",
             "a group line inside the face block", "a face on the vertices' last line's heels",
             "double spaces in one vertex"}
    for name, text in TEXTS.items():
        taken = mesh_io._parse_plain_obj(text) is not None
        assert taken == (name in plain), name


def test_the_block_reader_reads_its_layout_exactly_and_leaves_the_rest():
    """_parse_block_obj (a block of v lines, then a block of plain f lines,
    single spaces) gives the general reader's result bit for bit or None."""
    blocks = {"plain", "no final newline", "negative references", "exact decimals",
              "vertices only", "comments, groups, normals, texture coordinates",
              "a face on the vertices' last line's heels"}
    for name, text in TEXTS.items():
        found = mesh_io._parse_block_obj(text) if mesh_io._plain_characters(text) else None
        assert (found is not None) == (name in blocks), name
        if found is not None:
            V, F = found
            assert V.dtype == np.float64 and F.dtype == np.int64
            assert ("ok", V.tobytes(), F.tobytes()) == _outcome(_general, text.encode()), name


def test_random_mesh_round_trips_bit_for_bit():
    rng = np.random.default_rng(12)
    V = rng.normal(size=(500, 3)) * 10.0 ** rng.integers(-8, 8, size=(500, 1))
    F = rng.integers(0, 500, size=(900, 3))
    text = "".join(f"v {x!r} {y!r} {z!r}\n" for x, y, z in V.tolist()) + "".join(
        f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in F.tolist())
    V2, F2 = mesh_io._parse_plain_obj(text)
    assert V2.tobytes() == V.tobytes() and np.array_equal(F2, F)
