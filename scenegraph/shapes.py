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


def _check_finite(shape_name: str, **values) -> None:
    for name, v in values.items():
        if not math.isfinite(v):
            raise RuntimeError(f"{shape_name} {name} must be finite (was {v})")


def _float(value, shape_name: str, name: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{shape_name} {name} must be a number, got {value!r}") from None


def _measures(args, count: int, shape_name: str):
    """Unpacks either `count` scalars or one array-like of `count` measures."""
    if len(args) == 1 and np.ndim(args[0]) == 1:
        m = np.asarray(args[0], dtype=float).reshape(-1)
        if m.shape != (count,):
            raise TypeError(f"{shape_name}: measures must have {count} elements, got {m.shape}")
        return [float(x) for x in m]
    if len(args) != count:
        raise TypeError(f"{shape_name}: expected {count} measures, got {len(args)} arguments")
    return [_float(a, shape_name, f"measure {i}") for i, a in enumerate(args)]


class Shape:
    """Abstract base of all shape specifications (pydrake.geometry.Shape)."""

    def Clone(self) -> "Shape":
        return copy.deepcopy(self)

    def type_name(self) -> str:
        """The shape's class name, e.g. 'Box' (Drake's Shape::type_name())."""
        return type(self).__name__

    def _params(self) -> dict:
        return {}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._params().items())
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
        return self._radius

    def _params(self):
        return {"radius": self._radius}


class Box(Shape):
    """Box with full extents width (x), depth (y), height (z) [m], centred on Go."""

    def __init__(self, *args, **kwargs):
        if kwargs:
            if "measures" in kwargs:
                args = (kwargs["measures"],)
            else:
                args = args + tuple(kwargs[k] for k in ("width", "depth", "height")
                                    if k in kwargs)
        w, d, h = _measures(args, 3, "Box")
        _check_finite("Box", width=w, depth=d, height=h)
        if not (w > 0 and d > 0 and h > 0):
            raise RuntimeError(
                f"Box width, depth, and height should all be > 0 (were {w}, {d}, {h}).")
        self._size = np.array([w, d, h])

    @staticmethod
    def MakeCube(edge_size: float) -> "Box":
        return Box(edge_size, edge_size, edge_size)

    def width(self) -> float:
        return float(self._size[0])

    def depth(self) -> float:
        return float(self._size[1])

    def height(self) -> float:
        return float(self._size[2])

    def size(self) -> np.ndarray:
        """(3,) (width, depth, height) [m]."""
        return self._size.copy()

    def _params(self):
        return {"width": self.width(), "depth": self.depth(), "height": self.height()}


class _RadiusLength(Shape):
    def __init__(self, *args, **kwargs):
        name = type(self).__name__
        if kwargs:
            if "measures" in kwargs:
                args = (kwargs["measures"],)
            else:
                args = args + tuple(kwargs[k] for k in ("radius", "length") if k in kwargs)
        r, L = _measures(args, 2, name)
        _check_finite(name, radius=r, length=L)
        if not (r > 0 and L > 0):
            raise RuntimeError(f"{name} radius and length should both be > 0 "
                               f"(were {r} and {L}).")
        self._radius = r
        self._length = L

    def radius(self) -> float:
        return self._radius

    def length(self) -> float:
        return self._length

    def _params(self):
        return {"radius": self._radius, "length": self._length}


class Capsule(_RadiusLength):
    """Capsule: cylinder of ``length`` along Gz capped by hemispheres of ``radius`` [m]."""


class Cylinder(_RadiusLength):
    """Cylinder of ``radius`` and ``length`` along Gz [m], centred on Go."""


class Ellipsoid(Shape):
    """Ellipsoid x²/a² + y²/b² + z²/c² <= 1 in G [m]."""

    def __init__(self, *args, **kwargs):
        if kwargs:
            if "measures" in kwargs:
                args = (kwargs["measures"],)
            else:
                args = args + tuple(kwargs[k] for k in ("a", "b", "c") if k in kwargs)
        a, b, c = _measures(args, 3, "Ellipsoid")
        _check_finite("Ellipsoid", a=a, b=b, c=c)
        if not (a > 0 and b > 0 and c > 0):
            raise RuntimeError("Ellipsoid lengths of principal semi-axes a, b, and c "
                               f"should all be > 0 (were {a}, {b}, and {c}).")
        self._abc = (a, b, c)

    def a(self) -> float:
        return self._abc[0]

    def b(self) -> float:
        return self._abc[1]

    def c(self) -> float:
        return self._abc[2]

    def _params(self):
        return {"a": self._abc[0], "b": self._abc[1], "c": self._abc[2]}


class HalfSpace(Shape):
    """Half space z <= 0 in its canonical frame H; outward normal +Hz."""

    @staticmethod
    def MakePose(Hz_dir_F, p_FB):
        """X_FH of a half space whose normal is along Hz_dir_F (3,) and whose
        boundary passes through p_FB (3,) [m], both in F.

        Raises:
          RuntimeError: if |Hz_dir_F| < 1e-10.
        """
        from scenegraph.math.rigid_transform import RigidTransform
        from scenegraph.math.rotation_matrix import RotationMatrix, _basis_from_unit_vector

        n = np.asarray(Hz_dir_F, dtype=float).reshape(3)
        norm = float(np.sqrt(n @ n))
        if not (norm >= 1e-10) or not math.isfinite(norm):
            raise RuntimeError(f"HalfSpace.MakePose: can't make pose from a zero (or "
                               f"non-finite) normal vector {n.tolist()}")
        R_FH = _basis_from_unit_vector(n / norm, 2)
        return RigidTransform._make(R_FH, np.array(p_FB, dtype=float).reshape(3))


class MeshcatCone(Shape):
    """Cone sqrt(x²/a² + y²/b²) <= z, z in [0, height] [m]; illustration only."""

    def __init__(self, *args, **kwargs):
        if kwargs:
            if "measures" in kwargs:
                args = (kwargs["measures"],)
            else:
                defaults = {"a": 1.0, "b": 1.0}
                defaults.update(kwargs)
                names = ("height", "a", "b")
                args = args + tuple(defaults[k] for k in names[len(args):])
        elif len(args) == 1 and np.ndim(args[0]) == 0:
            args = (args[0], 1.0, 1.0)
        elif len(args) == 2:
            args = (args[0], args[1], 1.0)
        h, a, b = _measures(args, 3, "MeshcatCone")
        _check_finite("MeshcatCone", height=h, a=a, b=b)
        if not (h > 0 and a > 0 and b > 0):
            raise RuntimeError("MeshcatCone parameters height, a, and b should all be > 0 "
                               f"(they were {h}, {a}, and {b}).")
        self._hab = (h, a, b)

    def height(self) -> float:
        return self._hab[0]

    def a(self) -> float:
        return self._hab[1]

    def b(self) -> float:
        return self._hab[2]

    def _params(self):
        return {"height": self._hab[0], "a": self._hab[1], "b": self._hab[2]}


class MeshSource:
    """Where a Mesh/Convex's data comes from: a file path or memory."""

    def __init__(self, path=None, *, description: str = "", extension: str = ".obj"):
        self._path = None if path is None else os.fspath(path)
        self._description = description
        self._extension = extension if path is None else mesh_io.mesh_extension(path)

    def is_path(self) -> bool:
        return self._path is not None

    def is_in_memory(self) -> bool:
        return self._path is None

    def path(self) -> str:
        if self._path is None:
            raise RuntimeError("MeshSource.path(): this source is an in-memory mesh")
        return self._path

    def description(self) -> str:
        if self._path is not None:
            return self._path
        return self._description or "<in-memory mesh with no filename hint>"

    def extension(self) -> str:
        return self._extension


class _MeshBase(Shape):
    """Shared implementation of Mesh and Convex (file or in-memory vertices)."""

    _needs_volume = False  # Convex rejects degenerate vertex sets.

    def __init__(self, source, scale: float = 1.0, *, faces=None, label: str = ""):
        name = type(self).__name__
        s = _float(scale, name, "scale")
        if not math.isfinite(s) or abs(s) < 1e-8:
            raise RuntimeError(f"{name} |scale| cannot be < 1e-8 (or non-finite), given {s}.")
        self._scale = s
        if isinstance(source, MeshSource):
            source = source.path()
        if isinstance(source, (str, os.PathLike)):
            self._source = MeshSource(source)
            self._V, self._F = mesh_io.load_mesh_file(source)
        else:
            P = np.array(source, dtype=float)
            if P.ndim != 2 or P.shape[0] != 3:
                raise RuntimeError(f"{name}: in-memory vertices must be a (3, N) array "
                                   f"(one column per vertex), got shape {P.shape}")
            if not np.isfinite(P).all():
                raise RuntimeError(f"{name} '{label}': vertices must be finite")
            self._V = P.T.copy()
            if faces is None:
                self._F = None
            else:
                F = np.array(faces, dtype=np.int64)
                if F.ndim != 2 or F.shape[1] != 3 or (F.size and (F.min() < 0 or F.max() >= len(self._V))):
                    raise RuntimeError(f"{name} '{label}': faces must be an (M, 3) array of "
                                       f"indices into the {len(self._V)} vertices")
                self._F = F
            self._source = MeshSource(None, description=label)
        if self._needs_volume:
            _check_has_volume(self._V, name, self._source.description())
        self._hull = None

    # ---- Drake accessors -------------------------------------------------
    def filename(self) -> str:
        if not self._source.is_path():
            raise RuntimeError(f"{type(self).__name__}.filename(): this shape was built "
                               "from in-memory data; use source()")
        return self._source.path()

    def extension(self) -> str:
        return self._source.extension()

    def scale(self) -> float:
        return self._scale

    def scale3(self) -> np.ndarray:
        """(3,) per-axis scale (all equal to scale())."""
        return np.full(3, self._scale)

    def source(self) -> MeshSource:
        return self._source

    def GetConvexHull(self):
        """The convex hull as a PolygonSurfaceMesh in G [m] (coplanar triangles
        merged into polygons, outward winding); computed once, then cached."""
        from scenegraph.hydroelastic.surface_mesh import PolygonSurfaceMesh

        if self._hull is None:
            verts, polygons = convex_hull_polygons(self.mesh_vertices(), self._source.description())
            face_data = []
            for poly in polygons:
                face_data.append(len(poly))
                face_data.extend(int(i) for i in poly)
            self._hull = PolygonSurfaceMesh(face_data, [v for v in verts])
        return self._hull

    # ---- library extensions (snake_case) -----------------------------------
    def mesh_vertices(self) -> np.ndarray:
        """(N, 3) vertices in G, scale applied [m]."""
        return self._V * self._scale

    def mesh_faces(self):
        """(M, 3) int triangles into mesh_vertices(), or None for a bare point set."""
        return None if self._F is None else self._F.copy()

    def _params(self):
        if self._source.is_path():
            return {"filename": self._source.path(), "scale": self._scale}
        return {"vertices": f"<{len(self._V)} vertices>", "label": self._source.description(),
                "scale": self._scale}

    def __deepcopy__(self, memo):
        # Vertex data is never mutated in place, so copies share it.
        other = copy.copy(self)
        return other


class Mesh(_MeshBase):
    """General (possibly non-convex) triangle mesh.

    ``Mesh(filename, scale=1.0)`` reads any format trimesh reads (.obj, .stl,
    .ply, ...); ``Mesh(vertices, scale=1.0, faces=F, label="")`` takes
    vertices (3, N) and triangles F (M, 3) in memory (library extension).

    Raises:
      RuntimeError: missing or unparsable file, |scale| < 1e-8.
    """


class Convex(_MeshBase):
    """Convex hull of a mesh file's vertices, or of in-memory points.

    ``Convex(filename, scale=1.0)`` or ``Convex(points, label="", scale=1.0)``
    with points (3, N) in G [m], as Drake's C++ constructor.

    Raises:
      RuntimeError: missing or unparsable file, |scale| < 1e-8, or fewer than
        4 non-coplanar vertices.
    """

    _needs_volume = True

    def __init__(self, source, *args, **kwargs):
        if isinstance(source, (str, os.PathLike, MeshSource)):
            super().__init__(source, *args, **kwargs)
            return
        # Drake: Convex(points, label="", scale=1.0)
        label = kwargs.pop("label", "")
        scale = kwargs.pop("scale", 1.0)
        if args and isinstance(args[0], str):
            label, args = args[0], args[1:]
        if args:
            scale = args[0]
        if kwargs:
            raise TypeError(f"Convex: unexpected arguments {sorted(kwargs)}")
        super().__init__(source, scale, label=label)


def _check_has_volume(V: np.ndarray, name: str, what: str) -> None:
    U = np.unique(V, axis=0)
    if len(U) >= 4:
        centred = U - U.mean(axis=0)
        extent = float(np.abs(centred).max())
        sv = np.linalg.svd(centred, compute_uv=False)
        if extent > 0.0 and sv[2] > 1e-10 * extent * math.sqrt(len(U)):
            return
    raise RuntimeError(f"{name} '{what}': needs at least 4 non-coplanar vertices to define "
                       f"a volume; got {len(U)} distinct vertices, all coplanar or fewer than 4")


def convex_hull_polygons(points: np.ndarray, what: str = "<vertices>"):
    """Convex hull of points (N, 3): (vertices (V, 3), list of polygons).

    Each polygon is a list of indices into the returned vertices, counter-
    clockwise seen from outside; coplanar hull triangles are merged. Planar
    point sets give two polygons (one per side), as Drake allows.

    Raises:
      RuntimeError: fewer than 3 distinct points, or collinear points.
    """
    from scipy.spatial import ConvexHull

    U = np.unique(np.asarray(points, dtype=float), axis=0)
    if len(U) < 3:
        raise RuntimeError(f"Convex hull of '{what}': fewer than 3 distinct vertices")
    centre = U.mean(axis=0)
    centred = U - centre
    _, sv, Vt = np.linalg.svd(centred, full_matrices=False)
    extent = float(np.abs(centred).max())
    tol = 1e-10 * extent * math.sqrt(len(U))
    if sv[1] <= tol:
        raise RuntimeError(f"Convex hull of '{what}': the vertices are collinear")
    if len(sv) < 3 or sv[2] <= tol:
        # Planar: 2D hull in the plane, emitted once per side.
        e1, e2, n = Vt[0], Vt[1], np.cross(Vt[0], Vt[1])
        h2 = ConvexHull(np.c_[centred @ e1, centred @ e2])
        ring = list(h2.vertices)  # counter-clockwise about n
        verts = U[ring]
        k = len(ring)
        return verts, [list(range(k)), list(range(k - 1, -1, -1))]
    from scenegraph.proximity.convex_hull import compute_convex_hull
    try:
        hull = compute_convex_hull(U, what)     # coplanar triangles merged into facets
    except ValueError as exc:  # pragma: no cover - guarded by the SVD test above
        raise RuntimeError(f"Convex hull of '{what}' failed: {exc}") from exc
    # The hull's facet loops: counter-clockwise from outside, O(facets).
    offsets = hull.facet_vertex_offsets.tolist()
    loops = hull.facet_vertices.tolist()
    polygons = [loops[offsets[f]:offsets[f + 1]] for f in range(len(offsets) - 1)]
    return hull.vertices, polygons


def _mesh_volume(V: np.ndarray, F: np.ndarray) -> float:
    a, b, c = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
    return float(abs(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0))


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
        verts, polygons = convex_hull_polygons(shape.mesh_vertices(), shape.source().description())
        tris = [(p[0], p[i], p[i + 1]) for p in polygons for i in range(1, len(p) - 1)]
        return _mesh_volume(verts, np.array(tris, dtype=np.int64))
    if isinstance(shape, Mesh):
        if shape._F is None or len(shape._F) == 0:
            raise RuntimeError(f"CalcVolume: Mesh '{shape.source().description()}' has no "
                               "triangles; its volume is undefined")
        return _mesh_volume(shape.mesh_vertices(), shape._F)
    raise RuntimeError(f"CalcVolume: unsupported shape type {type(shape).__name__}")
