"""General convex solver over support functions (driver of gjk_epa.py).

Used for the shape pairs without a closed form (Ellipsoid, Cylinder and
Convex combinations). One pair at a time; every routine works in the world
frame W on two SupportBody objects (a shape's support function, its pose and,
for polytopes, its vertices, facet normals and edge directions).

Signed distance φ between convex A and B is computed on their *cores* (a
Sphere is a point and a Capsule a segment, swept by a ball of radius r):
φ = φ_core − r_A − r_B, witnesses shifted by the radii along the normal.

* Separated cores: GJK, then alternating exact projections onto the two
  surfaces (point_distance.py) that make the witnesses and the normal exact
  at vertex/smooth contacts. The answer is certified: the bodies' gap along
  the normal must be positive (else GJK stalled on a sliver and the pair is
  treated as overlapping). At (near) contact the normal comes from the
  surfaces' normals, picking the one with the best separating gap.
* Overlapping cores, both polytopes (Box, Convex, segment): the separating
  axis theorem (exact).
* Overlapping cores with a curved shape: EPA to 1e-13·scale; if it stalls
  (a continuum of optimal directions), a local Nelder–Mead refinement of the
  overlap over directions.
* Penetration witnesses: the better aligned (with −depth·nhat) of EPA's
  closest-facet points moved onto the surfaces and the touching points found
  by GJK after separating B along nhat by depth + 1e-6·scale.
* Finally Ca, Cb are centred so that p_WCa − p_WCb = φ·nhat_BA_W exactly.

The result is a minimum-translation signed distance in every case, with a
unit normal nhat_BA_W even at exactly zero distance.
"""
from __future__ import annotations

import math

import numpy as np

from tests.scenegraph.proximity.numpy_kernels.gjk_epa import epa, gjk, sat_polytopes
from scenegraph.proximity.shape_data import ShapeData, batched_support_G

__all__ = ["SupportBody", "gjk", "solve_pair", "sat_polytopes", "epa"]


class SupportBody:
    """A convex body in W: support function plus polytope data if any.

    data: the geometry's ShapeData; R_WG (3, 3), p_WG (3,) its pose [m].
    With core=True, Spheres and Capsules are reduced to their centre point and
    axis segment (`margin` then holds the radius).
    """

    def __init__(self, data: ShapeData, R_WG: np.ndarray, p_WG: np.ndarray, core: bool = True):
        self.data = data
        self.R = np.asarray(R_WG, dtype=float)
        self.p = np.asarray(p_WG, dtype=float)
        kind = data.kind
        self.margin = float(data.params[0]) if core and kind in ("Sphere", "Capsule") else 0.0
        self.core = core
        self.scale = float(data.size)
        self.vertices = None  # (K, 3) in W for polytopes (incl. point/segment cores)
        self.face_normals = np.zeros((0, 3))
        self.edge_dirs = np.zeros((0, 3))
        if kind == "Convex":
            self.vertices = data.hull.vertices @ self.R.T + self.p
            self.face_normals = data.hull.plane_normals @ self.R.T
            self.edge_dirs = data.edge_dirs @ self.R.T
        elif kind == "Box":
            h = data.params
            s = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
            self.vertices = (s * h) @ self.R.T + self.p
            self.face_normals = self.R.T.copy()
            self.edge_dirs = self.R.T.copy()
        elif core and kind == "Capsule":
            ax = self.R[:, 2] * data.params[1]
            self.vertices = np.array([self.p - ax, self.p + ax])
            self.edge_dirs = self.R[:, 2].reshape(1, 3).copy()
        elif core and kind == "Sphere":
            self.vertices = self.p.reshape(1, 3).copy()
        self.is_polytope = self.vertices is not None
        self._params = np.asarray(data.params, dtype=float).reshape(1, 3)

    def support(self, u_W: np.ndarray) -> np.ndarray:
        """The point (3,) of the body (core) maximising u_W·x, in W."""
        if self.vertices is not None:
            return self.vertices[int(np.argmax(self.vertices @ u_W))]
        u_G = self.R.T @ u_W
        s_G = batched_support_G(self.data.kind, self._params, u_G.reshape(1, 3), self.core)[0]
        return self.R @ s_G + self.p

    def support_many(self, U_W: np.ndarray) -> np.ndarray:
        """Support points (M, 3) for M directions (M, 3)."""
        if self.vertices is not None:
            return self.vertices[np.argmax(U_W @ self.vertices.T, axis=1)]
        U_G = U_W @ self.R
        s_G = batched_support_G(self.data.kind, np.broadcast_to(self._params, U_G.shape),
                                U_G, self.core)
        return s_G @ self.R.T + self.p


# ---------------------------------------------------------------- driver


def _refine_penetration(A, B, depth, nhat, scale):
    """Local minimisation of the overlap h_B(n) + h_A(−n) over unit n near
    nhat (Nelder–Mead on the tangent plane, restarted at shrinking scales),
    for the rare cases where EPA stops before its tolerance (a continuum of
    optimal directions). Returns an improved (depth, nhat) or the input."""
    from scipy.optimize import minimize

    def overlap(u):
        u = u / math.sqrt(u @ u)
        return float(u @ B.support(u) - u @ A.support(-u))

    step = 1e-2
    while step > 1e-12:
        t1 = np.cross(nhat, np.eye(3)[int(np.argmin(np.abs(nhat)))])
        t1 /= np.linalg.norm(t1)
        t2 = np.cross(nhat, t1)
        f = lambda x, n=nhat: overlap(n + x[0] * t1 + x[1] * t2)  # noqa: E731
        r = minimize(f, np.zeros(2), method="Nelder-Mead",
                     options=dict(initial_simplex=[[0, 0], [step, 0], [0, step]],
                                  xatol=step * 1e-3, fatol=0.0, maxiter=150))
        if r.fun < depth:
            v = nhat + r.x[0] * t1 + r.x[1] * t2
            depth, nhat = float(r.fun), v / np.linalg.norm(v)
        step *= 0.01
    return depth, nhat


def _witnesses_at(A, B, depth, nhat, scale):
    """Points (a on A, b on B) of a penetration of `depth` along nhat (B→A)."""
    eps = 1e-6 * scale
    shift = (depth + eps) * nhat
    Bs = _Shifted(B, -shift)
    r = gjk(A, Bs, scale, v0=-nhat)
    a, b = _polish_separated(A, Bs, r.a, r.b, scale)
    return a, b + shift


class _Shifted:
    """A SupportBody translated by a vector (for the witness search)."""

    def __init__(self, body, offset):
        self.body, self.offset = body, offset
        self.p = body.p + offset
        self.data, self.R, self.core = body.data, body.R, body.core
        self.vertices = None if body.vertices is None else body.vertices + offset

    def support(self, u):
        return self.body.support(u) + self.offset


def _nearest(body: SupportBody, p_W: np.ndarray):
    """(nearest point (3,), outward unit gradient (3,) or None) of the body's
    (core's) surface to p_W, exact (point_distance.py conventions at ties)."""
    from scenegraph.proximity import point_distance as pd

    kind, P = body.data.kind, body.data.params
    if body.core and kind in ("Sphere", "Capsule"):
        if kind == "Sphere":
            q = body.p.copy()
        else:
            a, b = body.vertices
            d = b - a
            t = min(max(((p_W - a) @ d) / (d @ d), 0.0), 1.0)
            q = a + t * d
        v = p_W - q
        nv = math.sqrt(v @ v)
        return q, (v / nv if nv > 0.0 else None)
    x = (body.R.T @ (p_W - body.p)).reshape(1, 3)
    if kind == "Box":
        _, n, g = pd.signed_distance_to_box(2.0 * P, x)
    elif kind == "Cylinder":
        _, n, g = pd.signed_distance_to_cylinder(P[0], 2.0 * P[1], x)
    elif kind == "Ellipsoid":
        _, n, g = pd.signed_distance_to_ellipsoid(P, x)
    elif kind == "Convex":
        _, n, g = pd.signed_distance_to_convex(body.data.hull, x)
    elif kind == "Sphere":
        _, n, g = pd.signed_distance_to_sphere(P[0], x)
    else:  # pragma: no cover - a capsule is always cored here
        raise ValueError(kind)
    return body.R @ n[0] + body.p, body.R @ g[0]


def _project(body: SupportBody, p_W: np.ndarray) -> np.ndarray:
    """Nearest point of the body (core) to a point p_W, exact."""
    return _nearest(body, p_W)[0]


def _touching_normal(A, B, a, b, extra=()):
    """Normal nhat_BA at a (near) contact a ≈ b: among B's outward normal at
    a, −(A's outward normal at b) and `extra`, the direction with the largest
    projection gap (the best separating plane; the gap is ≈ 0 for the right
    one and clearly negative for a wrong one)."""
    gB = _nearest(B, a)[1]  # B's outward normal: from B towards A
    gA = _nearest(A, b)[1]  # A's outward normal: from A towards B
    cands = ([] if gB is None else [gB]) + ([] if gA is None else [-gA])
    cands += [np.asarray(e, float) for e in extra if e is not None]
    if not cands:
        return np.array([0.0, 0.0, 1.0])
    return max(cands, key=lambda n: float(-(A.support(-n) @ -n) - B.support(n) @ n))


def _polish_separated(A, B, a, b, scale, iterations=60):
    """Alternating exact projections from a GJK pair: never increases |a − b|
    and makes the pair (and its direction) exact at vertex/smooth contacts."""
    d = math.sqrt((a - b) @ (a - b))
    for _ in range(iterations):
        b2 = _project(B, a)
        a2 = _project(A, b2)
        d2 = math.sqrt((a2 - b2) @ (a2 - b2))
        if not d2 <= d * (1.0 + 1e-15):
            break
        moved = math.sqrt((a2 - a) @ (a2 - a) + (b2 - b) @ (b2 - b))
        a, b, d = a2, b2, d2
        if moved <= 1e-15 * scale:
            break
    return a, b


def solve_pair(A: SupportBody, B: SupportBody):
    """Minimum-translation signed distance of two cored bodies.

    Returns (φ, p_WCa, p_WCb, nhat_BA_W) with margins applied:
    p_WCa − p_WCb = φ·nhat_BA_W (to rounding).
    """
    scale = max(1e-300, A.scale, B.scale)
    r = gjk(A, B, scale)
    overlap = r.intersecting
    if not overlap:
        a, b = _polish_separated(A, B, r.a, r.b, scale)
        v = a - b
        phi_core = math.sqrt(v @ v)
        if phi_core > 1e-11 * scale:
            nhat = v / phi_core
            # Certificate: the bodies' gap along nhat must be positive (GJK can
            # stall on slivers; then the pair really overlaps).
            overlap = float(nhat @ A.support(-nhat) - nhat @ B.support(nhat)) < -1e-12 * scale
            if not overlap and A.is_polytope and B.is_polytope:
                # Where a separating axis realises the distance (face–vertex,
                # edge–edge) it is the exact, well-conditioned normal.
                sep, n_sat = sat_polytopes(A, B)
                if n_sat is not None and abs(sep - phi_core) <= 1e-12 * scale:
                    nhat = n_sat
        else:
            # At (near) contact a − b has no direction: use the surfaces'.
            nhat = _touching_normal(A, B, a, b)
            phi_core = float(v @ nhat)
            overlap = float(nhat @ A.support(-nhat) - nhat @ B.support(nhat)) < -1e-9 * scale
    if overlap and A.is_polytope and B.is_polytope:
        phi_core, nhat = sat_polytopes(A, B)
        depth = max(-phi_core, 0.0)
        a, b = _witnesses_at(A, B, depth, nhat, scale)
        phi_core = -depth
    elif overlap:
        Wp, Ap, Bp = r.simplex
        out = epa(A, B, scale, list(zip(Wp, Ap, Bp)))
        if out is None:  # the origin is on ∂C to rounding: a contact
            a, b = _project(A, r.a), _project(B, r.b)
            nhat = _touching_normal(A, B, a, b)
            depth = 0.0
        else:
            depth, nhat, lower, a, b = out
            if depth - lower > 1e-11 * scale:  # EPA stopped early
                d2, n2 = _refine_penetration(A, B, depth, nhat, scale)
                if d2 < depth:
                    depth, nhat = d2, n2
                    a, b = _witnesses_at(A, B, depth, nhat, scale)
            # Two witness candidates, both moved onto the surfaces: EPA's
            # closest-facet points and the touching points after separating
            # along nhat; keep the pair better aligned with −depth·nhat.
            cands = [(_project(A, a), _project(B, b)), _witnesses_at(A, B, depth, nhat, scale)]
            a, b = min(cands, key=lambda ab: float(np.linalg.norm(ab[0] - ab[1] + depth * nhat)))
        phi_core = -depth
    mid = 0.5 * (a + b)
    a = mid + 0.5 * phi_core * nhat
    b = mid - 0.5 * phi_core * nhat
    phi = phi_core - A.margin - B.margin
    return phi, a - A.margin * nhat, b + B.margin * nhat, nhat
