"""The numpy narrow phase's dispatch (the library's before the compiled one):
one vectorised kernel per canonical shape-type pair, the general Python
solver for pairs without a closed form. Same entry points and results as
scenegraph.proximity.dispatch, for comparing the two."""
from __future__ import annotations

from typing import Callable

import numpy as np

from scenegraph.proximity.dispatch import ShapeTable, _stack_poses
from scenegraph.proximity.pair_result import PairBatchResult
from scenegraph.proximity.shape_data import KINDS
from tests.scenegraph.proximity.numpy_kernels import (box_box, box_capsule, capsule_capsule,
                                                      general, halfspace_convex, sphere_shape)
from tests.scenegraph.proximity.numpy_kernels.common import ShapeBatch

Kernel = Callable[..., PairBatchResult]

KERNELS: dict[tuple[str, str], Kernel] = {
    ("Sphere", "Sphere"): sphere_shape.sphere_sphere,
    ("Box", "Sphere"): sphere_shape.box_sphere,
    ("Capsule", "Sphere"): sphere_shape.capsule_sphere,
    ("Convex", "Sphere"): sphere_shape.convex_sphere,
    ("Cylinder", "Sphere"): sphere_shape.cylinder_sphere,
    ("Ellipsoid", "Sphere"): sphere_shape.ellipsoid_sphere,
    ("HalfSpace", "Sphere"): sphere_shape.halfspace_sphere,
    ("Box", "HalfSpace"): halfspace_convex.shape_halfspace,
    ("Capsule", "HalfSpace"): halfspace_convex.shape_halfspace,
    ("Convex", "HalfSpace"): halfspace_convex.shape_halfspace,
    ("Cylinder", "HalfSpace"): halfspace_convex.shape_halfspace,
    ("Ellipsoid", "HalfSpace"): halfspace_convex.shape_halfspace,
    ("HalfSpace", "HalfSpace"): halfspace_convex.halfspace_halfspace,
    ("Box", "Box"): box_box.box_box,
    ("Box", "Capsule"): box_capsule.box_capsule,
    ("Capsule", "Capsule"): capsule_capsule.capsule_capsule,
}
for _a in KINDS:
    for _b in KINDS:
        if _a <= _b and (_a, _b) not in KERNELS:
            KERNELS[(_a, _b)] = general.general_pairs
assert len(KERNELS) == 28
# Type pairs whose kernels need the ShapeData objects, not just parameters.
_NEEDS_SHAPES = frozenset(k for k, f in KERNELS.items() if f is general.general_pairs)

_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
_HALFSPACE = _KIND_INDEX["HalfSpace"]
_CONVEX = _KIND_INDEX["Convex"]


def kernel_for(kind_A: str, kind_B: str) -> tuple[Kernel, bool]:
    """(kernel, swapped): the canonical kernel for the pair and whether A and B
    must be exchanged to call it."""
    if kind_A <= kind_B:
        return KERNELS[(kind_A, kind_B)], False
    return KERNELS[(kind_B, kind_A)], True


def _batch(table, index, with_shapes=False) -> ShapeBatch:
    """ShapeBatch of the table rows `index` (all of one kind)."""
    kind = KINDS[int(table.kind_index[index[0]])]
    keep = with_shapes or kind == "Convex"
    shapes = tuple(table.shapes[i] for i in index) if keep else ()
    return ShapeBatch(kind, table.params[index], shapes)


def compute_pairs_indexed(table, R_WG: np.ndarray, p_WG: np.ndarray,
                          index_A, index_B, max_distance: float = np.inf) -> PairBatchResult:
    """Narrow phase for the pairs (index_A[k], index_B[k]) of `table`.

    R_WG (G, 3, 3), p_WG (G, 3): world poses of all table geometries [m].
    index_A, index_B: (N,) int rows of the table. Returns a PairBatchResult
    of N rows for (A_k, B_k) as asked.
    """
    iA = np.asarray(index_A, dtype=np.int64).reshape(-1)
    iB = np.asarray(index_B, dtype=np.int64).reshape(-1)
    if iA.shape != iB.shape:
        raise ValueError(f"index_A and index_B differ in length ({len(iA)} vs {len(iB)})")
    n = len(iA)
    out = PairBatchResult.empty(n)
    if n == 0:
        return out
    kA, kB = table.kind_index[iA], table.kind_index[iB]
    swap = kA > kB
    lo = np.where(swap, iB, iA)
    hi = np.where(swap, iA, iB)
    key = np.minimum(kA, kB) * len(KINDS) + np.maximum(kA, kB)
    order = np.argsort(key, kind="stable")
    bounds = np.flatnonzero(np.diff(key[order])) + 1
    for rows in np.split(order, bounds):
        a, b = lo[rows], hi[rows]
        key = (KINDS[int(table.kind_index[a[0]])], KINDS[int(table.kind_index[b[0]])])
        kernel = KERNELS[key]
        full = key in _NEEDS_SHAPES
        A, B = _batch(table, a, full), _batch(table, b, full)
        res = kernel(A, R_WG[a], p_WG[a], B, R_WG[b], p_WG[b], max_distance=max_distance)
        sw = swap[rows]
        if sw.any():
            res.p_WCa[sw], res.p_WCb[sw] = res.p_WCb[sw].copy(), res.p_WCa[sw].copy()
            res.nhat_BA_W[sw] = -res.nhat_BA_W[sw]
        out.assign(rows, res)
    return out


def compute_pairs(shapes_A, R_WA, p_WA, shapes_B, R_WB, p_WB,
                  max_distance: float = np.inf) -> PairBatchResult:
    """compute_pairs_indexed for N pairs given as lists of ShapeData and poses."""
    n = len(shapes_A)
    RA, pA = _stack_poses(R_WA, p_WA, n, "A")
    RB, pB = _stack_poses(R_WB, p_WB, n, "B")
    table = ShapeTable(list(shapes_A) + list(shapes_B))
    idx = np.arange(n)
    return compute_pairs_indexed(table, np.concatenate([RA, RB]), np.concatenate([pA, pB]),
                                 idx, idx + n, max_distance)
