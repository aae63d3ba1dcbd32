"""Result types of SceneGraph's proximity queries (pydrake.geometry names).

All three are plain records with pydrake's attribute names. Vectors are numpy
float arrays of shape (3,), in SI units (m):

* PenetrationAsPointPair: two penetrating geometries A and B. p_WCa is the
  point of A deepest inside B and p_WCb the point of B deepest inside A, both
  measured and expressed in the world frame W; nhat_BA_W is the unit normal
  pointing out of B into A, in W; depth > 0 is the penetration depth, with
  p_WCb − p_WCa = depth · nhat_BA_W.
* SignedDistancePair: the signed distance between A and B (negative when they
  overlap) with witness points Ca on ∂A (p_ACa, in A's frame) and Cb on ∂B
  (p_BCb, in B's frame) and the unit normal nhat_BA_W from B towards A, with
  X_WA·p_ACa − X_WB·p_BCb = distance · nhat_BA_W.
* SignedDistanceToPoint: the signed distance from a query point Q to geometry
  G, the nearest point N on ∂G (p_GN, in G's frame) and the unit gradient of
  the distance with respect to Q, grad_W, in W.
"""
from __future__ import annotations

import numpy as np

from scenegraph.identifiers import GeometryId

__all__ = ["PenetrationAsPointPair", "SignedDistancePair", "SignedDistanceToPoint"]


def _vec3(value, name: str) -> np.ndarray:
    v = np.array(value, dtype=float).reshape(-1)
    if v.shape != (3,):
        raise ValueError(f"{name} must be a 3-vector, got shape {np.shape(value)}")
    return v


def _fmt(v: np.ndarray) -> str:
    return "[" + ", ".join(f"{x:.6g}" for x in v) + "]"


class _Vector3:
    """A (3,) float attribute stored in slot `slot`. Results made by a query
    hold a row of one (K, 10) block shared by the call's K results instead
    ([φ | three vectors]: columns 1+3·column .. 3+3·column); the row's view
    is made at the first read (making three views per result up front cost
    more than the rest of a small query). Assignment stores a checked copy,
    as __init__ does."""

    __slots__ = ("slot", "column", "name")

    def __init__(self, slot: str, column: int, name: str):
        self.slot, self.column, self.name = slot, column, name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        v = getattr(obj, self.slot)
        if v is None:
            c = 1 + 3 * self.column
            v = obj._block[obj._row, c:c + 3]
            setattr(obj, self.slot, v)
        return v

    def __set__(self, obj, value) -> None:
        setattr(obj, self.slot, _vec3(value, self.name))


class PenetrationAsPointPair:
    """A pair of penetrating geometries characterised by two points.

    Attributes:
      id_A, id_B: the GeometryIds of A and B.
      p_WCa: (3,) point of A deepest inside B, in W [m].
      p_WCb: (3,) point of B deepest inside A, in W [m].
      nhat_BA_W: (3,) unit normal out of B into A, in W.
      depth: penetration depth [m] (≥ 0), depth = (p_WCb − p_WCa)·nhat_BA_W.
    """

    __slots__ = ("id_A", "id_B", "_p_WCa", "_p_WCb", "_nhat_BA_W", "depth", "_block", "_row")

    p_WCa = _Vector3("_p_WCa", 0, "p_WCa")
    p_WCb = _Vector3("_p_WCb", 1, "p_WCb")
    nhat_BA_W = _Vector3("_nhat_BA_W", 2, "nhat_BA_W")

    def __init__(self, id_A=None, id_B=None, p_WCa=(0.0, 0.0, 0.0), p_WCb=(0.0, 0.0, 0.0),
                 nhat_BA_W=(0.0, 0.0, 0.0), depth: float = -1.0):
        self.id_A = GeometryId() if id_A is None else id_A
        self.id_B = GeometryId() if id_B is None else id_B
        self.p_WCa = _vec3(p_WCa, "p_WCa")
        self.p_WCb = _vec3(p_WCb, "p_WCb")
        self.nhat_BA_W = _vec3(nhat_BA_W, "nhat_BA_W")
        self.depth = float(depth)

    @classmethod
    def _make(cls, id_A, id_B, p_WCa, p_WCb, nhat_BA_W, depth: float):
        """Internal fast constructor: (3,) float arrays taken as given, no checks."""
        result = object.__new__(cls)
        result.id_A, result.id_B = id_A, id_B
        result._p_WCa, result._p_WCb, result._nhat_BA_W = p_WCa, p_WCb, nhat_BA_W
        result.depth = depth
        return result

    @classmethod
    def _rows_of(cls, ids: list, rows: np.ndarray, block: np.ndarray) -> list:
        """Internal: K results, result k for the geometries ids[rows[k, 0]],
        ids[rows[k, 1]] (rows (K, 2) int64), its depth and vectors read from
        row k of block (K, 10) = [depth | p_WCa | p_WCb | nhat_BA_W] (the
        block must not be shared with anything else)."""
        out = []
        new = object.__new__
        pair = iter(rows.ravel().tolist())  # (a, b) pairs off one flat list
        k = 0
        for a, b, d in zip(pair, pair, block[:, 0].tolist()):
            r = new(cls)
            r.id_A, r.id_B, r.depth = ids[a], ids[b], d
            r._p_WCa = r._p_WCb = r._nhat_BA_W = None
            r._block, r._row = block, k
            out.append(r)
            k += 1
        return out

    def SwapAAndB(self) -> None:
        """Swaps the roles of A and B in place (Drake's C++ SwapAAndB)."""
        self.id_A, self.id_B = self.id_B, self.id_A
        self._p_WCa, self._p_WCb = self.p_WCb, self.p_WCa
        self._nhat_BA_W = -self.nhat_BA_W

    def __repr__(self) -> str:
        return (f"PenetrationAsPointPair(id_A={self.id_A!r}, id_B={self.id_B!r}, "
                f"depth={self.depth:.9g}, p_WCa={_fmt(self.p_WCa)}, p_WCb={_fmt(self.p_WCb)}, "
                f"nhat_BA_W={_fmt(self.nhat_BA_W)})")


class SignedDistancePair:
    """Signed distance between two geometries with witness points.

    Attributes:
      id_A, id_B: the GeometryIds of A and B.
      p_ACa: (3,) witness point Ca on ∂A, measured and expressed in A [m].
      p_BCb: (3,) witness point Cb on ∂B, measured and expressed in B [m].
      distance: signed distance [m], negative when A and B overlap.
      nhat_BA_W: (3,) unit normal from B towards A, in W.
      is_nhat_BA_W_unique: whether the normal is unique (informational).
    """

    __slots__ = ("id_A", "id_B", "_p_ACa", "_p_BCb", "distance", "_nhat_BA_W",
                 "is_nhat_BA_W_unique", "_block", "_row")

    p_ACa = _Vector3("_p_ACa", 0, "p_ACa")
    p_BCb = _Vector3("_p_BCb", 1, "p_BCb")
    nhat_BA_W = _Vector3("_nhat_BA_W", 2, "nhat_BA_W")

    def __init__(self, id_A=None, id_B=None, p_ACa=(0.0, 0.0, 0.0), p_BCb=(0.0, 0.0, 0.0),
                 distance: float = 0.0, nhat_BA_W=(0.0, 0.0, 0.0),
                 is_nhat_BA_W_unique: bool = True):
        self.id_A = GeometryId() if id_A is None else id_A
        self.id_B = GeometryId() if id_B is None else id_B
        self.p_ACa = _vec3(p_ACa, "p_ACa")
        self.p_BCb = _vec3(p_BCb, "p_BCb")
        self.distance = float(distance)
        self.nhat_BA_W = _vec3(nhat_BA_W, "nhat_BA_W")
        self.is_nhat_BA_W_unique = bool(is_nhat_BA_W_unique)

    @classmethod
    def _make(cls, id_A, id_B, p_ACa, p_BCb, distance: float, nhat_BA_W):
        """Internal fast constructor: (3,) float arrays taken as given, no checks."""
        result = object.__new__(cls)
        result.id_A, result.id_B = id_A, id_B
        result._p_ACa, result._p_BCb = p_ACa, p_BCb
        result.distance, result._nhat_BA_W = distance, nhat_BA_W
        result.is_nhat_BA_W_unique = True
        return result

    @classmethod
    def _rows_of(cls, ids: list, rows: np.ndarray, block: np.ndarray) -> list:
        """Internal: K results, result k for the geometries ids[rows[k, 0]],
        ids[rows[k, 1]] (rows (K, 2) int64), its distance and vectors read
        from row k of block (K, 10) = [distance | p_ACa | p_BCb | nhat_BA_W]
        (the block must not be shared with anything else)."""
        out = []
        new = object.__new__
        pair = iter(rows.ravel().tolist())  # (a, b) pairs off one flat list
        k = 0
        for a, b, d in zip(pair, pair, block[:, 0].tolist()):
            r = new(cls)
            r.id_A, r.id_B, r.distance = ids[a], ids[b], d
            r._p_ACa = r._p_BCb = r._nhat_BA_W = None
            r.is_nhat_BA_W_unique = True
            r._block, r._row = block, k
            out.append(r)
            k += 1
        return out

    def SwapAAndB(self) -> None:
        """Swaps the roles of A and B in place (Drake's C++ SwapAAndB)."""
        self.id_A, self.id_B = self.id_B, self.id_A
        self._p_ACa, self._p_BCb = self.p_BCb, self.p_ACa
        self._nhat_BA_W = -self.nhat_BA_W

    def __repr__(self) -> str:
        return (f"SignedDistancePair(id_A={self.id_A!r}, id_B={self.id_B!r}, "
                f"distance={self.distance:.9g}, p_ACa={_fmt(self.p_ACa)}, "
                f"p_BCb={_fmt(self.p_BCb)}, nhat_BA_W={_fmt(self.nhat_BA_W)})")


class SignedDistanceToPoint:
    """Signed distance from a query point Q to a geometry G.

    Attributes:
      id_G: the GeometryId of G.
      p_GN: (3,) nearest point N on ∂G, measured and expressed in G [m].
      distance: signed distance from Q to G [m], negative inside.
      grad_W: (3,) unit gradient of the distance with respect to Q, in W.
      is_grad_W_unique: whether the gradient is unique (informational).
    """

    __slots__ = ("id_G", "p_GN", "distance", "grad_W", "is_grad_W_unique")

    @classmethod
    def _make(cls, id_G, p_GN, distance: float, grad_W):
        """Internal fast constructor: (3,) float arrays taken as given, no checks."""
        result = object.__new__(cls)
        result.id_G, result.p_GN, result.distance, result.grad_W = id_G, p_GN, distance, grad_W
        return result

    def __init__(self, id_G=None, p_GN=(0.0, 0.0, 0.0), distance: float = 0.0,
                 grad_W=(0.0, 0.0, 0.0), is_grad_W_unique: bool = True):
        self.id_G = GeometryId() if id_G is None else id_G
        self.p_GN = _vec3(p_GN, "p_GN")
        self.distance = float(distance)
        self.grad_W = _vec3(grad_W, "grad_W")
        self.is_grad_W_unique = bool(is_grad_W_unique)

    def __repr__(self) -> str:
        return (f"SignedDistanceToPoint(id_G={self.id_G!r}, distance={self.distance:.9g}, "
                f"p_GN={_fmt(self.p_GN)}, grad_W={_fmt(self.grad_W)})")
