"""Derivatives of the nearest point and the gradient of a point query, of the
witnesses and normal of the pairs that reduce to one (a Sphere against a shape), and of
pairs of the covered shapes where each witness is the other's projection, for
QueryObject_[AutoDiffXd] (scenegraph.autodiff_scene_graph).

In the geometry frame G, the float query maps the query point q = p_GQ to the nearest
point p_GN(q) and the unit gradient grad_G(q) (scenegraph.proximity.point_distance).
This module gives, per shape, their Jacobians w.r.t. q in closed form:

    D = ∂p_GN/∂p_GQ (3, 3),        H = ∂grad_G/∂p_GQ (3, 3),

evaluated on the branch the float query took (the face, edge or cap that holds N), so a
value and its derivatives always belong together. With the world pose X_WG = [R, p] and
its derivatives per variable z_k (∂R, ∂p) and Q's (∂p_WQ):

    ∂p_GQ = ∂Rᵀ (p_WQ − p) + Rᵀ (∂p_WQ − ∂p)
    ∂p_GN = D ∂p_GQ,     ∂grad_W = ∂R grad_G + R H ∂p_GQ          (grad_W = R grad_G)

A Sphere S (radius r, centre So) against a shape O is Drake's point query of So in O:
φ = φ_O(So) − r, witness on O = p_ON, nhat = ±grad_W, witness on S = ∓r R_WSᵀ grad_W.

Shapes covered: Sphere, HalfSpace, Box, Capsule (Drake's AutoDiffXd point query), plus
Cylinder, Ellipsoid, Convex and Mesh measured as its convex hull (an extension; a hull's
D projects onto the facet, edge or vertex holding N, its planes through N). A Mesh
opted in to exact non-convex queries is not covered. Where the nearest point is not
unique (a sphere's centre, a capsule's or cylinder's axis, a box's edges and medial
planes), the float query picks a branch (a constant direction, the first face); its
derivatives are those of that branch, as pydrake's AutoDiffXd gives. An Ellipsoid whose branch is singular
(its centre region, where the Lagrange system has no unique solution) has none:
`point_jacobians` reports ok = False there and the caller keeps float arrays.
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.point_distance import (
    relative_tolerance, signed_distance_to_box, signed_distance_to_capsule,
    signed_distance_to_convex, signed_distance_to_cylinder, signed_distance_to_ellipsoid,
    signed_distance_to_halfspace, signed_distance_to_sphere)
from scenegraph.proximity.shape_data import shape_data_from_shape
from scenegraph.shapes import (Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh,
                               Sphere)

__all__ = ["point_jacobians", "supports_point_jacobians", "geometry_pose_derivatives",
           "sphere_pair_derivatives", "projection_pair_derivatives",
           "point_query_derivatives"]

_I3 = np.eye(3)


def _unit_jacobian(n: np.ndarray, length: np.ndarray, unique: np.ndarray) -> np.ndarray:
    """(N, k, k) ∂(u/|u|)/∂u = (I − n nᵀ)/|u| for unit n = u/|u| (N, k) of length |u| (N,),
    zero where not `unique` (the float query's constant fallback direction)."""
    safe = np.where(unique, length, 1.0)
    J = (np.eye(n.shape[1]) - np.einsum("ki,kj->kij", n, n)) / safe[:, None, None]
    J[~unique] = 0.0
    return J


def _sphere(shapes: list, q):
    r = np.array([shape.radius() for shape in shapes])
    _, p_GN, grad = signed_distance_to_sphere(r, q)
    rho = np.sqrt((q * q).sum(axis=1))
    H = _unit_jacobian(grad, rho, rho > relative_tolerance(r))
    return p_GN, grad, r[:, None, None] * H, H, np.ones(len(q), bool)


def _halfspace(shapes: list, q):
    _, p_GN, grad = signed_distance_to_halfspace(q)
    D = np.broadcast_to(np.diag([1.0, 1.0, 0.0]), (len(q), 3, 3)).copy()
    return p_GN, grad, D, np.zeros((len(q), 3, 3)), np.ones(len(q), bool)


def _box_jacobians(h: np.ndarray, q: np.ndarray, p_N: np.ndarray, grad: np.ndarray):
    """(D, H) (N, k, k) of scenegraph.proximity.point_distance._box_in_frame's branch at
    q (N, k), h (N, k) half sizes, its answer p_N, grad (N, k)."""
    n, k = q.shape
    tol = relative_tolerance(h)
    a = np.abs(q)
    outside = a > h + tol
    boundary = ~outside & (a >= h - tol)
    any_out = outside.any(axis=1)
    inside = ~any_out & ~boundary.any(axis=1)
    free = ~(outside | boundary)                        # coordinates N copies from q
    # Inside: N moves on the chosen face (the axis where grad is non-zero).
    face = np.argmax(np.abs(grad), axis=1)
    free[inside] = True
    free[inside, face[inside]] = False
    D = np.zeros((n, k, k))
    D[:, np.arange(k), np.arange(k)] = free
    H = np.zeros((n, k, k))
    if any_out.any():
        v = q[any_out] - p_N[any_out]
        dist = np.sqrt((v * v).sum(axis=1))
        g = grad[any_out]
        J = (np.eye(k) - np.einsum("ki,kj->kij", g, g)) / dist[:, None, None]
        H[any_out] = J @ (np.eye(k) - D[any_out])
    return D, H


def _box(shapes: list, q):
    size = np.array([shape.size() for shape in shapes], dtype=float)
    h = size / 2.0
    _, p_GN, grad = signed_distance_to_box(size, q)
    D, H = _box_jacobians(h, q, p_GN, grad)
    return p_GN, grad, D, H, np.ones(len(q), bool)


def _radius_length(shapes: list) -> tuple:
    """(radius (N,), length (N,)) [m] of capsules or cylinders."""
    rl = np.array([(shape.radius(), shape.length()) for shape in shapes], dtype=float)
    return rl[:, 0], rl[:, 1]


def _capsule(shapes: list, q):
    r, length = _radius_length(shapes)
    hl = length / 2.0
    _, p_GN, grad = signed_distance_to_capsule(r, length, q)
    z = q[:, 2]
    cap = (z >= hl) | (z <= -hl)
    rel = q.copy()
    rel[:, 2] = np.where(cap, z - np.where(z >= hl, hl, -hl), 0.0)
    rho = np.sqrt((rel * rel).sum(axis=1))
    Hs = _unit_jacobian(grad, rho, rho > relative_tolerance(r))
    P = np.where(cap[:, None, None], _I3, np.diag([1.0, 1.0, 0.0]))   # ∂rel/∂q
    H = Hs @ P
    D = r[:, None, None] * H
    D[~cap, 2, 2] += 1.0                             # N's height follows Q's on the spine
    return p_GN, grad, D, H, np.ones(len(q), bool)


def _cylinder(shapes: list, q):
    r, length = _radius_length(shapes)
    hl = length / 2.0
    _, p_GN, grad = signed_distance_to_cylinder(r, length, q)
    n = len(q)
    r_Q = np.sqrt(q[:, 0] ** 2 + q[:, 1] ** 2)
    near_axis = r_Q < relative_tolerance(r)
    v = np.where(near_axis[:, None], [1.0, 0.0], q[:, :2] / np.where(near_axis, 1.0, r_Q)[:, None])
    # The float query is a 2-D box in (r_Q, z); rebuild its answer to take its branch.
    p_B = np.stack([r_Q, q[:, 2]], axis=1)
    p_BN = np.stack([np.einsum("ki,ki->k", p_GN[:, :2], v), p_GN[:, 2]], axis=1)
    grad_B = np.stack([np.einsum("ki,ki->k", grad[:, :2], v), grad[:, 2]], axis=1)
    h = np.stack([r, hl], axis=1)
    D_B, H_B = _box_jacobians(h, p_B, p_BN, grad_B)
    Jb = np.zeros((n, 2, 3))                          # ∂(r_Q, z)/∂q
    Jb[:, 0, :2] = v
    Jb[:, 1, 2] = 1.0
    Jv = np.zeros((n, 2, 3))                          # ∂v/∂q (the branch's: 0 on the axis)
    Jv[:, :, :2] = _unit_jacobian(v, r_Q, ~near_axis)
    dB, hB = D_B @ Jb, H_B @ Jb                       # (n, 2, 3)
    D = np.empty((n, 3, 3))
    H = np.empty((n, 3, 3))
    D[:, :2] = v[:, :, None] * dB[:, None, 0] + p_BN[:, 0, None, None] * Jv
    D[:, 2] = dB[:, 1]
    H[:, :2] = v[:, :, None] * hB[:, None, 0] + grad_B[:, 0, None, None] * Jv
    H[:, 2] = hB[:, 1]
    # On the axis with N radially free (a cap is nearest) p_GN's x, y are Q's.
    copy = near_axis & (D_B[:, 0, 0] == 1.0)
    D[copy, :2, :2] = np.eye(2)
    return p_GN, grad, D, H, np.ones(n, bool)


def _ellipsoid(shapes: list, q):
    e = np.array([(shape.a(), shape.b(), shape.c()) for shape in shapes], dtype=float)
    _, p_GN, grad = signed_distance_to_ellipsoid(e, q)
    n = len(q)
    A = 1.0 / (e * e)
    AN = p_GN * A                                    # ∇f/2 of f = Σ N_i²/e_i² − 1
    norm = np.sqrt((AN * AN).sum(axis=1))
    t = np.einsum("ki,ki->k", q - p_GN, AN) / norm ** 2      # q − N = t·A·N
    # Lagrange system F(N, t) = [N + t A N − q; Nᵀ A N − 1] = 0, differentiated in q.
    M = np.zeros((n, 4, 4))
    M[:, :3, :3] = _I3 + t[:, None, None] * A[:, None, :] * _I3
    M[:, :3, 3] = AN
    M[:, 3, :3] = 2.0 * AN
    rhs = np.zeros((n, 4, 3))
    rhs[:, :3] = _I3
    ok = np.linalg.cond(M) < 1e10
    D = np.zeros((n, 3, 3))
    if ok.any():
        D[ok] = np.linalg.solve(M[ok], rhs[ok])[:, :3]
    H = _unit_jacobian(grad, norm, ok) @ (A[:, :, None] * D)   # ∂(AN/|AN|) = (I−ggᵀ)/|AN|·A·∂N
    return p_GN, grad, D, H, ok


def _polytope_projector(normals: np.ndarray) -> np.ndarray:
    """(3, 3) projector onto the directions orthogonal to every row of `normals` (k, 3):
    I − nnᵀ for one facet, t tᵀ along an edge, 0 at a vertex."""
    _, sv, Vt = np.linalg.svd(normals)
    basis = Vt[:int((sv > 1e-9 * sv[0]).sum())]
    return _I3 - basis.T @ basis


def _convex(shapes: list, q):
    n = len(q)
    p_GN, grad = np.empty((n, 3)), np.empty((n, 3))
    D, H = np.zeros((n, 3, 3)), np.zeros((n, 3, 3))
    ok = np.ones(n, bool)
    for i in range(n):
        hull = shape_data_from_shape(shapes[i]).hull
        _, N, g = signed_distance_to_convex(hull, q[i:i + 1])
        p_GN[i], grad[i] = N[0], g[0]
        PN, PB = hull.plane_normals, hull.plane_offsets
        tol = relative_tolerance(hull.size())
        s_Q = q[i] @ PN.T - PB                        # (P,) heights over the planes
        s_N = p_GN[i] @ PN.T - PB
        smax = s_Q.max()
        if smax < -tol:                               # inside: onto the reported facet
            D[i] = _I3 - np.outer(grad[i], grad[i])
            continue
        # On or outside: N moves in the feature (facet, edge, vertex) whose planes hold it.
        hold = np.abs(s_Q if smax <= tol else s_N) <= 1e3 * tol
        if not hold.any():
            ok[i] = False
            continue
        D[i] = _polytope_projector(PN[hold])
        if smax > tol:
            g, dist = grad[i], np.sqrt(((q[i] - p_GN[i]) ** 2).sum())
            H[i] = (_I3 - np.outer(g, g)) / dist @ (_I3 - D[i])
    return p_GN, grad, D, H, ok


_JACOBIANS = {Sphere: _sphere, HalfSpace: _halfspace, Box: _box, Capsule: _capsule,
              Cylinder: _cylinder, Ellipsoid: _ellipsoid, Convex: _convex, Mesh: _convex}


def supports_point_jacobians(shape, properties=None) -> bool:
    """True when `point_jacobians` differentiates the point query of `shape` whose
    proximity properties are `properties`: every covered type, a Mesh only as Drake's
    convex hull (not opted in to exact non-convex queries with ("proximity",
    "exact_mesh"))."""
    if type(shape) is Mesh:
        from scenegraph.proximity.exact_mesh_queries import is_exact_mesh
        return not is_exact_mesh(shape, properties)
    return type(shape) in _JACOBIANS


def point_jacobians(shapes, p_GQ: np.ndarray) -> tuple:
    """(p_GN (N, 3) [m], grad_G (N, 3), D (N, 3, 3), H (N, 3, 3), ok (N,) bool) of the
    float point query of query points p_GQ (N, 3) in G [m] against `shapes` (one shape
    for every point, or a list of N: row i against shapes[i] in its own frame): the
    nearest points and gradients (as point_distance computes them), D = ∂p_GN/∂p_GQ and
    H = ∂grad_G/∂p_GQ on the float query's branch; ok is False where none is computed
    (module docstring).

    Raises:
      KeyError: a shape's type is not covered (see supports_point_jacobians).
    """
    q = np.asarray(p_GQ, float).reshape(-1, 3)
    n = len(q)
    if not isinstance(shapes, (list, tuple)):
        shapes = [shapes] * n
    kinds = [type(shape) for shape in shapes]
    p_GN, grad = np.empty((n, 3)), np.empty((n, 3))
    D, H = np.empty((n, 3, 3)), np.empty((n, 3, 3))
    ok = np.empty(n, bool)
    for kind in set(kinds):
        rows = [i for i, k in enumerate(kinds) if k is kind]
        out = _JACOBIANS[kind]([shapes[i] for i in rows], q[rows])
        for target, value in zip((p_GN, grad, D, H, ok), out):
            target[rows] = value
    return p_GN, grad, D, H, ok


def geometry_pose_derivatives(poses, k: np.ndarray) -> tuple:
    """(dR_WG (K, 3, 3, nz), dp_WG (K, 3, nz) [m]) of the geometries at topology rows
    k (K,), from their frames' derivatives (poses: AutoDiffWorldPoses) and the constant
    X_FG."""
    topology = poses.topology
    f = topology.geometry_frame_index[k]
    dR_WF, R_FG, p_FG = poses.dR_WF[f], topology.R_FG[k], topology.p_FG[k]
    dR = np.einsum("aijz,ajl->ailz", dR_WF, R_FG)
    dp = np.einsum("aijz,aj->aiz", dR_WF, p_FG) + poses.dp_WF[f]
    return dR, dp


def point_query_derivatives(shapes, R_WG, p_WG, dR_WG, dp_WG, p_WQ, dp_WQ) -> tuple:
    """The point query of K points Q against K geometries, with derivatives.

    shapes: one shape or a list of K; R_WG (K, 3, 3), p_WG (K, 3) [m]: the poses;
    dR_WG (K, 3, 3, nz), dp_WG (K, 3, nz): their derivatives; p_WQ (K, 3) [m] and
    dp_WQ (K, 3, nz): the query points in W.
    Returns (p_GN (K, 3), dp_GN (K, 3, nz), grad_W (K, 3), dgrad_W (K, 3, nz), ok (K,)).
    """
    r_GQ = p_WQ - p_WG
    p_GQ = np.einsum("kji,kj->ki", R_WG, r_GQ)
    dp_GQ = (np.einsum("kjiz,kj->kiz", dR_WG, r_GQ)
             + np.einsum("kji,kjz->kiz", R_WG, dp_WQ - dp_WG))
    p_GN, grad_G, D, H, ok = point_jacobians(shapes, p_GQ)
    dp_GN = D @ dp_GQ
    grad_W = np.einsum("kij,kj->ki", R_WG, grad_G)
    dgrad_W = np.einsum("kijz,kj->kiz", dR_WG, grad_G) + R_WG @ (H @ dp_GQ)
    return p_GN, dp_GN, grad_W, dgrad_W, ok


def sphere_pair_derivatives(radius: np.ndarray, others: list, sphere_is_A: np.ndarray,
                            pose_S: tuple, pose_O: tuple) -> dict:
    """Witnesses and normals of K Spheres S against K geometries O, with derivatives, as
    Drake computes the pair from the point query of S's centre So in O.

    radius: (K,) [m] of the spheres; others: K shapes; sphere_is_A: (K,) bool, whether S
    is the pair's A (else O is A and S is B); pose_S, pose_O: (R_WG (K, 3, 3),
    p_WG (K, 3) [m], dR_WG (K, 3, 3, nz), dp_WG (K, 3, nz)).
    Returns {name: (values (K, 3), derivatives (K, 3, nz))} for p_ACa, p_BCb (in A and
    B), nhat_BA_W, p_WCa and p_WCb (in W), and "ok": (K,) bool (False: none computed).
    """
    R_S, p_S, dR_S, dp_S = pose_S
    R_O, p_O, dR_O, dp_O = pose_O
    p_ON, dp_ON, grad_W, dgrad_W, ok = point_query_derivatives(
        list(others), R_O, p_O, dR_O, dp_O, p_S, dp_S)
    r = np.asarray(radius, float)[:, None]
    p_SC = -r * np.einsum("kji,kj->ki", R_S, grad_W)              # S's witness, in S
    dp_SC = -r[:, :, None] * (np.einsum("kjiz,kj->kiz", dR_S, grad_W)
                              + np.einsum("kji,kjz->kiz", R_S, dgrad_W))
    p_WON = np.einsum("kij,kj->ki", R_O, p_ON) + p_O               # O's witness, in W
    dp_WON = np.einsum("kijz,kj->kiz", dR_O, p_ON) + R_O @ dp_ON + dp_O
    p_WSC = p_S - r * grad_W                                       # S's witness, in W
    dp_WSC = dp_S - r[:, :, None] * dgrad_W
    a = np.asarray(sphere_is_A, bool)
    sign = np.where(a, 1.0, -1.0)

    def pick(x_if_A, x_else):
        return np.where(a.reshape((-1,) + (1,) * (x_if_A.ndim - 1)), x_if_A, x_else)

    return {"ok": ok,
            "p_ACa": (pick(p_SC, p_ON), pick(dp_SC, dp_ON)),
            "p_BCb": (pick(p_ON, p_SC), pick(dp_ON, dp_SC)),
            "nhat_BA_W": (sign[:, None] * grad_W, sign[:, None, None] * dgrad_W),
            "p_WCa": (pick(p_WSC, p_WON), pick(dp_WSC, dp_WON)),
            "p_WCb": (pick(p_WON, p_WSC), pick(dp_WON, dp_WSC))}


# Pairs whose witnesses' Jacobians are solved below this condition number of
# (I − M_A M_B); above it the witnesses are not unique (parallel faces) and stay float.
_MAX_CONDITION = 1e8


_POLYTOPES = (Box, Convex, Mesh, HalfSpace)


def _feature_projectors(shapes: list, p_GC: np.ndarray, tol: float) -> tuple:
    """(D (K, 3, 3), on (K,) bool): for K points p_GC (K, 3) [m] on the surfaces of K
    polytopes (Box, Convex, Mesh as its hull, HalfSpace), the projector onto the
    feature holding each (facet: I − nnᵀ, edge: t tᵀ, vertex: 0), its planes being those
    within `tol` [m]; on is False for a point on no plane (not on the surface)."""
    K = len(shapes)
    D, on = np.zeros((K, 3, 3)), np.zeros(K, bool)
    for k, (shape, c) in enumerate(zip(shapes, p_GC)):
        if isinstance(shape, HalfSpace):
            normals = np.array([[0.0, 0.0, 1.0]]) if abs(c[2]) <= tol else np.zeros((0, 3))
        elif isinstance(shape, Box):
            h = np.asarray(shape.size(), float) / 2.0
            held = np.abs(np.abs(c) - h) <= tol
            normals = np.eye(3)[held] if (np.abs(c) <= h + tol).all() else np.zeros((0, 3))
        else:
            hull = shape_data_from_shape(shape).hull
            heights = c @ hull.plane_normals.T - hull.plane_offsets
            normals = (hull.plane_normals[np.abs(heights) <= tol]
                       if heights.max() <= tol else np.zeros((0, 3)))
        if len(normals):
            D[k], on[k] = _polytope_projector(normals), True
    return D, on


def projection_pair_derivatives(shapes_A: list, shapes_B: list, pose_A: tuple,
                                pose_B: tuple, p_ACa: np.ndarray, p_BCb: np.ndarray,
                                distance: np.ndarray, match: float) -> dict:
    """Witnesses and normals of K pairs of shapes with derivatives, by the
    projection-Jacobian route: Ca = proj_A(Cb), Cb = proj_B(Ca) — for a curved shape
    the nearest boundary point (from outside when separated, from inside when
    overlapping), for a polytope (Box, Convex, Mesh's hull, HalfSpace) the projection on
    the affine hull of the feature (vertex, edge, facet) holding its own witness, which
    holds for a vertex deep in a face too — so

        ∂Ca = r_A + M_A ∂Cb,  ∂Cb = r_B + M_B ∂Ca   (in W; M = R D Rᵀ, D = ∂p_GN/∂p_GQ,
        r_G = ∂R p_GC + ∂p + R D (∂Rᵀ (C_other − p) − Rᵀ ∂p)),

    solved as (I − M_A M_B) ∂Ca = r_A + M_A r_B; nhat = (Ca − Cb)/φ,
    ∂nhat = (I − nhat nhatᵀ)(∂Ca − ∂Cb)/φ.

    shapes_A, shapes_B: K shapes each; pose_A, pose_B: (R_WG (K, 3, 3), p_WG (K, 3),
    dR_WG (K, 3, 3, nz), dp_WG (K, 3, nz)); p_ACa, p_BCb: (K, 3) the float query's
    witnesses [m]; distance: (K,) φ [m]; match: the largest difference [m] between the
    witnesses and the projections accepted. Returns the dict of sphere_pair_derivatives,
    "ok" False where the witnesses are not reproduced or not unique (the system is
    singular) or φ = 0.
    """
    R_A, p_A, dR_A, dp_A = pose_A
    R_B, p_B, dR_B, dp_B = pose_B
    distance = np.asarray(distance, float)
    p_WCa = np.einsum("kij,kj->ki", R_A, p_ACa) + p_A
    p_WCb = np.einsum("kij,kj->ki", R_B, p_BCb) + p_B
    ok = distance != 0.0
    parts = []
    for shapes, R, p, dR, dp, p_GC, p_W_other in ((shapes_A, R_A, p_A, dR_A, dp_A, p_ACa, p_WCb),
                                                  (shapes_B, R_B, p_B, dR_B, dp_B, p_BCb, p_WCa)):
        r_GQ = p_W_other - p
        q = np.einsum("kji,kj->ki", R, r_GQ)
        p_GN, _, D, _, found = point_jacobians(list(shapes), q)
        ok &= found & (np.abs(p_GN - p_GC).max(axis=1) <= match)
        # A polytope's witness stays on its own feature (facet, edge, vertex): its D is
        # that feature's projector, valid from inside too (a vertex deep in a face).
        flat = np.array([type(shape) in _POLYTOPES for shape in shapes], dtype=bool)
        if flat.any():
            rows = np.flatnonzero(flat)
            D_f, on = _feature_projectors([shapes[k] for k in rows], p_GC[rows], match)
            # The other witness must project onto this one along the feature's normals.
            off = np.einsum("kij,kj->ki", D_f, q[rows] - p_GC[rows])
            ok[rows] = (distance[rows] != 0.0) & on & (np.abs(off).max(axis=1) <= match)
            if len(parts):                           # B: keep A's verdict
                ok[rows] &= parts[0][2][rows]
            D[rows] = D_f
        RD = R @ D
        M = RD @ R.transpose(0, 2, 1)
        r = (np.einsum("kijz,kj->kiz", dR, p_GC) + dp
             + RD @ (np.einsum("kjiz,kj->kiz", dR, r_GQ) - np.einsum("kji,kjz->kiz", R, dp)))
        parts.append((M, r, ok.copy()))
    (M_A, r_A, _), (M_B, r_B, _) = parts
    S = _I3 - M_A @ M_B
    ok &= np.linalg.cond(S) < _MAX_CONDITION
    S[~ok] = _I3                                        # solvable placeholders, dropped
    dCa = np.linalg.solve(S, r_A + M_A @ r_B)
    dCb = r_B + M_B @ dCa
    phi = np.where(ok, distance, 1.0)[:, None]
    nhat = (p_WCa - p_WCb) / phi
    P = _I3 - np.einsum("ki,kj->kij", nhat, nhat)
    dnhat = P @ (dCa - dCb) / phi[:, :, None]

    def in_frame(R, dR, p, dp, p_WC, dC):         # ∂(Rᵀ (C − p))
        return (np.einsum("kjiz,kj->kiz", dR, p_WC - p)
                + np.einsum("kji,kjz->kiz", R, dC - dp))

    return {"ok": ok, "p_ACa": (p_ACa, in_frame(R_A, dR_A, p_A, dp_A, p_WCa, dCa)),
            "p_BCb": (p_BCb, in_frame(R_B, dR_B, p_B, dp_B, p_WCb, dCb)),
            "nhat_BA_W": (nhat, dnhat), "p_WCa": (p_WCa, dCa), "p_WCb": (p_WCb, dCb)}
