"""A slow, obvious oracle for pair answers: the signed distance of two convex shapes as the
maximum over directions of the support gap (refined from a Fibonacci sphere of starts),
and the half-space pairs in closed form. The dispatch tests compare the compiled answers
with it; test_pair_oracle.py checks the oracle itself."""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize


def _sgn(x):
    return np.where(x < 0.0, -1.0, 1.0)


def _support_G(shape: dict, U: np.ndarray) -> np.ndarray:
    t = shape["type"]
    if t == "Sphere":
        return shape["radius"] * U / np.linalg.norm(U, axis=1, keepdims=True)
    if t == "Box":
        h = np.array([shape["width"], shape["depth"], shape["height"]]) / 2.0
        return h * _sgn(U)
    if t == "Capsule":
        s = shape["radius"] * U / np.linalg.norm(U, axis=1, keepdims=True)
        s[:, 2] += shape["length"] / 2.0 * _sgn(U[:, 2])
        return s
    if t == "Cylinder":
        rxy = np.hypot(U[:, 0], U[:, 1])
        radial = rxy > 1e-280  # below: denormal rounding, use the cap centre
        safe = np.where(radial, rxy, 1.0)
        r = np.where(radial, shape["radius"], 0.0)
        return np.c_[r * (U[:, 0] / safe), r * (U[:, 1] / safe),
                     shape["length"] / 2.0 * _sgn(U[:, 2])]
    if t == "Ellipsoid":
        e2 = np.array([shape["a"], shape["b"], shape["c"]]) ** 2
        Mu = e2 * U
        return Mu / np.sqrt((Mu * U).sum(axis=1))[:, None]
    if t in ("Convex", "Mesh"):
        V = np.asarray(shape["vertices"], dtype=float)
        return V[np.argmax(U @ V.T, axis=1)]
    raise ValueError(f"oracle: no support function for {t}")


class OracleBody:
    """A shape record {"type": ..., params} posed at (R_WG, p_WG) in W."""

    def __init__(self, shape: dict, R_WG, p_WG):
        self.shape = shape
        self.R = np.asarray(R_WG, dtype=float)
        self.p = np.asarray(p_WG, dtype=float)
        if shape["type"] in ("Convex", "Mesh"):
            self._V_W = np.asarray(shape["vertices"], dtype=float) @ self.R.T + self.p

    def h1(self, u: np.ndarray) -> float:
        """Support value for one direction u (3,) (any length), fast path."""
        t = self.shape["type"]
        if t in ("Convex", "Mesh"):
            return float((self._V_W @ u).max())
        x, y, z = self.R.T @ u
        s = self.shape
        if t == "Sphere":
            v = s["radius"] * np.sqrt(x * x + y * y + z * z)
        elif t == "Box":
            v = (s["width"] * abs(x) + s["depth"] * abs(y) + s["height"] * abs(z)) / 2.0
        elif t == "Capsule":
            v = s["radius"] * np.sqrt(x * x + y * y + z * z) + s["length"] / 2.0 * abs(z)
        elif t == "Cylinder":
            v = s["radius"] * np.hypot(x, y) + s["length"] / 2.0 * abs(z)
        elif t == "Ellipsoid":
            v = np.sqrt((s["a"] * x) ** 2 + (s["b"] * y) ** 2 + (s["c"] * z) ** 2)
        else:
            raise ValueError(t)
        return float(v + self.p @ u)

    def support(self, U_W: np.ndarray) -> np.ndarray:
        U = np.atleast_2d(U_W)
        return _support_G(self.shape, U @ self.R) @ self.R.T + self.p

    def h(self, U_W: np.ndarray) -> np.ndarray:
        U = np.atleast_2d(U_W)
        return (U * self.support(U)).sum(axis=1)

    def residual(self, p_W: np.ndarray) -> np.ndarray:
        """Implicit function g(p) [m-ish]: < 0 inside, 0 on the surface, > 0
        outside, for points (N, 3) in W."""
        q = (np.atleast_2d(p_W) - self.p) @ self.R
        s, t = self.shape, self.shape["type"]
        if t == "Sphere":
            return np.linalg.norm(q, axis=1) - s["radius"]
        if t == "Box":
            h = np.array([s["width"], s["depth"], s["height"]]) / 2.0
            return (np.abs(q) - h).max(axis=1)
        if t == "Capsule":
            z = np.clip(q[:, 2], -s["length"] / 2.0, s["length"] / 2.0)
            return np.sqrt(q[:, 0] ** 2 + q[:, 1] ** 2 + (q[:, 2] - z) ** 2) - s["radius"]
        if t == "Cylinder":
            return np.maximum(np.hypot(q[:, 0], q[:, 1]) - s["radius"],
                              np.abs(q[:, 2]) - s["length"] / 2.0)
        if t == "Ellipsoid":
            e = np.array([s["a"], s["b"], s["c"]])
            return (np.linalg.norm(q / e, axis=1) - 1.0) * e.min()
        if t == "HalfSpace":
            return q[:, 2]
        if t in ("Convex", "Mesh"):
            from scipy.spatial import ConvexHull

            hull = ConvexHull(np.asarray(s["vertices"], dtype=float))
            return (q @ hull.equations[:, :3].T + hull.equations[:, 3]).max(axis=1)
        raise ValueError(t)


def phi(A: OracleBody, B: OracleBody, U: np.ndarray) -> np.ndarray:
    """Projection gaps φ(u) (M,) for directions U (M, 3) (normalised here)."""
    U = np.atleast_2d(U)
    U = U / np.linalg.norm(U, axis=1, keepdims=True)
    return -A.h(-U) - B.h(U)


def fibonacci_sphere(M: int) -> np.ndarray:
    i = np.arange(M) + 0.5
    z = 1.0 - 2.0 * i / M
    r = np.sqrt(1.0 - z * z)
    th = np.pi * (1.0 + 5.0 ** 0.5) * i
    return np.c_[r * np.cos(th), r * np.sin(th), z]


def _tangent(u):
    a = np.eye(3)[np.argmin(np.abs(u))]
    t1 = np.cross(u, a)
    t1 /= np.linalg.norm(t1)
    return t1, np.cross(u, t1)


def _refine(A, B, u0):
    u = u0 / np.linalg.norm(u0)
    best = phi(A, B, u)[0]
    step = 2e-2
    while step > 1e-13:
        t1, t2 = _tangent(u)

        def f(x, u=u, t1=t1, t2=t2):
            v = u + x[0] * t1 + x[1] * t2
            v = v / np.sqrt(v @ v)
            return A.h1(-v) + B.h1(v)

        sim = np.array([[0.0, 0.0], [step, 0.0], [0.0, step]])
        r = minimize(f, np.zeros(2), method="Nelder-Mead",
                     options=dict(initial_simplex=sim, xatol=step * 1e-3, fatol=0.0,
                                  maxiter=150))
        if -r.fun > best:
            v = u + r.x[0] * t1 + r.x[1] * t2
            u, best = v / np.linalg.norm(v), -r.fun
        step *= 0.01
    return best, u


def oracle_signed_distance(A: OracleBody, B: OracleBody, starts: int = 2, samples: int = 1000,
                           extra_starts=()):
    """(φ*, nhat_BA (3,)): the maximum of φ over unit directions.

    extra_starts: additional start directions (e.g. a candidate answer).
    """
    U = fibonacci_sphere(samples)
    f = phi(A, B, U)
    chosen = []
    for i in np.argsort(-f)[: starts * 30]:
        if all(U[i] @ U[j] < 0.98 for j in chosen):
            chosen.append(i)
        if len(chosen) >= starts:
            break
    best = (-np.inf, None)
    for u0 in [U[i] for i in chosen] + [np.asarray(s, float) for s in extra_starts]:
        fb, ub = _refine(A, B, u0)
        if fb > best[0]:
            best = (fb, ub)
    return best


def halfspace_oracle(X: OracleBody, H: OracleBody):
    """Exact signed distance of a bounded X (as A) and a half space H (as B):
    the gap of X's support point in −n above H's plane."""
    n = H.R[:, 2]
    s = X.support(-n[None, :])[0]
    return float(n @ (s - H.p)), n
