"""Contact polygons between hydroelastic representations.

Each routine works in one geometry's frame F and returns K convex polygons,
the desired normal of each (pointing out of geometry B and into geometry A),
the pressure at every vertex [Pa], the gradient of the surface pressure field
e_MN and of A's and B's pressure fields [Pa/m], all expressed in F:
- mesh–mesh pairs (compliant–rigid, compliant–compliant) run in the compiled
  kernels of contact_kernels.py (both hierarchies traversed together, candidate
  pairs processed in bounded chunks) and return flat Polygons;
- half-space pairs are linear in the mesh size and vectorised in numpy; they
  return a padded PolygonBatch (with vertex keys where neighbours share cuts).

Drake's rules are kept: compliant–rigid keeps a (tet, triangle) pair only if
the triangle normal is within 5π/8 of the tet's pressure gradient, and
compliant–compliant keeps a tet pair only if the equilibrium plane normal is
within 5π/8 of both gradients (the second one reversed).
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from scenegraph.hydroelastic._arrays import row_max, row_min
from scenegraph.hydroelastic.clipping import (clip_by_planes, compact, remove_near_duplicates,
                                              slice_tets, unique_edge_ids)
from scenegraph.hydroelastic.contact_kernels import soft_rigid_polygons, soft_soft_polygons

COS_ALPHA = math.cos(5.0 * math.pi / 8.0)
_EYE, _ZERO = np.eye(3), np.zeros(3)


def _floats(a: np.ndarray) -> np.ndarray:
    """a as a C-contiguous float64 array (no copy when it already is one)."""
    if type(a) is np.ndarray and a.dtype == np.float64 and a.flags.c_contiguous:
        return a
    return np.ascontiguousarray(a, dtype=np.float64)


@dataclasses.dataclass
class Polygons:
    """K contact polygons stored flat, in frame F (see module docstring).

    start (K + 1,) int: polygon k owns vertices start[k] <= v < start[k + 1] of
    p_FV (V, 3) [m] and pressure (V,) [Pa]; nhat (K, 3) unit; grad_e (K, 3),
    grad_A / grad_B (K, 3) or None [Pa/m].
    """

    start: np.ndarray
    p_FV: np.ndarray
    pressure: np.ndarray
    nhat: np.ndarray
    grad_e: np.ndarray
    grad_A: np.ndarray | None
    grad_B: np.ndarray | None

    @property
    def size(self) -> int:
        return int(self.start.shape[0] - 1)

    def padded(self) -> "PolygonBatch":
        """The same polygons as a padded PolygonBatch (for tests and inspection)."""
        n = np.diff(self.start)
        K, m = n.shape[0], max(int(n.max()) if n.shape[0] else 1, 1)
        P = np.zeros((K, m, 3))
        pressure = np.zeros((K, m))
        k = np.repeat(np.arange(K), n)
        j = np.arange(self.p_FV.shape[0]) - np.repeat(self.start[:-1], n)
        P[k, j] = self.p_FV
        pressure[k, j] = self.pressure
        return PolygonBatch(P, n, self.nhat, pressure, self.grad_e, self.grad_A, self.grad_B)


@dataclasses.dataclass
class PolygonBatch:
    """K contact polygons in frame F (see module docstring).

    P (K, m, 3) [m], n (K,), nhat (K, 3) unit, pressure (K, m) [Pa], grad_e
    (K, 3), grad_A / grad_B (K, 3) or None [Pa/m]; keys (K, m) int or None:
    equal keys mark one shared vertex (mesh-edge or mesh-vertex identity).
    """

    P: np.ndarray
    n: np.ndarray
    nhat: np.ndarray
    pressure: np.ndarray
    grad_e: np.ndarray
    grad_A: np.ndarray | None
    grad_B: np.ndarray | None
    keys: np.ndarray | None = None

    @property
    def size(self) -> int:
        return int(self.n.shape[0])

    def flat(self) -> Polygons:
        """The same polygons stored flat (requires keys None: no shared vertices)."""
        slot = np.arange(self.P.shape[1])
        valid = slot[None, :] < self.n[:, None]
        start = np.zeros(self.n.shape[0] + 1, dtype=np.int64)
        np.cumsum(self.n, out=start[1:])
        c = np.ascontiguousarray
        return Polygons(start, c(self.P[valid], dtype=float), c(self.pressure[valid], dtype=float),
                        c(self.nhat, dtype=float), c(self.grad_e, dtype=float),
                        None if self.grad_A is None else c(self.grad_A, dtype=float),
                        None if self.grad_B is None else c(self.grad_B, dtype=float))


def _finish(P, n, rows):
    P, n = remove_near_duplicates(P, n)
    keep = n >= 3
    if not keep.all():
        P, n = compact(P, n, keep)
        rows = rows[keep]
    return P, n, rows


def soft_volume_rigid_surface(soft, rigid, R_SR: np.ndarray, p_SR: np.ndarray,
                              R_WS: np.ndarray = _EYE, p_WS: np.ndarray = _ZERO) -> Polygons:
    """Rigid triangles clipped by compliant tetrahedra, in the compliant frame S.

    A = soft (its pressure field is sampled), B = rigid; normals are the rigid
    triangles' normals (out of the rigid surface). Either X_SR = (R_SR, p_SR)
    with R_WS, p_WS left out, or world poses X_WS, X_WR passed as
    (R_WS, p_WS) and (R_SR, p_SR) := (R_WR, p_WR) (contiguous float arrays).
    """
    start, p_SV, pressure, nhat, g, _ = soft_rigid_polygons(
        soft.bvh.kernel_arrays, soft.kernel_rows, rigid.bvh.kernel_arrays, rigid.kernel_rows,
        _floats(R_WS), _floats(p_WS), _floats(R_SR), _floats(p_SR))
    return Polygons(start, p_SV, pressure, nhat, g, g, None)


def soft_volume_rigid_half_space(soft, R_SH: np.ndarray, p_SH: np.ndarray) -> PolygonBatch:
    """The rigid half space's boundary plane sliced through the compliant tets, in frame S.

    A = soft, B = the half space (z ≤ 0 in H); normals are +Hz (out of the
    half space). Cut vertices are shared between neighbouring tets.
    """
    z = R_SH[:, 2]
    d = float(z @ p_SH)
    h = soft.mesh.vertices_array() @ z - d
    tets = soft.mesh.tetrahedra_array()
    ht = h[tets]
    cut = np.nonzero((row_max(ht) > 0) & (row_min(ht) <= 0))[0]
    K = cut.shape[0]
    P, n, edges, pressure = slice_tets(soft.tet_p[cut], np.broadcast_to(z, (K, 3)),
                                       np.full(K, d), soft.tet_values[cut])
    global_edges = np.take_along_axis(tets[cut][:, None, :], np.maximum(edges, 0).reshape(K, 1, 8),
                                      axis=2).reshape(K, 4, 2)
    keys = unique_edge_ids(global_edges) if K else np.zeros((0, 4), dtype=np.int64)
    keep = n >= 3
    cut, P, n, pressure, keys = cut[keep], P[keep], n[keep], pressure[keep], keys[keep]
    g = soft.grad[cut]
    return PolygonBatch(P, n, np.broadcast_to(z, (cut.shape[0], 3)).copy(), pressure, g, g, None,
                        keys)


# Triangle vs half space: per sign code (bit i ⇔ vertex i outside), the clipped polygon
# as slots 0..2 (vertex i) or 3, 4, 5 (the cut point on edge 01, 02, 12), right-handed as
# the triangle.
_TRI_HS_TABLE = np.array([[0, 1, 2, -1], [1, 2, 4, 3], [0, 3, 5, 2], [2, 4, 5, -1],
                          [0, 1, 5, 4], [1, 5, 3, -1], [0, 3, 4, -1], [-1, -1, -1, -1]])
_TRI_HS_COUNT = (_TRI_HS_TABLE >= 0).sum(axis=1)
_SLOT_EDGE = np.array([[0, 0], [1, 1], [2, 2], [0, 1], [0, 2], [1, 2]])


def soft_half_space_rigid_surface(pressure_scale: float, rigid, R_RH: np.ndarray,
                                  p_RH: np.ndarray, margin: float = 0.0) -> PolygonBatch:
    """The rigid surface inside a compliant half space H (z ≤ margin), in the rigid frame R.

    Pressure = pressure_scale·depth below z = 0 [Pa] (negative in the margin
    layer); A = the half space, B = rigid; normals are the triangles' (out of
    the rigid surface). Triangles facing away from the half space's pressure
    gradient (−Hz) by more than 5π/8 are skipped, as Drake does.
    """
    mesh = rigid.mesh
    z = R_RH[:, 2]
    d = float(z @ p_RH) + margin          # the (inflated) boundary plane z·x = d
    p_RV = mesh.vertices_array()
    s = p_RV @ z - d
    tris = mesh.triangles_array()
    nrm = mesh.face_normals_array()
    st = s[tris]
    code = (st[:, 0] > 0) + 2 * (st[:, 1] > 0) + 4 * (st[:, 2] > 0)
    keep = (code < 7) & (nrm @ -z > COS_ALPHA)
    idx = np.nonzero(keep)[0]
    code, tri_v, st = code[idx], tris[idx], st[idx]
    slots = _TRI_HS_TABLE[code]                               # (K, 4)
    n = _TRI_HS_COUNT[code]
    ends = _SLOT_EDGE[np.maximum(slots, 0)]                   # (K, 4, 2) local vertex pairs
    ga = np.take_along_axis(tri_v, ends[..., 0], axis=1)
    gb = np.take_along_axis(tri_v, ends[..., 1], axis=1)
    lo, hi = np.minimum(ga, gb), np.maximum(ga, gb)           # orient edges by global id
    s_lo, s_hi = s[lo], s[hi]
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(lo != hi, s_lo / (s_lo - s_hi), 0.0)
    P = p_RV[lo] + t[..., None] * (p_RV[hi] - p_RV[lo])
    V = p_RV.shape[0]
    keys = np.where(lo == hi, lo, V + lo * V + hi)
    pressure = -pressure_scale * ((P @ z - d) + margin)
    pressure = np.where(lo == hi, -pressure_scale * (s[lo] + margin), pressure)
    K = idx.shape[0]
    g = np.broadcast_to(-pressure_scale * z, (K, 3)).copy()
    return PolygonBatch(P, n, nrm[idx].copy(), pressure, g, g.copy(), None, keys)


def soft_volume_soft_volume(soft0, soft1, R_01: np.ndarray, p_01: np.ndarray,
                            R_W0: np.ndarray = _EYE, p_W0: np.ndarray = _ZERO) -> Polygons:
    """Equilibrium surfaces p₀ = p₁ per intersecting tet pair, in frame 0.

    A = soft0, B = soft1; normals along ∇p₀ − ∇p₁ (into 0, out of 1); the
    pressure is sampled from field 0. Poses as soft_volume_rigid_surface's:
    X_01, or world poses X_W0 = (R_W0, p_W0) and X_W1 = (R_01, p_01).
    """
    start, p_0V, pressure, nhat, g0, g1 = soft_soft_polygons(
        soft0.bvh.kernel_arrays, soft0.kernel_rows, soft1.bvh.kernel_arrays, soft1.kernel_rows,
        _floats(R_W0), _floats(p_W0), _floats(R_01), _floats(p_01))
    return Polygons(start, p_0V, pressure, nhat, g0, g0, g1)


def soft_half_space_soft_volume(pressure_scale: float, soft, R_NH: np.ndarray,
                                p_NH: np.ndarray, margin: float = 0.0) -> PolygonBatch:
    """Equilibrium surface between a compliant half space H and a compliant mesh N, in frame N.

    Beyond Drake. The half space's pressure is pressure_scale·depth, linear
    everywhere, so each tet contributes the plane where it equals the tet's
    pressure, clipped to the tet and to the half space (z ≤ margin in H). A =
    the half space, B = the mesh; the pressure is sampled from the mesh's field.
    """
    z = R_NH[:, 2]
    dz = float(z @ p_NH)
    h = soft.tet_p @ z - dz
    cand = np.nonzero(row_min(h) < margin)[0]
    gH = -pressure_scale * z
    atH = pressure_scale * dz
    gN, atN = soft.grad[cand], soft.at_Go[cand]
    nvec = gH[None, :] - gN
    mag = np.linalg.norm(nvec, axis=1)
    ok = mag > 0
    nhat = nvec / np.where(ok, mag, 1.0)[:, None]
    ok &= nhat @ (-z) > COS_ALPHA
    ok &= np.einsum("kj,kj->k", -nhat, soft.grad_unit[cand]) > COS_ALPHA
    idx = np.nonzero(ok)[0]
    cand, nhat, gN, atN = cand[idx], nhat[idx], gN[idx], atN[idx]
    d = (atN - atH) / mag[idx]
    P, n, _ = slice_tets(soft.tet_p[cand], nhat, d)
    keep = n >= 3
    rows = np.nonzero(keep)[0]
    P, n = P[keep], n[keep]
    K = rows.shape[0]
    P, n = clip_by_planes(P, n, np.broadcast_to(z, (K, 3)), np.full(K, dz + margin))
    P, n, rows = _finish(P, n, rows)
    gN, atN, nhat = gN[rows], atN[rows], nhat[rows]
    pressure = np.einsum("kmj,kj->km", P, gN) + atN[:, None]
    gH_K = np.broadcast_to(gH, (rows.shape[0], 3)).copy()
    return PolygonBatch(P, n, nhat, pressure, gN, gH_K, gN)
