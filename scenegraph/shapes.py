"""Shape specifications (pydrake.geometry's Shape hierarchy) and CalcVolume.

Every shape is defined in its canonical frame G (units: m):
  * Sphere(radius): centred on Go.
  * Box(width, depth, height): full extents along Gx, Gy, Gz, centred on Go.
  * Capsule(radius, length) / Cylinder(radius, length): axis along Gz,
    ``length`` is the cylindrical part, centred on Go.
  * Ellipsoid(a, b, c): semi-axes along Gx, Gy, Gz.
  * HalfSpace(): the set z <= 0, outward normal +Gz through Go.
  * Mesh / Convex: vertices read from a file (via trimesh) or given in memory,
    scaled about Go by ``scale``; Convex stands for the convex hull.
  * MeshcatCone(height, a, b): apex at Go, opening along +Gz (illustration only).

Invalid sizes raise RuntimeError at construction (as pydrake), non-finite
values included. Accessor names are Drake's (radius(), length(), width(), ...).
"""
from __future__ import annotations

import copy
import math
import os

import numpy as np

from scenegraph import mesh_io
from scenegraph.hull_polygons import _check_has_volume, _mesh_volume, convex_hull_polygons
from scenegraph.mesh_source import InMemoryMesh, MemoryFile, MeshSource
from systems.common.overloads import overloaded


def _check_finite(shape_name: str, **values) -> None:
    for name, v in values.items():
        if not math.isfinite(v):
            raise RuntimeError(f"{shape_name} {name} must be finite (was {v})")


_TEXT = (str, bytes, bytearray)


def _not_real(value) -> bool:
    """True for what float() would take but is not a real number: text ("1"
    parses), complex numbers (numpy's drop their imaginary part with a
    warning), and arrays of them."""
    if isinstance(value, _TEXT + (complex, np.complexfloating)):
        return True
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "O":
            return any(_not_real(v) for v in value.flat)
        return value.dtype.kind not in "biuf"
    return False


def _describe(value) -> str:
    """`value` as an error message shows it: its type, then its repr."""
    return f"{type(value).__name__} {value!r}"


def _float(value, shape_name: str, name: str) -> float:
    """`value` as a float; TypeError naming the shape, the parameter and the
    value when it is not a real number (text such as "1" included: pydrake's
    constructors refuse it too)."""
    if not _not_real(value):
        try:
            return float(value)
        except (TypeError, ValueError):
            pass
    raise TypeError(f"{shape_name} {name} must be a real number; got "
                    f"{_describe(value)}") from None


def _real_array(values, what: str, dtype=float) -> np.ndarray:
    """`values` (array-like) as an array of `dtype`; TypeError naming `what`
    and the first entry that is not a real number (text like "1" included,
    which numpy would otherwise parse; pydrake lets numpy parse it), or not an
    integer where `dtype` is an integer type."""
    integral = np.issubdtype(dtype, np.integer)
    try:
        plain = np.asarray(values)
    except (TypeError, ValueError):
        plain = None
    if plain is not None and plain.dtype.kind in ("iu" if integral else "biuf"):
        return plain.astype(dtype, copy=False)      # numbers already (the usual case)
    if plain is not None and integral and plain.dtype.kind == "f" and \
            np.isfinite(plain).all() and (plain == np.round(plain)).all():
        return plain.astype(dtype)                  # integers held as floats
    try:
        entries = np.asarray(values, dtype=object)
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be an array of real numbers; got "
                        f"{values!r}") from None
    for index, entry in np.ndenumerate(entries):
        if isinstance(entry, np.ndarray) or _not_real(entry) or not _is_number(entry) \
                or (integral and not _is_integral(entry)):
            kind = "an integer" if integral else "a real number"
            at = ", ".join(str(i) for i in index)
            raise TypeError(f"{what} must hold numbers; entry [{at}] is not {kind}: "
                            f"{_describe(entry)}") from None
    try:
        return np.asarray(entries, dtype=dtype)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"{what} must be an array of real numbers; got "
                        f"{values!r}") from None


def _is_number(value) -> bool:
    try:
        float(value)
    except (TypeError, ValueError, OverflowError):
        return False
    return True


def _is_integral(value) -> bool:
    """An int (or bool-free integer-valued number: 3.0 from a float array)."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (int, np.integer)):
        return True
    f = float(value)
    return math.isfinite(f) and f == int(f)


def _measures(measures, count: int, shape_name: str):
    """The `count` floats of an array-like `measures`."""
    m = _real_array(measures, f"{shape_name}: measures", float).reshape(-1)
    if m.shape != (count,):
        raise TypeError(f"{shape_name}: measures must have {count} elements, got {m.shape}")
    return [float(x) for x in m]


def _is_vector(value) -> bool:
    return np.ndim(value) == 1


def _fmt(value: float) -> str:
    """A float as Drake prints it: shortest round-trip digits, no trailing '.0'."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


class Shape:
    """Abstract base of all shape specifications (pydrake.geometry.Shape)."""

    def Clone(self) -> "Shape":
        """A deep copy of the shape."""
        return copy.deepcopy(self)

    def type_name(self) -> str:
        """The shape's class name, e.g. 'Box' (Drake's Shape::type_name())."""
        return type(self).__name__

    def _params(self) -> dict:
        return {}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={_fmt(v) if isinstance(v, float) else repr(v)}"
                         for k, v in self._params().items())
        return f"{type(self).__name__}({args})"


class Sphere(Shape):
    """Sphere of ``radius`` [m] centred on Go. The radius must be positive (Drake
    also accepts 0; a point has no surface to measure, so we refuse it)."""

    def __init__(self, radius: float):
        r = _float(radius, "Sphere", "radius")
        _check_finite("Sphere", radius=r)
        if r <= 0.0:
            raise RuntimeError(f"Sphere radius should be > 0 (was {r}).")
        self._radius = r

    def radius(self) -> float:
        """The radius [m]."""
        return self._radius

    def _params(self):
        return {"radius": self._radius}


class Box(Shape):
    """Box with full extents width (x), depth (y), height (z) [m], centred on Go."""

    @overloaded
    def __init__(self, width: float, depth: float, height: float):
        self._construct(_float(width, "Box", "width"), _float(depth, "Box", "depth"),
                        _float(height, "Box", "height"))

    @__init__.overload
    def __init__(self, measures):
        """`measures`: (3,) (width, depth, height) [m]."""
        self._construct(*_measures(measures, 3, "Box"))

    def _construct(self, w: float, d: float, h: float) -> None:
        _check_finite("Box", width=w, depth=d, height=h)
        if not (w > 0 and d > 0 and h > 0):
            raise RuntimeError(
                f"Box width, depth, and height should all be > 0 (were {w}, {d}, {h}).")
        self._size = np.array([w, d, h])

    @staticmethod
    def MakeCube(edge_size: float) -> "Box":
        """A cube with edges of `edge_size` [m].

        Raises:
          RuntimeError: `edge_size` is not finite and positive.
        """
        return Box(edge_size, edge_size, edge_size)

    def width(self) -> float:
        """The size [m] along the box frame's x axis."""
        return float(self._size[0])

    def depth(self) -> float:
        """The size [m] along the box frame's y axis."""
        return float(self._size[1])

    def height(self) -> float:
        """The size [m] along the box frame's z axis."""
        return float(self._size[2])

    def size(self) -> np.ndarray:
        """(3,) (width, depth, height) [m]."""
        return self._size.copy()

    def _params(self):
        return {"width": self.width(), "depth": self.depth(), "height": self.height()}


class _RadiusLength(Shape):
    @overloaded
    def __init__(self, radius: float, length: float):
        name = type(self).__name__
        self._construct(_float(radius, name, "radius"), _float(length, name, "length"))

    @__init__.overload
    def __init__(self, measures):
        """`measures`: (2,) (radius, length) [m]."""
        self._construct(*_measures(measures, 2, type(self).__name__))

    def _construct(self, r: float, L: float) -> None:
        name = type(self).__name__
        _check_finite(name, radius=r, length=L)
        if not (r > 0 and L > 0):
            raise RuntimeError(f"{name} radius and length should both be > 0 "
                               f"(were {r} and {L}).")
        self._radius = r
        self._length = L

    def radius(self) -> float:
        """The radius [m]."""
        return self._radius

    def length(self) -> float:
        """The length [m] along the shape frame's z axis (for a capsule, of the cylinder
        between the two hemispheres)."""
        return self._length

    def _params(self):
        return {"radius": self._radius, "length": self._length}


class Capsule(_RadiusLength):
    """Capsule: cylinder of ``length`` along Gz capped by hemispheres of ``radius`` [m]."""


class Cylinder(_RadiusLength):
    """Cylinder of ``radius`` and ``length`` along Gz [m], centred on Go."""


class Ellipsoid(Shape):
    """Ellipsoid x²/a² + y²/b² + z²/c² <= 1 in G [m]."""

    @overloaded
    def __init__(self, a: float, b: float, c: float):
        self._construct(_float(a, "Ellipsoid", "a"), _float(b, "Ellipsoid", "b"),
                        _float(c, "Ellipsoid", "c"))

    @__init__.overload
    def __init__(self, measures):
        """`measures`: (3,) semi-axes (a, b, c) [m]."""
        self._construct(*_measures(measures, 3, "Ellipsoid"))

    def _construct(self, a: float, b: float, c: float) -> None:
        _check_finite("Ellipsoid", a=a, b=b, c=c)
        if not (a > 0 and b > 0 and c > 0):
            raise RuntimeError("Ellipsoid lengths of principal semi-axes a, b, and c "
                               f"should all be > 0 (were {a}, {b}, and {c}).")
        self._abc = (a, b, c)

    def a(self) -> float:
        """The semi-axis [m] along the ellipsoid frame's x axis."""
        return self._abc[0]

    def b(self) -> float:
        """The semi-axis [m] along the ellipsoid frame's y axis."""
        return self._abc[1]

    def c(self) -> float:
        """The semi-axis [m] along the ellipsoid frame's z axis."""
        return self._abc[2]

    def _params(self):
        return {"a": self._abc[0], "b": self._abc[1], "c": self._abc[2]}


class HalfSpace(Shape):
    """Half space z <= 0 in its canonical frame H; outward normal +Hz."""

    @staticmethod
    def MakePose(Hz_dir_F, p_FB):
        """X_FH of a half space whose normal is along Hz_dir_F (3,) and whose
        boundary passes through p_FB (3,) [m], both in F.

        As Drake builds it: Hz_F = Hz_dir_F/|Hz_dir_F|; Hx_F = Hz_F x e_i
        (normalised), where e_i is the axis of F with the smallest |Hz_F[i]|
        (the first one on ties); Hy_F = Hz_F x Hx_F; the origin p_FH =
        (Hz_F·p_FB) Hz_F is the point of the boundary plane nearest F's origin.
        The result equals pydrake's to the last bit.

        Raises:
          RuntimeError: if |Hz_dir_F| < 1e-10 (pydrake aborts the process there),
            or either vector is not finite (pydrake returns NaNs).
        """
        from scenegraph.math.rigid_transform import RigidTransform

        n = _real_array(Hz_dir_F, "HalfSpace.MakePose: Hz_dir_F").reshape(3)
        # Scalar arithmetic in Eigen's order, so the result matches bit for bit.
        n0, n1, n2 = (float(v) for v in n)
        norm = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
        if not (norm >= 1e-10) or not math.isfinite(norm):
            raise RuntimeError(f"HalfSpace.MakePose: can't make pose from a zero (or "
                               f"non-finite) normal vector {n.tolist()}")
        p = np.array(_real_array(p_FB, "HalfSpace.MakePose: p_FB")).reshape(3)
        if not np.isfinite(p).all():
            raise RuntimeError(f"HalfSpace.MakePose: the boundary point p_FB must be "
                               f"finite; got {p.tolist()}")
        z0, z1, z2 = n0 / norm, n1 / norm, n2 / norm
        axis = int(np.argmin(np.abs(n)))  # first minimum, as Eigen's minCoeff
        e0, e1, e2 = (1.0 if i == axis else 0.0 for i in range(3))
        x0, x1, x2 = z1 * e2 - z2 * e1, z2 * e0 - z0 * e2, z0 * e1 - z1 * e0
        x_norm = math.sqrt(x0 * x0 + x1 * x1 + x2 * x2)
        x0, x1, x2 = x0 / x_norm, x1 / x_norm, x2 / x_norm
        y0, y1, y2 = z1 * x2 - z2 * x1, z2 * x0 - z0 * x2, z0 * x1 - z1 * x0
        R_FH = np.array([[x0, y0, z0], [x1, y1, z1], [x2, y2, z2]])
        d = z0 * float(p[0]) + z1 * float(p[1]) + z2 * float(p[2])
        p_FH = np.array([d * z0, d * z1, d * z2])
        return RigidTransform._make(np.ascontiguousarray(R_FH), p_FH)


class MeshcatCone(Shape):
    """Cone sqrt(x²/a² + y²/b²) <= z, z in [0, height] (lengths in m); illustration only."""

    @overloaded.typed(measures=_is_vector)
    def __init__(self, measures):
        """`measures`: (3,) (height, a, b) [m]."""
        self._construct(*_measures(measures, 3, "MeshcatCone"))

    @__init__.overload
    def __init__(self, height: float, a: float = 1.0, b: float = 1.0):
        self._construct(_float(height, "MeshcatCone", "height"),
                        _float(a, "MeshcatCone", "a"), _float(b, "MeshcatCone", "b"))

    def _construct(self, h: float, a: float, b: float) -> None:
        _check_finite("MeshcatCone", height=h, a=a, b=b)
        if not (h > 0 and a > 0 and b > 0):
            raise RuntimeError("MeshcatCone parameters height, a, and b should all be > 0 "
                               f"(they were {h}, {a}, and {b}).")
        self._hab = (h, a, b)

    def height(self) -> float:
        """The height [m] along the cone frame's z axis."""
        return self._hab[0]

    def a(self) -> float:
        """The base's semi-axis [m] along x."""
        return self._hab[1]

    def b(self) -> float:
        """The base's semi-axis [m] along y."""
        return self._hab[2]

    def _params(self):
        return {"height": self._hab[0], "a": self._hab[1], "b": self._hab[2]}


def _is_path(value) -> bool:
    return isinstance(value, (str, os.PathLike))


def _is_scalar(value) -> bool:
    return np.ndim(value) == 0


def _is_points(value) -> bool:
    return not _is_path(value) and not isinstance(value, (MeshSource, InMemoryMesh)) \
        and np.ndim(value) == 2


def _file_forms():
    """pydrake's six Mesh/Convex constructors: (filename | mesh_data | source) with
    (scale=1.0 | scale3). A new overload set per class, so each can add its own forms."""
    @overloaded.typed(filename=_is_path, scale=_is_scalar)
    def __init__(self, filename, scale: float = 1.0):
        """`filename`: a mesh file (.obj, .vtk, or any format trimesh reads); a relative
        path is taken relative to the current directory. `scale` multiplies every
        coordinate."""
        self._from_source(MeshSource(os.path.abspath(os.fspath(filename))), scale)

    @__init__.overload(filename=_is_path)
    def __init__(self, filename, scale3):
        """Non-uniform scale: `scale3` (3,) multiplies x, y and z."""
        self._from_source(MeshSource(os.path.abspath(os.fspath(filename))), scale3)

    @__init__.overload(mesh_data=InMemoryMesh, scale=_is_scalar)
    def __init__(self, mesh_data, scale: float = 1.0):
        """A mesh file held in memory (an InMemoryMesh)."""
        self._from_source(MeshSource(mesh_data), scale)

    @__init__.overload(mesh_data=InMemoryMesh)
    def __init__(self, mesh_data, scale3):
        self._from_source(MeshSource(mesh_data), scale3)

    @__init__.overload(source=MeshSource, scale=_is_scalar)
    def __init__(self, source, scale: float = 1.0):
        """A MeshSource (a path or an in-memory mesh)."""
        self._from_source(MeshSource(source), scale)

    @__init__.overload(source=MeshSource)
    def __init__(self, source, scale3):
        self._from_source(MeshSource(source), scale3)
    return __init__


class _MeshFileData:
    """A mesh's vertices (N, 3) [file units] and triangles (M, 3) int64 (or None),
    read from its MeshSource at the first call of arrays() — as Drake reads a
    Mesh's file only when something uses it — or given at construction. Shared
    by a shape's copies, so a file is read once however many geometries use it."""

    __slots__ = ("source", "_arrays")

    def __init__(self, source, V=None, F=None):
        self.source = source
        self._arrays = None if V is None else (V, F)

    def arrays(self, check=None) -> tuple:
        """(V, F), reading the source now if not yet read; `check(V)` (if given)
        vets a fresh read, which is kept only if it passes.

        Raises:
          RuntimeError: the file is missing or cannot be parsed (naming it), or
            `check` refused it."""
        if self._arrays is None:
            source = self.source
            if source.is_path():
                arrays = mesh_io.load_mesh_file(source.path())
            else:
                mesh_file = source.in_memory().mesh_file
                arrays = mesh_io.load_mesh_data(
                    mesh_file.contents(), source.extension(), source.description())
            if check is not None:
                check(arrays[0])
            self._arrays = arrays
        return self._arrays

    def is_read(self) -> bool:
        return self._arrays is not None


class _MeshBase(Shape):
    """Shared implementation of Mesh and Convex: vertices (and triangles) from a file,
    an in-memory file, or arrays; a per-axis scale."""

    _needs_volume = False  # Convex rejects degenerate vertex sets.
    # A Mesh or Convex made from a file or an in-memory file reads it at its first
    # use (as Drake's do); a Convex checks its volume then.
    _reads_lazily = False

    def _set_scale(self, scale) -> None:
        name = type(self).__name__
        if np.ndim(scale) == 0:
            s = _float(scale, name, "scale")
            if not math.isfinite(s) or abs(s) < 1e-8:
                raise RuntimeError(f"{name} |scale| cannot be < 1e-8 (or non-finite), "
                                   f"given {s}.")
            self._scale3 = np.full(3, s)
            return
        s3 = _real_array(scale, f"{name} scale3", float)
        if s3.size != 3:
            raise TypeError(f"{name} scale3 must be 3 numbers; got {scale!r}")
        s3 = s3.reshape(3)
        if not np.isfinite(s3).all() or np.any(np.abs(s3) < 1e-8):
            raise RuntimeError(f"{name} |scale| cannot be < 1e-8 on any axis (or "
                               f"non-finite), given {s3.tolist()}.")
        self._scale3 = s3

    def _from_source(self, source: MeshSource, scale) -> None:
        self._set_scale(scale)
        self._data = _MeshFileData(source)
        self._source = source
        self._hull = None
        if not self._reads_lazily:
            self._finish()

    # The vertices (N, 3) [file units] and triangles (M, 3) or None, read from
    # the source at the first use (shared by copies: read once).
    @property
    def _V(self) -> np.ndarray:
        return self._data.arrays(self._check_read)[0]

    @property
    def _F(self):
        return self._data.arrays(self._check_read)[1]

    def _check_read(self, V) -> None:
        """Vets vertices read lazily from a file (a Convex needs a volume)."""
        if self._needs_volume:
            _check_has_volume(V, type(self).__name__, self._description())

    def _from_points(self, points, scale, faces, label: str) -> None:
        name = type(self).__name__
        self._set_scale(scale)
        P = np.array(_real_array(points, f"{name} '{label}': vertices", float))
        if P.ndim != 2 or P.shape[0] != 3:
            raise RuntimeError(f"{name}: in-memory vertices must be a (3, N) array "
                               f"(one column per vertex), got shape {P.shape}")
        if not np.isfinite(P).all():
            raise RuntimeError(f"{name} '{label}': vertices must be finite")
        V, F = P.T.copy(), None
        if faces is not None:
            F = np.array(_real_array(faces, f"{name} '{label}': faces", np.int64))
            if F.ndim != 2 or F.shape[1] != 3 or (F.size and (F.min() < 0 or F.max() >= len(V))):
                raise RuntimeError(f"{name} '{label}': faces must be an (M, 3) array of "
                                   f"indices into the {len(V)} vertices")
        self._data = _MeshFileData(None, V, F)
        self._source = None       # an in-memory OBJ, written when source() is asked for
        self._label = label
        self._finish()

    def _finish(self) -> None:
        if self._needs_volume:
            _check_has_volume(self._V, type(self).__name__, self._description())
        self._hull = None

    def _description(self) -> str:
        if self._source is None:
            return self._label or "<unnamed in-memory mesh>"
        return self._source.description()

    # ---- Drake accessors -------------------------------------------------
    def source(self) -> MeshSource:
        """Where the mesh came from (for points given in memory, an in-memory OBJ
        listing them, named by the label, as Drake builds it)."""
        if self._source is None:
            lines = [f"v {_fmt(x)} {_fmt(y)} {_fmt(z)}" for x, y, z in self._V]
            if self._F is not None:
                lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in self._F]
            text = "\n".join(lines) + "\n"
            self._source = MeshSource(InMemoryMesh(mesh_file=MemoryFile(
                text, ".obj", self._label)))
        return self._source

    def filename(self) -> str:
        """The file path (Drake's deprecated accessor; an extension here)."""
        if self._source is None or not self._source.is_path():
            raise RuntimeError(f"{type(self).__name__}.filename(): this shape was built "
                               "from in-memory data; use source()")
        return str(self._source.path())

    def extension(self) -> str:
        """The mesh's file extension, lower case with the dot (".obj" for in-memory
        vertices)."""
        return ".obj" if self._source is None else self._source.extension()

    def scale(self) -> float:
        """The uniform scale; RuntimeError when the scale differs between axes."""
        s3 = self._scale3
        if not (s3[0] == s3[1] == s3[2]):
            raise RuntimeError(f"{type(self).__name__}::scale() can only be called for "
                               f"uniform scaling. This mesh has scale {s3.tolist()}. Use "
                               f"{type(self).__name__}::scale3() instead.")
        return float(s3[0])

    def scale3(self) -> np.ndarray:
        """(3,) per-axis scale."""
        return self._scale3.copy()

    def GetConvexHull(self):
        """The convex hull as a PolygonSurfaceMesh in G [m] (coplanar triangles
        merged into polygons, outward winding); computed once, then cached."""
        from scenegraph.hydroelastic.surface_mesh import PolygonSurfaceMesh

        if self._hull is None:
            _check_hull_extension(self._source)
            verts, polygons = convex_hull_polygons(self.mesh_vertices(), self._description())
            face_data = []
            for poly in polygons:
                face_data.append(len(poly))
                face_data.extend(int(i) for i in poly)
            self._hull = PolygonSurfaceMesh(face_data, [v for v in verts])
        return self._hull

    # ---- library extensions (snake_case) -----------------------------------
    def mesh_vertices(self) -> np.ndarray:
        """(N, 3) vertices in G, scale applied [m]."""
        return self._V * self._scale3

    def mesh_faces(self):
        """(M, 3) int triangles into mesh_vertices(), or None for a bare point set."""
        return None if self._F is None else self._F.copy()

    def _params(self):
        scale3 = [float(v) for v in self._scale3]
        if self._source is not None and self._source.is_path():
            return {"filename": str(self._source.path()), "scale3": scale3}
        if self._source is not None:
            return {"mesh_data": _Raw(repr(self._source.in_memory())), "scale3": scale3}
        return {"vertices": _Raw(f"<{len(self._V)} vertices>"), "label": self._label,
                "scale3": scale3}

    def __deepcopy__(self, memo):
        # Vertex data is never mutated in place, so copies share it.
        other = copy.copy(self)
        return other

    def __setstate__(self, state) -> None:
        """Unpickles this library's state (an attribute dict) or pydrake's:
        ``(MeshSource, scale3)`` (1.40+), ``(MeshSource, scale)`` (1.34-1.39) or
        ``(filename, scale)`` (up to 1.33)."""
        if isinstance(state, dict):
            self.__dict__.update(state)
            return
        source, scale = state
        if not isinstance(source, MeshSource):
            source = MeshSource(os.fspath(source))
        self._from_source(source, scale)


def _check_hull_extension(source) -> None:
    """Drake's MakeConvexHull refusal of a format it cannot read, before any file is
    opened (here: Drake's .obj, .vtk and .gltf plus the formats trimesh reads)."""
    if source is None:
        return
    extension = source.extension()
    if extension in (".obj", ".vtk", ".gltf"):
        return
    import trimesh
    if extension.lstrip(".") in trimesh.available_formats():
        return
    raise RuntimeError(
        f"MakeConvexHull only applies to .obj, .vtk, and .gltf meshes (and here the "
        f"other formats trimesh reads); unsupported extension '{extension}' for "
        f"geometry data: {source.description()}.")


class _Raw(str):
    """Text printed as is inside a shape's repr."""

    def __repr__(self) -> str:
        return str(self)


class Mesh(_MeshBase):
    """General (possibly non-convex) triangle mesh.

    pydrake's forms: ``Mesh(filename, scale=1.0)``, ``Mesh(filename, scale3)``, and the
    same with ``mesh_data`` (an InMemoryMesh) or ``source`` (a MeshSource) in place of
    the filename. Any format trimesh reads is accepted (.obj files are read by our own
    reader, which keeps the file's vertices). Library extension:
    ``Mesh(vertices, scale=1.0, faces=F, label="")`` with vertices (3, N) [m] and
    triangles F (M, 3).

    The file is read at the mesh's first use (its vertices or triangles asked
    for, a role that needs them assigned, a viewer drawing it), as in pydrake:
    a missing or unparsable file raises then, naming it.

    Raises:
      RuntimeError: |scale| < 1e-8 (and, at first use, a missing or unparsable
        file).
    """

    _reads_lazily = True

    __init__ = _file_forms()

    @__init__.overload(vertices=_is_points)
    def __init__(self, vertices, scale: float = 1.0, faces=None, label: str = ""):
        self._from_points(vertices, scale, faces, label)


class Convex(_MeshBase):
    """Convex hull of a mesh's vertices, or of in-memory points.

    pydrake's forms: those of Mesh, plus ``Convex(points, label, scale=1.0)`` and
    ``Convex(points, label, scale3)`` with points (3, N) in G [m] (label defaults to ""
    here).

    The file is read at first use (vertices, hull or volume asked for, a role
    assigned, a viewer drawing it), as in pydrake; in-memory points are checked at
    construction.

    Raises:
      RuntimeError: |scale| < 1e-8; fewer than 4 non-coplanar points (at
        construction for points, at first use for a file); at first use, a missing
        or unparsable file.
    """

    _needs_volume = True
    _reads_lazily = True

    __init__ = _file_forms()

    @__init__.overload(points=_is_points, scale=_is_scalar)
    def __init__(self, points, label: str = "", scale: float = 1.0):
        self._from_points(points, scale, None, label)

    @__init__.overload(points=_is_points)
    def __init__(self, points, label, scale3):
        self._from_points(points, scale3, None, label)


def CalcVolume(shape: Shape) -> float:
    """Volume of ``shape`` [m³]; infinite for HalfSpace.

    Mesh volumes use the divergence theorem over the triangles and are only
    meaningful for closed meshes; Convex uses its hull.

    Raises:
      RuntimeError: for a Mesh without faces.
    """
    if isinstance(shape, Sphere):
        return 4.0 / 3.0 * math.pi * shape.radius() ** 3
    if isinstance(shape, Box):
        return float(np.prod(shape._size))
    if isinstance(shape, Capsule):
        r, L = shape.radius(), shape.length()
        return math.pi * r * r * L + 4.0 / 3.0 * math.pi * r ** 3
    if isinstance(shape, Cylinder):
        return math.pi * shape.radius() ** 2 * shape.length()
    if isinstance(shape, Ellipsoid):
        return 4.0 / 3.0 * math.pi * shape.a() * shape.b() * shape.c()
    if isinstance(shape, HalfSpace):
        return math.inf
    if isinstance(shape, MeshcatCone):
        return math.pi * shape.a() * shape.b() * shape.height() / 3.0
    if isinstance(shape, Convex):
        verts, polygons = convex_hull_polygons(shape.mesh_vertices(), shape._description())
        tris = [(p[0], p[i], p[i + 1]) for p in polygons for i in range(1, len(p) - 1)]
        return _mesh_volume(verts, np.array(tris, dtype=np.int64))
    if isinstance(shape, Mesh):
        if shape._F is None or len(shape._F) == 0:
            raise RuntimeError(f"CalcVolume: Mesh '{shape._description()}' has no "
                               "triangles; its volume is undefined")
        return _mesh_volume(shape.mesh_vertices(), shape._F)
    raise RuntimeError(f"CalcVolume: unsupported shape type {type(shape).__name__}")
