"""One compiled call for every pair that holds an exact mesh.

exact_mesh_queries.ExactRows hands this kernel all of a query's pairs with
an exact mesh at once; it answers each separated pair completely (the
triangle-level distance and witnesses of exact_mesh.py), a Sphere's or a
HalfSpace's overlap by their closed-form rules, and the other overlapping
pairs by their deepest point (exact_mesh_depth.py, in the same call), or
only marks them (HasCollisions needs no depth).

Layout. Meshes (exact meshes, Box meshes, the hulls of Convex shapes and
of Mesh shapes without the property) are packed end to end, each a
TriangleMeshBvh's arrays (mesh_bvh / mesh_kernels docstrings):
  tri (ΣF, 12), pseudo (ΣF, 18), tri_id (ΣF,), balls (ΣF, 4) in leaf order;
  node_f (ΣM, 13), node_i (ΣM, 4), obbs (ΣM, 15); vertices (ΣV, 3);
  faces (ΣF, 3) int64 (vertex indices local to the mesh) and normals
    (ΣF, 3) (unit face normals), both in the mesh's original triangle order;
  vadj_ptr (ΣV + 1,), vadj (Σ 2E,) int64: each vertex's neighbours along
    the mesh's edges (CSR, packed vertex indices); comp (ΣV,) int64 each
    vertex's connected component, comp_rep (ΣC,) its lowest vertex (packed
    indices);
  mesh_i (S, 9) int64: tri start, end, node start, end, vertex start, end,
    closed, component start, end; mesh_f (S, 2): (eps, tol) of the
    signed-distance kernels.
The kernel takes them as two flat arrays (one call unboxes two arrays, not
sixteen): F (float64) and I (int64), I[0:48] a table of (start, rows,
columns) per array in the order above (columns 0: one-dimensional), each
array's entries at its start in F (float arrays) or I (int arrays), row
by row (_views unpacks them, _MeshPack packs them).
Rows (the scene's geometries): rows (ROW_FIELDS, n) int64: kind
(packed_shapes' codes), mesh (the slot of a row's triangles, −1: none),
exact (1: an exact mesh), packed (1: its shape is packed), hint (see
exact_pairs); params (n, 3) (ShapeData.params).

Output per pair (K, 11): φ [m], p_WCa (3), p_WCb (3), nhat_BA_W (3) in the
conventions of SignedDistancePair, then a status:
  APART     separated, the exact answer;
  FARTHER   farther than max_distance (φ is +inf or a distance above it);
  TOUCHING  overlapping or touching, the answer final (Sphere: φ_M(centre)
            − r; HalfSpace: the lowest vertex; others: the deepest point);
  OVERLAP   overlapping, no depth asked (values NaN).
With `collect`, a second array lists every candidate point of the
overlapping pairs' deepest-point searches (exact_mesh_depth: rows of pair
index, depth [m], p_WCa (3), p_WCb (3)).

Merge: a pair query's selected rows and values can be handed over as they
are (exact_mesh_queries.ExactRows.patch): the kernel re-answers the pairs
with an exact mesh in place and marks those the query no longer selects, so
a query runs no numpy per pair either (exact_pairs' `merge`). Select: the
broadphase's candidates can be handed over as they are
(exact_mesh_queries.ExactRows.select): the kernel answers those with an
exact mesh and returns the selected ones compacted, the others listed for
the hull query (MERGE_SELECT), so the query's one compiled call after the
broadphase runs no numpy between them either.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.exact_mesh_curved_depth import curved_depth
from scenegraph.proximity.compiled.exact_mesh_depth import (NUM_POINT_VALUES, mesh_mesh_depth,
                                                             mesh_signed)
from scenegraph.proximity.compiled.exact_mesh_kernels import _support, mesh_primitive_nearest
from scenegraph.proximity.compiled.exact_mesh_traversal import _dual_traversal
from scenegraph.proximity.compiled.mesh_kernels import _SCRATCH, _winding
from scenegraph.proximity.compiled.packed_shapes import (BOX, CAPSULE, CYLINDER, HALFSPACE,
                                                          SPHERE)

__all__ = ["exact_pairs", "APART", "FARTHER", "TOUCHING", "OVERLAP", "NUM_EXACT_VALUES",
           "NUM_POINT_VALUES", "MERGE", "MERGE_NEGATE", "MERGE_IN_FRAMES", "MERGE_SELECT",
           "DEPTHS", "COLLECT", "ROW_KIND", "ROW_MESH", "ROW_EXACT", "ROW_PACKED", "ROW_HINT",
           "ROW_FIELDS", "NUM_ARRAYS", "FLOAT_ARRAYS", "HEADER"]

APART = 0
FARTHER = 1
TOUCHING = 2
OVERLAP = 3
NUM_EXACT_VALUES = 11
#: exact_pairs' merge flags (0: no merge).
MERGE = 1
MERGE_NEGATE = 2
MERGE_IN_FRAMES = 4
MERGE_SELECT = 8
#: exact_pairs' other flags: overlapping pairs get their depth; collect the
#: deepest-point searches' candidates.
DEPTHS = 16
COLLECT = 32
#: The rows table's fields (exact_pairs' `rows`).
ROW_KIND, ROW_MESH, ROW_EXACT, ROW_PACKED, ROW_HINT = 0, 1, 2, 3, 4
ROW_FIELDS = 5
#: The packed arrays (module docstring's order): which are float64 (in F),
#: and I's table of (start, rows, columns) before the int arrays.
NUM_ARRAYS = 16
FLOAT_ARRAYS = (True, True, False, True, True, False, True, True, False, True, False, False,
                False, False, False, True)
HEADER = 3 * NUM_ARRAYS
_BETA = 3.0


@njit(specialize_literals=False)
def _prim_box(k, a, b, c, R, t, lo, hi):
    """The exact AABB [lo, hi] in M of a Capsule, Cylinder or Ellipsoid
    (code k, parameters a, b, c) posed in M by R, t."""
    for r in range(3):
        for sgn in (1.0, -1.0):
            ux, uy, uz = sgn * R[r, 0], sgn * R[r, 1], sgn * R[r, 2]
            if k == CAPSULE:
                sx, sy, sz = a * ux, a * uy, a * uz
                sz += b if uz > 0.0 else (-b if uz < 0.0 else 0.0)
            else:
                sx, sy, sz = _support(k, a, b, c, ux, uy, uz)
            v = R[r, 0] * sx + R[r, 1] * sy + R[r, 2] * sz + t[r]
            if sgn > 0.0:
                hi[r] = v
            else:
                lo[r] = v


@njit(specialize_literals=False)
def _bounding_radius(k, a, b, c):
    if k == CAPSULE:
        return a + b
    if k == CYLINDER:
        return math.hypot(a, b)
    return max(a, b, c)


@njit(specialize_literals=False)
def _inside(x, y, z, s, tri, node_f, node_i, mesh_i):
    """The point is inside closed mesh s (winding number above ½; outside
    its root box, no winding number is needed)."""
    t0, t1, m0, m1 = mesh_i[s, 0], mesh_i[s, 1], mesh_i[s, 2], mesh_i[s, 3]
    if not (node_f[m0, 0] <= x <= node_f[m0, 3] and node_f[m0, 1] <= y <= node_f[m0, 4]
            and node_f[m0, 2] <= z <= node_f[m0, 5]):
        return False
    return abs(_winding(x, y, z, tri[t0:t1], node_f[m0:m1], node_i[m0:m1], _BETA,
                        True)) > 0.5


@njit(specialize_literals=False)
def _answer_in_m(m, o, R, t, kind, params, mesh, max_distance, depths, tri, pseudo, tri_id,
                 balls, node_f, node_i, obbs, vertices, normals, mesh_i, mesh_f, res, touch, lo,
                 hi, cand_k, cand_d2, guess_overlap):
    """The pair of exact mesh row m and row o, posed in M by R (3, 3), t (3,):
    res[0:10] = (φ, p_MCm, p_MCo, nhat_OM), returns (status, crossings).
    For an OVERLAP, touch (6,) gets a point where the surfaces meet and (a
    curved primitive's) nhat_OM there, lo, hi (3,) a curved primitive's box
    in M, and against a polytope or mesh, with `depths`, crossings (K, 2)
    the leaf slots of every pair of crossing triangles (exact_mesh_depth's
    inputs; the nearest-pair traversal goes on collecting them from its
    first contact: _dual_traversal's mode 3); else crossings is empty.

    guess_overlap (two meshes): the pair is expected to overlap (it did at
    the last query); the traversal first runs with bound 0, which finds the
    same first contact and crossings as with max_distance's bound (a
    subtree it prunes has no pair at distance 0; the one it visits, it
    visits in the same order) and prunes more before it; if the pair turns
    out apart, it runs again with the bound. Only the time depends on it."""
    none = np.empty((0, 2), dtype=np.int64)
    s = mesh[m]
    t0, t1, m0, m1 = mesh_i[s, 0], mesh_i[s, 1], mesh_i[s, 2], mesh_i[s, 3]
    v0, v1 = mesh_i[s, 4], mesh_i[s, 5]
    ko = kind[o]
    so = mesh[o]
    if so >= 0:                     # a polytope or another mesh: triangles
        u0, u1, n0, n1 = mesh_i[so, 0], mesh_i[so, 1], mesh_i[so, 2], mesh_i[so, 3]
        bound2 = max_distance * max_distance if max_distance < np.inf else np.inf
        b2 = 0.0 if guess_overlap else bound2
        while True:
            d2, out, found, _, crossings = _dual_traversal(
                tri[t0:t1], node_f[m0:m1], node_i[m0:m1], balls[t0:t1], obbs[m0:m1],
                tri[u0:u1], node_f[n0:n1], node_i[n0:n1], balls[u0:u1], obbs[n0:n1], R, t,
                3 if depths else 1, b2)
            if b2 == bound2 or (found >= 0 and d2 == 0.0):
                break
            b2 = bound2             # the guess was wrong: the pair is apart
        for j in range(3):
            touch[j] = out[j] if found >= 0 else vertices[v0, j]
        if found >= 0 and d2 == 0.0:
            return OVERLAP, crossings
        # Containment: a vertex of one inside the other.
        w0 = mesh_i[so, 4]
        x = vertices[w0, 0]
        y = vertices[w0, 1]
        z = vertices[w0, 2]
        if _inside(R[0, 0] * x + R[0, 1] * y + R[0, 2] * z + t[0],
                   R[1, 0] * x + R[1, 1] * y + R[1, 2] * z + t[1],
                   R[2, 0] * x + R[2, 1] * y + R[2, 2] * z + t[2], s, tri, node_f, node_i,
                   mesh_i):
            return OVERLAP, none
        x = vertices[v0, 0] - t[0]
        y = vertices[v0, 1] - t[1]
        z = vertices[v0, 2] - t[2]
        if _inside(R[0, 0] * x + R[1, 0] * y + R[2, 0] * z,
                   R[0, 1] * x + R[1, 1] * y + R[2, 1] * z,
                   R[0, 2] * x + R[1, 2] * y + R[2, 2] * z, so, tri, node_f, node_i, mesh_i):
            return OVERLAP, none
        if found < 0:
            return FARTHER, none
        d = math.sqrt(d2)
        res[0] = d
        for j in range(6):
            res[1 + j] = out[j]
        for j in range(3):
            res[7 + j] = (out[j] - out[3 + j]) / d
        return APART, none
    a, b, c = params[o, 0], params[o, 1], params[o, 2]
    if ko == HALFSPACE:
        best = np.inf
        kbest = v0
        for v in range(v0, v1):
            z = ((vertices[v, 0] - t[0]) * R[0, 2] + (vertices[v, 1] - t[1]) * R[1, 2]
                 + (vertices[v, 2] - t[2]) * R[2, 2])
            if z < best:
                best = z
                kbest = v
        res[0] = best
        for j in range(3):
            res[1 + j] = vertices[kbest, j]
            res[4 + j] = vertices[kbest, j] - best * R[j, 2]
            res[7 + j] = R[j, 2]
        if best <= 0.0:
            return TOUCHING, none
        return (APART if best <= max_distance else FARTHER), none
    d_c, qx, qy, qz, gx, gy, gz = mesh_signed(t[0], t[1], t[2], s, tri, pseudo, node_f,
                                               node_i, tri_id, mesh_i, mesh_f, cand_k, cand_d2)
    if ko == SPHERE:
        phi = d_c - a
        res[0] = phi
        res[1], res[2], res[3] = qx, qy, qz
        res[4], res[5], res[6] = t[0] - a * gx, t[1] - a * gy, t[2] - a * gz
        res[7], res[8], res[9] = -gx, -gy, -gz
        if phi <= 0.0:
            return TOUCHING, none
        return (APART if phi <= max_distance else FARTHER), none
    # A Capsule, Cylinder or Ellipsoid.
    _prim_box(ko, a, b, c, R, t, lo, hi)
    if d_c <= 0.0:
        for j in range(3):
            touch[j] = t[j]
            touch[3 + j] = 0.0
        touch[5] = 1.0
        return OVERLAP, none
    phi, out, k = mesh_primitive_nearest(tri[t0:t1], node_f[m0:m1], node_i[m0:m1],
                                         tri_id[t0:t1], ko, a, b, c, R, t, lo, hi,
                                         _bounding_radius(ko, a, b, c),
                                         min(d_c, max_distance))
    if phi <= 0.0:
        for j in range(3):
            touch[j] = out[j]
            touch[3 + j] = -normals[t0 + k, j]
        return OVERLAP, none
    if not phi < np.inf or phi > max_distance:
        return FARTHER, none
    res[0] = phi
    for j in range(6):
        res[1 + j] = out[j]
    for j in range(3):
        res[7 + j] = (out[j] - out[3 + j]) / phi
    return APART, none


@njit(specialize_literals=False)
def _f2(F, I, k):
    """Packed float array k (module docstring), a view of F."""
    s, r, c = I[3 * k], I[3 * k + 1], I[3 * k + 2]
    return F[s:s + r * c].reshape((r, c))


@njit(specialize_literals=False)
def _i2(I, k):
    """Packed two-dimensional int array k, a view of I."""
    s, r, c = I[3 * k], I[3 * k + 1], I[3 * k + 2]
    return I[s:s + r * c].reshape((r, c))


@njit(specialize_literals=False)
def _i1(I, k):
    """Packed one-dimensional int array k, a view of I."""
    s, r = I[3 * k], I[3 * k + 1]
    return I[s:s + r]


@njit(specialize_literals=False)
def exact_pairs(pairs, R, p, rows, params, max_distance, flags, values, picked, out, keep, F,
                I):
    """The pairs (K, 2) of rows (each with at least one exact mesh) at
    poses R (n, 3, 3), p (n, 3) in W, into out (K, NUM_EXACT_VALUES) and
    keep (K,) bool (below; either empty: not wanted) (module docstring:
    rows, params, F, I). max_distance [m]: pairs known to be farther are FARTHER (their
    search stops at that bound; inf measures every pair). flags: DEPTHS,
    COLLECT and the merge flags below. DEPTHS: overlapping pairs get their
    deepest point (TOUCHING), else they stay OVERLAP. COLLECT: list every
    candidate point of those searches (else the second array is empty).

    merge (flags & 15; 0: none, keep empty): `pairs` are a pair query's selected rows
    (any shapes) and values (K, ≥ 10) its answers (φ, p_WCa, p_WCb,
    nhat_BA_W), updated in place: a pair with an exact mesh gets its
    answer, or keep[q] = False when the query no longer selects it (farther
    than max_distance; with MERGE_NEGATE, the penetration query: not
    TOUCHING, and φ's column gets the depth −φ); MERGE_IN_FRAMES puts the
    witnesses in the geometries' frames (p_ACa, p_BCb). Other pairs are
    left as they are (keep True).

    MERGE_SELECT (with MERGE): `pairs` are the broadphase's candidates (any
    shapes) and values (K, ≥ 10) scratch; picked (2K, 2) int64 receives the
    pairs with an exact mesh the query selects, compacted in their order
    (their merged values likewise in values[0:n]; without `depths`, the
    overlapping pairs are selected too, their values NaN: HasCollisions),
    and from row K the other pairs (in order, for the hull query); a pair
    with an exact mesh and a row not packed (rows' ROW_PACKED): n = −1 and
    nothing is answered, the caller packs it and calls again. Without
    MERGE_SELECT, picked is not read (give an empty array).

    rows[ROW_HINT], kept by the caller between queries (−1 initially; read
    and written here): hint[m] = o when the surfaces of exact mesh row m
    and mesh row o crossed at the last query that answered them (the
    traversal then expects them to overlap again: _answer_in_m's
    guess_overlap; without DEPTHS hints are neither read nor written). It
    only changes the time, never an answer.

    Returns (points, n_points, n, n_other): points[:n_points] the collected
    candidates (rows of NUM_POINT_VALUES); with MERGE_SELECT n, n_other
    count picked's two parts, else both are 0. Results come back in the
    caller's arrays, so a query's call boxes one array."""
    kind, mesh, exact = rows[ROW_KIND], rows[ROW_MESH], rows[ROW_EXACT]
    packed, hint = rows[ROW_PACKED], rows[ROW_HINT]
    depths = (flags & DEPTHS) != 0
    collect = (flags & COLLECT) != 0
    merge = flags & 15
    tri, pseudo, balls, node_f = _f2(F, I, 0), _f2(F, I, 1), _f2(F, I, 3), _f2(F, I, 4)
    obbs, vertices, normals, mesh_f = _f2(F, I, 6), _f2(F, I, 7), _f2(F, I, 9), _f2(F, I, 15)
    tri_id, node_i, faces, vadj_ptr = _i1(I, 2), _i2(I, 5), _i2(I, 8), _i1(I, 10)
    vadj, comp, comp_rep, mesh_i = _i1(I, 11), _i1(I, 12), _i1(I, 13), _i2(I, 14)
    K = pairs.shape[0]
    select = (merge & MERGE_SELECT) != 0
    if (out.shape[0] != 0 and out.shape[0] != K) or (keep.shape[0] != 0
                                                      and keep.shape[0] != K):
        raise ValueError("exact_pairs: out and keep need K rows or none")
    if (merge != 0 and values.shape[0] < K) or (select and picked.shape[0] < 2 * K):
        raise ValueError("exact_pairs: values need K rows (merge), picked 2K (select)")
    want_out = out.shape[0] > 0
    want_keep = keep.shape[0] > 0
    for q in range(out.shape[0]):
        for j in range(NUM_EXACT_VALUES):
            out[q, j] = np.nan
    for q in range(keep.shape[0]):
        keep[q] = True
    negate = (merge & MERGE_NEGATE) != 0
    in_frames = (merge & MERGE_IN_FRAMES) != 0
    n_kept = 0
    n_other = 0
    if select:
        for q in range(K):
            a, b = pairs[q, 0], pairs[q, 1]
            if (exact[a] or exact[b]) and not (packed[a] and packed[b]):
                return np.empty((0, NUM_POINT_VALUES)), 0, -1, 0
    # One float scratch, in views (one allocation, not eight): the answer
    # res, touch, a curved primitive's box lo/hi, the pair's pose in M
    # (Rm, tm), its out row ov, and mesh_kernels' scratch cand_d2 (with
    # cand_k: the nearest-triangle candidates and stacks).
    sf = np.empty(45 + _SCRATCH)
    res, touch, lo, hi = sf[0:10], sf[10:16], sf[16:19], sf[19:22]
    Rm, tm, ov, cand_d2 = sf[22:31].reshape((3, 3)), sf[31:34], sf[34:45], sf[45:]
    for j in range(6):
        touch[j] = 0.0
    cand_k = np.empty(_SCRATCH, dtype=np.int64)
    buf = np.empty((16 if collect else 0, NUM_POINT_VALUES))
    nbuf = 0
    for q in range(K):
        a, b = pairs[q, 0], pairs[q, 1]
        if exact[a]:
            m, o = a, b
        elif exact[b]:
            m, o = b, a
        else:                        # a merged query's pair without an exact mesh
            if select:
                picked[K + n_other, 0] = a
                picked[K + n_other, 1] = b
                n_other += 1
            continue
        # R_MO = R_WM^T R_WO, p_MO = R_WM^T (p_WO − p_WM).
        for i in range(3):
            for j in range(3):
                Rm[i, j] = (R[m, 0, i] * R[o, 0, j] + R[m, 1, i] * R[o, 1, j]
                            + R[m, 2, i] * R[o, 2, j])
            tm[i] = (R[m, 0, i] * (p[o, 0] - p[m, 0]) + R[m, 1, i] * (p[o, 1] - p[m, 1])
                     + R[m, 2, i] * (p[o, 2] - p[m, 2]))
        hinted = depths and mesh[o] >= 0
        status, crossings = _answer_in_m(m, o, Rm, tm, kind, params, mesh, max_distance, depths,
                                         tri, pseudo, tri_id, balls, node_f, node_i, obbs,
                                         vertices, normals, mesh_i, mesh_f, res, touch, lo, hi,
                                         cand_k, cand_d2, hinted and hint[m] == o)
        if hinted:                  # surfaces crossing: the traversal found contact
            if status == OVERLAP and crossings.shape[0] > 0:
                hint[m] = o
            elif hint[m] == o:
                hint[m] = -1
        first = nbuf
        if status == OVERLAP and depths:
            if mesh[o] >= 0:
                buf, nbuf = mesh_mesh_depth(mesh[m], mesh[o], Rm, tm, params[o], kind[o] == BOX,
                                            touch, crossings, tri, pseudo, tri_id, node_f,
                                            node_i, vertices, faces, normals, vadj_ptr, vadj,
                                            comp, comp_rep, mesh_i, mesh_f, res, collect, q, buf,
                                            nbuf, cand_k, cand_d2)
            else:
                buf, nbuf = curved_depth(mesh[m], kind[o], params[o, 0], params[o, 1],
                                         params[o, 2], Rm, tm, lo, hi, touch, tri, pseudo,
                                         tri_id, node_f, node_i, vertices, faces, normals,
                                         mesh_i, mesh_f, res, collect, q, buf, nbuf, cand_k,
                                         cand_d2)
            status = TOUCHING
        for j in range(10):
            ov[j] = np.nan
        ov[10] = status
        if status == FARTHER or status == OVERLAP:
            if want_out:
                for j in range(NUM_EXACT_VALUES):
                    out[q, j] = ov[j]
            if want_keep:
                keep[q] = False
            if select and status == OVERLAP:    # no depth asked: selected, NaN values
                for j in range(10):
                    values[n_kept, j] = np.nan
                picked[n_kept, 0] = a
                picked[n_kept, 1] = b
                n_kept += 1
            continue
        ov[0] = res[0]
        for i in range(3):
            cm = R[m, i, 0] * res[1] + R[m, i, 1] * res[2] + R[m, i, 2] * res[3] + p[m, i]
            co = R[m, i, 0] * res[4] + R[m, i, 1] * res[5] + R[m, i, 2] * res[6] + p[m, i]
            n = R[m, i, 0] * res[7] + R[m, i, 1] * res[8] + R[m, i, 2] * res[9]
            if m == a:
                ov[1 + i], ov[4 + i], ov[7 + i] = cm, co, n
            else:
                ov[1 + i], ov[4 + i], ov[7 + i] = co, cm, -n
        if want_out:
            for j in range(NUM_EXACT_VALUES):
                out[q, j] = ov[j]
        if merge != 0:              # into the pair query's values (docstring)
            if (status != TOUCHING) if negate else ov[0] > max_distance:
                if want_keep:
                    keep[q] = False
            else:
                values[q, 0] = (-ov[0] + 0.0) if negate else ov[0]
                for i in range(3):
                    if in_frames:
                        values[q, 1 + i] = (R[a, 0, i] * (ov[1] - p[a, 0])
                                            + R[a, 1, i] * (ov[2] - p[a, 1])
                                            + R[a, 2, i] * (ov[3] - p[a, 2]))
                        values[q, 4 + i] = (R[b, 0, i] * (ov[4] - p[b, 0])
                                            + R[b, 1, i] * (ov[5] - p[b, 1])
                                            + R[b, 2, i] * (ov[6] - p[b, 2]))
                    else:
                        values[q, 1 + i] = ov[1 + i]
                        values[q, 4 + i] = ov[4 + i]
                    values[q, 7 + i] = ov[7 + i]
                if select:          # compacted: row n_kept ≤ q holds no kept pair
                    for j in range(10):
                        values[n_kept, j] = values[q, j]
                    picked[n_kept, 0] = a
                    picked[n_kept, 1] = b
                    n_kept += 1
        for r in range(first, nbuf):        # candidates: M's frame -> W, A first
            cm0, cm1, cm2 = buf[r, 2], buf[r, 3], buf[r, 4]
            co0, co1, co2 = buf[r, 5], buf[r, 6], buf[r, 7]
            for i in range(3):
                cm = R[m, i, 0] * cm0 + R[m, i, 1] * cm1 + R[m, i, 2] * cm2 + p[m, i]
                co = R[m, i, 0] * co0 + R[m, i, 1] * co1 + R[m, i, 2] * co2 + p[m, i]
                if m == a:
                    buf[r, 2 + i], buf[r, 5 + i] = cm, co
                else:
                    buf[r, 2 + i], buf[r, 5 + i] = co, cm
    return buf, nbuf, n_kept, n_other

