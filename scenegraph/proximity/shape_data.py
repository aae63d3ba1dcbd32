"""Immutable per-geometry representation used by the narrow phase.

A ShapeData holds what the pair kernels need about one geometry, in its own
frame G (SI units, m):

  kind      one of KINDS ("Box", "Capsule", "Convex", "Cylinder", "Ellipsoid",
            "HalfSpace", "Sphere"); a Mesh becomes "Convex" (its convex hull,
            as Drake does for point contact and signed distance).
  params    (3,) packed primitive parameters:
              Sphere (r, 0, 0); Box (hx, hy, hz) half sizes; Capsule and
              Cylinder (r, hl, 0) with hl the half length of the cylindrical
              part (axis Gz); Ellipsoid (a, b, c) semi-axes; HalfSpace and
              Convex (0, 0, 0).
  hull      Convex only: the ConvexHullData (vertices, triangles, facet planes);
            a Mesh's is built at its first access (pair queries), see
            ShapeData.hull_is_built.
  edges     Convex only: (E, 2) hull edges between distinct facets.
  edge_dirs Convex only: (K, 3) unit edge directions, parallel ones merged.
  size      bounding radius about Go [m] (inf for a HalfSpace): a length scale
            for tolerances.

shape_data_from_shapes builds the ShapeData of many shapes at once (one pass
per primitive class, array operations; what a scene's first query does), and
a Mesh's or Convex's ShapeData is kept on the shape object from the
AssignRole check to the first query.

Support functions (the farthest point of a shape in a direction) are here too,
vectorised over directions: support_points_G(data, u_G) for one geometry and
batched_support_G(kind, params, u_G) for N geometries of one primitive kind.
"""
from __future__ import annotations

import math
import threading

import numpy as np

from scenegraph.proximity.convex_hull import (ConvexHullData, check_convex_hull_possible,
                                              convex_hull)

__all__ = [
    "KINDS", "ShapeData", "shape_data_from_shape", "shape_data_from_shapes",
    "shape_data_from_reference", "box_shape_data",
    "support_points_G", "batched_support_G", "core_radius",
]

KINDS = ("Box", "Capsule", "Convex", "Cylinder", "Ellipsoid", "HalfSpace", "Sphere")
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}


class ShapeData:
    """One geometry's narrow-phase data in its frame G (see module docstring).

    Immutable. A Mesh's hull, edges and edge_dirs are built at first access
    (hull_is_built says whether they are): ComputeSignedDistanceToPoint
    measures a Mesh on its triangles, so only pair queries need the hull,
    which takes seconds for 10⁶ vertices. Its size is the largest vertex
    distance from Go, the hull's own size, known without the hull.
    """

    __slots__ = ("kind", "params", "size", "type_name", "cache", "_parts", "_build")

    def __init__(self, kind: str, params: np.ndarray, hull: ConvexHullData | None = None,
                 edges: np.ndarray | None = None, edge_dirs: np.ndarray | None = None,
                 size: float = 0.0, type_name: str = "", cache: dict | None = None,
                 build_hull=None):
        init = object.__setattr__
        init(self, "kind", kind)
        init(self, "params", params)
        init(self, "size", size)
        init(self, "type_name", type_name)
        init(self, "cache", {} if cache is None else cache)
        # (hull, edges, edge_dirs), or None until _convex_parts(*build_hull)
        # gives them (build_hull: (points (V, 3), type_name, label)).
        init(self, "_parts", (hull, edges, edge_dirs) if build_hull is None else None)
        init(self, "_build", build_hull)

    def __setattr__(self, name, value):
        raise AttributeError(f"ShapeData is immutable (cannot set {name!r})")

    def __copy__(self) -> "ShapeData":
        return self                     # immutable: copies share it

    def __deepcopy__(self, memo) -> "ShapeData":
        return self

    def __reduce__(self):
        return (_restore, (self.kind, self.params, self._parts, self.size, self.type_name,
                           self.cache, self._build))

    def _hull_parts(self) -> tuple:
        parts = self._parts
        if parts is None:
            with _BUILD_LOCK:           # one build, however many threads ask
                parts = self._parts
                if parts is None:
                    parts = _convex_parts(*self._build)
                    object.__setattr__(self, "_parts", parts)
                    object.__setattr__(self, "_build", None)
        return parts

    @property
    def hull(self) -> ConvexHullData | None:
        """Convex only: the ConvexHullData (built now if it was deferred)."""
        return self._hull_parts()[0]

    @property
    def edges(self) -> np.ndarray | None:
        """Convex only: (E, 2) hull edges between distinct facets."""
        return self._hull_parts()[1]

    @property
    def edge_dirs(self) -> np.ndarray | None:
        """Convex only: (K, 3) unit edge directions, parallel ones merged."""
        return self._hull_parts()[2]

    @property
    def hull_is_built(self) -> bool:
        """False while a Mesh's hull is deferred (nothing has asked for it)."""
        return self._parts is not None

    @property
    def kind_index(self) -> int:
        """Position of `kind` in KINDS (the dispatch table's sort order)."""
        return _KIND_INDEX[self.kind]

    def __repr__(self) -> str:
        if self.kind == "Convex":
            if not self.hull_is_built:
                return f"ShapeData({self.type_name}, hull not built)"
            return f"ShapeData({self.type_name}, {len(self.hull.vertices)} hull vertices)"
        return f"ShapeData({self.kind}, params={self.params.tolist()})"


_BUILD_LOCK = threading.Lock()


def _restore(kind, params, parts, size, type_name, cache, build) -> ShapeData:
    """ShapeData.__reduce__'s constructor (pickling keeps a hull deferred)."""
    if parts is None:
        return ShapeData(kind, params, size=size, type_name=type_name, cache=cache,
                         build_hull=build)
    return ShapeData(kind, params, *parts, size=size, type_name=type_name, cache=cache)


def _frozen(a) -> np.ndarray:
    a = np.array(a, dtype=float)
    a.setflags(write=False)
    return a


def _positive(kind: str, **values) -> list[float]:
    out = []
    for name, v in values.items():
        try:
            x = float(v)
        except (TypeError, ValueError):
            raise ValueError(f"{kind}: parameter {name} must be a number, got {v!r}") from None
        if not math.isfinite(x) or x <= 0.0:
            raise ValueError(f"{kind}: parameter {name} must be positive and finite, got {x!r}")
        out.append(x)
    return out


def _make_primitive(kind: str, **values) -> ShapeData:
    if kind == "Sphere":
        (r,) = _positive(kind, radius=values["radius"])
        return ShapeData("Sphere", _frozen([r, 0.0, 0.0]), size=r, type_name=kind)
    if kind == "Box":
        w, d, h = _positive(kind, width=values["width"], depth=values["depth"],
                            height=values["height"])
        hx = [w / 2.0, d / 2.0, h / 2.0]
        return ShapeData("Box", _frozen(hx), size=math.sqrt(sum(x * x for x in hx)),
                         type_name=kind)
    if kind in ("Capsule", "Cylinder"):
        r, length = _positive(kind, radius=values["radius"], length=values["length"])
        hl = length / 2.0
        size = hl + r if kind == "Capsule" else math.hypot(r, hl)
        return ShapeData(kind, _frozen([r, hl, 0.0]), size=size, type_name=kind)
    if kind == "Ellipsoid":
        a, b, c = _positive(kind, a=values["a"], b=values["b"], c=values["c"])
        return ShapeData("Ellipsoid", _frozen([a, b, c]), size=max(a, b, c), type_name=kind)
    if kind == "HalfSpace":
        return ShapeData("HalfSpace", _frozen([0.0, 0.0, 0.0]), size=math.inf,
                         type_name=kind)
    raise ValueError(f"unsupported shape type {kind!r}")


def _hull_edges(hull: ConvexHullData) -> tuple[np.ndarray, np.ndarray]:
    """(edges (E, 2), unit directions (K, 3)) of a hull.

    edges are the hull's feature edges (hull.edges: between two distinct
    facets, each once). The directions are those edges' unit vectors with a
    canonical sign (largest-magnitude component positive), parallel ones
    merged: directions equal after rounding to 1e-9 count once, in the order
    of their first edge. O(E log E).
    """
    edges = hull.edges
    V = hull.vertices
    d = V[edges[:, 1]] - V[edges[:, 0]]
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    k = np.argmax(np.abs(d), axis=1)
    d *= np.where(d[np.arange(len(d)), k] < 0.0, -1.0, 1.0)[:, None]
    key = np.round(d * 1e9).astype(np.int64)
    # The first edge of each distinct key (np.unique(key, axis=0,
    # return_index=True), by a stable lexicographic sort).
    order = np.lexsort((key[:, 2], key[:, 1], key[:, 0]))
    sorted_key = key[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = (sorted_key[1:] != sorted_key[:-1]).any(axis=1)
    first = order[new]
    return edges, np.ascontiguousarray(d[np.sort(first)]).reshape(-1, 3)


def _unavailable(type_name: str, label: str, exc: ValueError) -> ValueError:
    name = f"{type_name} {label!r}" if label else f"{type_name} (in-memory vertices)"
    reason = str(exc).replace("convex hull of <vertices>: ", "")
    return ValueError(f"{name} cannot take part in proximity queries (they use its "
                      f"convex hull): {reason}")


def _convex_parts(pts: np.ndarray, type_name: str, label: str) -> tuple:
    """(hull, edges, edge_dirs) of a point set (cached with the hull)."""
    try:
        hull = convex_hull(pts)
    except ValueError as exc:
        raise _unavailable(type_name, label, exc) from None
    # Kept on the (shared, cached) hull: every ShapeData of the same points
    # shares them, and a hull of a million facets takes about a second.
    cached = hull.cache.get("hull_edges")
    if cached is None:
        edges, dirs = _hull_edges(hull)
        dirs.setflags(write=False)
        hull.cache["hull_edges"] = cached = (edges, dirs)
        # The hull's share of the compiled kernels' packed arrays, built with
        # the hull (at registration for a Convex) rather than at the first
        # query: pack_shapes then only concatenates (~50 µs a hull).
        from scenegraph.proximity.compiled.packed_shapes import hull_parts
        hull_parts(hull)
    return (hull, *cached)


def _make_convex(points_G, type_name: str, label: str = "", defer: bool = False) -> ShapeData:
    """Convex-kind ShapeData of a point set (V, 3) in G [m]. With `defer`, the
    set is only checked for volume now (check_convex_hull_possible) and the
    hull built at its first use."""
    pts = np.asarray(points_G, dtype=float)
    params = _frozen([0.0, 0.0, 0.0])
    if defer:
        try:
            check_convex_hull_possible(pts)
        except ValueError as exc:
            raise _unavailable(type_name, label, exc) from None
        size = float(np.sqrt((pts * pts).sum(axis=1).max()))
        box = (_frozen(pts.min(axis=0)), _frozen(pts.max(axis=0)))
        return ShapeData("Convex", params, size=size, type_name=type_name,
                         cache={"vertex_box": box}, build_hull=(pts, type_name, label))
    hull, edges, dirs = _convex_parts(pts, type_name, label)
    return ShapeData("Convex", params, hull=hull, edges=edges, edge_dirs=dirs,
                     size=hull.size(), type_name=type_name)


def box_shape_data(data: ShapeData) -> ShapeData:
    """For packers that need only a Convex row's box in G and its size (rows
    measured elsewhere, such as a Mesh in ComputeSignedDistanceToPoint): a
    Convex ShapeData whose hull is the box (lo, hi) of the vertices, the same
    box as the convex hull's, with data's size. `data` itself when its hull
    is built (or it has no deferred hull); never builds that hull."""
    box = data.cache.get("vertex_box")
    if data.hull_is_built or box is None:
        return data
    lo, hi = box
    corners = np.array([[(lo, hi)[i][0], (lo, hi)[j][1], (lo, hi)[k][2]]
                        for i in (0, 1) for j in (0, 1) for k in (0, 1)])
    try:
        hull = convex_hull(corners)
    except ValueError:  # pragma: no cover - a box of a set with volume has volume
        return data
    return ShapeData("Convex", data.params, hull=hull, edges=hull.edges,
                     edge_dirs=np.zeros((0, 3)), size=data.size, type_name=data.type_name)


def _call(obj, name):
    attr = getattr(obj, name)
    return attr() if callable(attr) else attr


def shape_data_from_shape(shape) -> ShapeData:
    """ShapeData of a Shape object, duck-typed on Drake's accessor names.

    Sphere.radius(); Box.width()/depth()/height(); Capsule and Cylinder
    radius()/length(); Ellipsoid a()/b()/c(); HalfSpace; Mesh and Convex
    (their convex hull, scale applied, from mesh_vertices() or vertices; a
    Mesh's hull is built at its first use, its volume checked now).

    A Mesh's or Convex's ShapeData is kept on the shape (and its copies,
    which share its vertex data) and handed out again while that data and
    the scale are the same: AssignRole builds it (proximity_shape_check),
    the first query finds it.

    Raises:
      ValueError: unknown shape type, non-positive or non-finite parameters,
        or a mesh whose vertices do not span a volume.
    """
    kind = type(shape).__name__
    if kind == "Sphere":
        return _make_primitive(kind, radius=_call(shape, "radius"))
    if kind == "Box":
        return _make_primitive(kind, width=_call(shape, "width"), depth=_call(shape, "depth"),
                               height=_call(shape, "height"))
    if kind in ("Capsule", "Cylinder"):
        return _make_primitive(kind, radius=_call(shape, "radius"),
                               length=_call(shape, "length"))
    if kind == "Ellipsoid":
        return _make_primitive(kind, a=_call(shape, "a"), b=_call(shape, "b"),
                               c=_call(shape, "c"))
    if kind == "HalfSpace":
        return _make_primitive(kind)
    if kind in ("Mesh", "Convex"):
        mark = _memo_mark(shape)
        if mark is not None:
            memo = shape.__dict__.get(_MEMO)
            if memo is not None and memo.matches(mark):
                return memo.data
        data = _mesh_shape_data(shape, kind)
        if mark is not None:
            shape.__dict__[_MEMO] = _ShapeDataMemo(mark, data)
        return data
    raise ValueError(f"shape type {kind!r} is not supported by the proximity engine")


def _mesh_shape_data(shape, kind: str) -> ShapeData:
    """shape_data_from_shape of a Mesh or Convex, built."""
    if hasattr(shape, "mesh_vertices"):
        pts = np.asarray(shape.mesh_vertices(), dtype=float)
    else:
        pts = np.asarray(_call(shape, "vertices"), dtype=float)
        if pts.ndim == 2 and pts.shape[0] == 3 and pts.shape[1] != 3:
            pts = pts.T
        if hasattr(shape, "scale"):
            pts = pts * float(_call(shape, "scale"))
    # A Mesh's hull is deferred (pair queries only); a Convex is its hull.
    return _make_convex(pts, kind, _mesh_label(shape), defer=kind == "Mesh")


def _mesh_label(shape) -> str:
    """The mesh's name for messages: source().description(), which this
    library's shapes give without writing an in-memory OBJ (_description)."""
    describe = getattr(shape, "_description", None)
    try:
        if describe is not None:
            return describe()
        if hasattr(shape, "source"):
            return shape.source().description()
    except Exception:  # pragma: no cover - label is cosmetic
        pass
    return ""


# Key in a Mesh's or Convex's __dict__ of its _ShapeDataMemo.
_MEMO = "_proximity_shape_data"


def _memo_mark(shape):
    """(type, vertex data object, scale) identifying what a Mesh or Convex of
    this library is (its vertex data is shared by copies and never changed
    in place), or None for other objects (not memoised)."""
    state = getattr(shape, "__dict__", None)
    if state is None or state.get("_data") is None or state.get("_scale3") is None:
        return None
    return (type(shape), state["_data"], tuple(np.asarray(state["_scale3"], float).tolist()))


class _ShapeDataMemo:
    """A shape's ShapeData with the mark it was built for. Shared by copies
    of the shape (copy and deepcopy keep it) and left out of pickles (an
    unpickled shape builds its own): it never holds a second copy of a
    hull in a pickle."""

    __slots__ = ("mark", "data")

    def __init__(self, mark=None, data=None):
        self.mark = mark
        self.data = data

    def matches(self, mark) -> bool:
        own = self.mark
        return (own is not None and own[0] is mark[0] and own[1] is mark[1]
                and own[2] == mark[2])

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_ShapeDataMemo, ())


# Primitive kinds built in one pass per kind (shape_data_from_shapes): the
# accessors, in order, whose values must be positive and finite.
_ACCESSORS = {"Sphere": ("radius",), "Box": ("width", "depth", "height"),
              "Capsule": ("radius", "length"), "Cylinder": ("radius", "length"),
              "Ellipsoid": ("a", "b", "c"), "HalfSpace": ()}


def shape_data_from_shapes(shapes) -> list:
    """shape_data_from_shape of each of `shapes`, in order, the primitives
    of each class in one pass: their parameters gathered into one (n, k)
    array, checked and converted with array operations, each ShapeData's
    params a read-only row of one (n, 3) block. The same ShapeData values
    as shape_data_from_shape (a shape whose parameters fail the check is
    passed to it, which raises its error)."""
    out = [None] * len(shapes)
    groups = {}
    for i, shape in enumerate(shapes):
        rows = groups.get(type(shape))
        if rows is None:
            groups[type(shape)] = [i]
        else:
            rows.append(i)
    for cls, rows in groups.items():
        members = [shapes[i] for i in rows]
        names = _ACCESSORS.get(cls.__name__)
        made = None if names is None else _primitives(cls, names, members)
        if made is None:
            made = [shape_data_from_shape(shape) for shape in members]
        for i, data in zip(rows, made):
            out[i] = data
    return out


def _values(cls, name: str, shapes: list) -> list:
    """The accessor `name` of each shape of class cls (a method called, or
    an attribute read)."""
    accessor = getattr(cls, name, None)
    if callable(accessor):
        return [accessor(s) for s in shapes]
    return [_call(s, name) for s in shapes]


def _primitives(cls, names: tuple, shapes: list):
    """ShapeData of n primitives of one class, or None when a value is not a
    positive finite number (the caller's per-shape path raises then)."""
    kind = cls.__name__
    n = len(shapes)
    if names:
        try:
            values = np.array([_values(cls, name, shapes) for name in names],
                              dtype=float).reshape(len(names), n).T
        except (TypeError, ValueError):
            return None
        if not (np.isfinite(values) & (values > 0.0)).all():
            return None
    block = np.zeros((n, 3))
    if kind == "Sphere":
        block[:, 0] = values[:, 0]
        sizes = values[:, 0].tolist()
    elif kind == "Box":
        block[:] = values / 2.0
        sizes = np.sqrt((block * block).sum(axis=1)).tolist()
    elif kind in ("Capsule", "Cylinder"):
        block[:, 0] = values[:, 0]
        block[:, 1] = values[:, 1] / 2.0
        if kind == "Capsule":
            sizes = (block[:, 1] + block[:, 0]).tolist()
        else:
            sizes = [math.hypot(r, hl) for r, hl in block[:, :2].tolist()]
    elif kind == "Ellipsoid":
        block[:] = values
        sizes = values.max(axis=1).tolist()
    else:
        sizes = [math.inf] * n
    block.setflags(write=False)
    make = _new_primitive
    return [make(kind, row, size) for row, size in zip(block, sizes)]


_SLOT = {name: ShapeData.__dict__[name].__set__
         for name in ("kind", "params", "size", "type_name", "cache", "_parts", "_build")}
_NO_PARTS = (None, None, None)


def _new_primitive(kind: str, params: np.ndarray, size: float,
                   _new=object.__new__, _cls=ShapeData, _kind=_SLOT["kind"],
                   _params=_SLOT["params"], _size=_SLOT["size"], _type=_SLOT["type_name"],
                   _cache=_SLOT["cache"], _parts=_SLOT["_parts"], _build=_SLOT["_build"]):
    """ShapeData(kind, params, size=size, type_name=kind), its slots set
    directly (half the time of the constructor's keyword path)."""
    data = _new(_cls)
    _kind(data, kind)
    _params(data, params)
    _size(data, size)
    _type(data, kind)
    _cache(data, {})
    _parts(data, _NO_PARTS)
    _build(data, None)
    return data


def shape_data_from_reference(shape: dict) -> ShapeData:
    """ShapeData of a reference-data shape record, e.g.
    {"type": "Box", "width": .1, "depth": .2, "height": .3} or
    {"type": "Convex", "vertices": [[x, y, z], ...], "label": "..."}."""
    kind = shape["type"]
    params = {k: v for k, v in shape.items() if k not in ("type", "label")}
    if kind in ("Convex", "Mesh"):
        pts = np.asarray(params["vertices"], dtype=float) * float(params.get("scale", 1.0))
        return _make_convex(pts, kind, shape.get("label", ""))
    return _make_primitive(kind, **params)


# ----------------------------------------------------------------- supports


def core_radius(kind: str, params: np.ndarray) -> np.ndarray:
    """Radius of the ball swept over each shape's core: Sphere = point ⊕ ball(r),
    Capsule = segment ⊕ ball(r); 0 for every other kind. params (N, 3) → (N,)."""
    if kind in ("Sphere", "Capsule"):
        return np.asarray(params)[:, 0].copy()
    return np.zeros(len(params))


def _plus_sign(x: np.ndarray) -> np.ndarray:
    return np.where(x < 0.0, -1.0, 1.0)


def batched_support_G(kind: str, params: np.ndarray, u_G: np.ndarray,
                      core: bool = False) -> np.ndarray:
    """Support points s_G (N, 3) of N primitives of one kind in directions u_G.

    params (N, 3) as ShapeData.params; u_G (N, 3) directions in each shape's
    frame G (any length; zero gives a valid point of the shape). With
    core=True, Spheres and Capsules are reduced to their core (point, segment).
    The support point maximises u·s over the shape; ties go to + signs.
    """
    u = np.asarray(u_G, dtype=float)
    P = np.asarray(params, dtype=float)
    n = np.sqrt((u * u).sum(axis=1))
    safe = np.where(n > 0.0, n, 1.0)
    if kind == "Sphere":
        if core:
            return np.zeros_like(u)
        return P[:, :1] * u / safe[:, None]
    if kind == "Box":
        return P * _plus_sign(u)
    if kind == "Capsule":
        s = np.zeros_like(u)
        s[:, 2] = P[:, 1] * _plus_sign(u[:, 2])
        if not core:
            s += P[:, :1] * u / safe[:, None]
        return s
    if kind == "Cylinder":
        rxy = np.hypot(u[:, 0], u[:, 1])
        # u_xy / |u_xy| first (no overflow); below 1e-280·|u| the radial part is
        # rounding (denormals): the cap centre, a valid support point, instead.
        radial = rxy > 1e-280 * np.maximum(n, 1e-300)
        safe = np.where(radial, rxy, 1.0)
        f = np.where(radial, P[:, 0], 0.0)
        return np.column_stack([f * (u[:, 0] / safe), f * (u[:, 1] / safe),
                                P[:, 1] * _plus_sign(u[:, 2])])
    if kind == "Ellipsoid":
        Mu = P * P * u
        h = np.sqrt((Mu * u).sum(axis=1))
        return np.where(h[:, None] > 0.0, Mu / np.where(h > 0.0, h, 1.0)[:, None],
                        np.column_stack([P[:, 0], np.zeros(len(P)), np.zeros(len(P))]))
    raise ValueError(f"batched_support_G: no batched support for {kind!r}")


def support_points_G(data: ShapeData, u_G: np.ndarray, core: bool = False) -> np.ndarray:
    """Support points (M, 3) of one geometry in M directions u_G (M, 3), in G.

    Convex: the first hull vertex maximising u·v. See batched_support_G for the
    primitives and the meaning of `core`.
    """
    u = np.atleast_2d(np.asarray(u_G, dtype=float))
    if data.kind == "Convex":
        V = data.hull.vertices
        return V[np.argmax(u @ V.T, axis=1)]
    if data.kind == "HalfSpace":
        raise ValueError("a HalfSpace has no support point")
    return batched_support_G(data.kind, np.broadcast_to(data.params, u.shape), u, core)
