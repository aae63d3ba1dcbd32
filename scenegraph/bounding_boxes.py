"""Axis-aligned and oriented bounding boxes (pydrake's Aabb, Obb, CalcObb and the
ComputeAabb/ObbFor{Triangle,Volume}Mesh functions).

An Aabb in frame H is its centre p_HoBo (3,) [m] and half widths (3,) [m] along Hx,
Hy, Hz; an Obb is its pose X_HB (a RigidTransform: box frame B, axes along the box
edges, origin at the centre) and half widths along Bx, By, Bz.

CalcObb(shape) is the box of the shape in its own frame G (exact for the primitives;
None for a HalfSpace, which is unbounded). For vertex sets (Mesh, Convex and the
Compute*For*Mesh functions; a Mesh or Convex uses its convex hull's vertices) the
box follows Drake's ObbMaker: principal axes of the vertices from Eigen's closed-form
3x3 eigensolver (so the axes and their signs are Drake's), then one line search along
the volume gradient in roll-pitch-yaw. Obb half widths carry Drake's tiny outward
padding.
"""
from __future__ import annotations

import numpy as np

from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.math.rotation_matrix import RotationMatrix
from systems.common.overloads import signatures

__all__ = ["Aabb", "Obb", "CalcObb", "ComputeAabbForTriangleMesh",
           "ComputeAabbForVolumeMesh", "ComputeObbForTriangleMesh", "ComputeObbForVolumeMesh",
           "obb_of_points"]


def _vec3(value, what: str) -> np.ndarray:
    v = np.array(value, dtype=float).reshape(-1)
    if v.shape != (3,) or not np.isfinite(v).all():
        raise ValueError(f"{what} must be 3 finite numbers; got {value!r}")
    return v


_EPS = float(np.finfo(float).eps)


def _boxes_overlap(half_a: np.ndarray, half_b: np.ndarray, R_AB: np.ndarray,
                   p_AB: np.ndarray) -> bool:
    """Separating-axis test of two boxes (half widths, B posed in A), Drake's
    BoxesOverlap with its 1e-6 padding of |R| (conservative: near-touching boxes
    count as overlapping)."""
    abs_R = np.abs(R_AB) + 1e-6
    t = p_AB
    if np.any(np.abs(t) > half_a + abs_R @ half_b):
        return False
    if np.any(np.abs(t @ R_AB) > half_b + half_a @ abs_R):
        return False
    for i in range(3):
        i1, i2 = (i + 1) % 3, (i + 2) % 3
        for j in range(3):
            j1, j2 = (j + 1) % 3, (j + 2) % 3
            if abs(t[i2] * R_AB[i1, j] - t[i1] * R_AB[i2, j]) > (
                    half_a[i1] * abs_R[i2, j] + half_a[i2] * abs_R[i1, j]
                    + half_b[j1] * abs_R[i, j2] + half_b[j2] * abs_R[i, j1]):
                return False
    return True


def _half_space_overlap(center_H, half_width, R_HB, X_CH) -> bool:
    """A box (centre and R_HB in H) overlaps the half space z ≤ 0 of frame C."""
    R_CH = X_CH.rotation().matrix()
    R_CB = R_CH @ R_HB
    clearance = float(np.abs(R_CB[2]) @ half_width)
    height = float(X_CH.translation()[2] + R_CH[2] @ center_H)
    return height <= clearance


def _overlap_dispatch(box_H, other, X_GH, kind):
    """HasOverlap for a box of `kind` (Aabb/Obb) `box_H` against other (Aabb, Obb,
    HalfSpace or Plane) in frame G posed by X_GH, as pydrake's overloads."""
    from scenegraph.plane import Plane
    from scenegraph.shapes import HalfSpace
    X = RigidTransform(X_GH)
    if isinstance(other, HalfSpace):        # X is X_CH, box in H
        return _half_space_overlap(box_H.center(), box_H.half_width(),
                                   box_H.pose().rotation().matrix(), X)
    if isinstance(other, Plane):            # X is X_PH
        return other.BoxOverlaps(box_H.half_width(), X.multiply(box_H.center()),
                                 X.rotation() @ box_H.pose().rotation())
    if isinstance(other, (Aabb, Obb)):      # box_H is a_G here, other is b_H
        X_GA = box_H.pose()
        X_AB = X_GA.InvertAndCompose(X @ other.pose())
        return _boxes_overlap(box_H.half_width(), other.half_width(),
                              X_AB.rotation().matrix(), X_AB.translation())
    raise TypeError(f"{kind}.HasOverlap: unsupported bounding volume "
                    f"{type(other).__name__} (Aabb, Obb, HalfSpace or Plane)")


class Aabb:
    """Axis-aligned box in frame H: centre p_HoBo (3,) and half_width (3,) ≥ 0 [m]."""

    def __init__(self, p_HoBo, half_width):
        self._center = _vec3(p_HoBo, "Aabb: p_HoBo")
        self._half = _vec3(half_width, "Aabb: half_width")
        if np.any(self._half < 0):
            raise RuntimeError(f"Aabb: half_width must be non-negative; got "
                               f"{self._half.tolist()}")

    def center(self) -> np.ndarray:
        """A copy of the centre p_HoBo (3,) [m] in frame H."""
        return self._center.copy()

    def half_width(self) -> np.ndarray:
        """A copy of the (3,) half widths [m] along Hx, Hy, Hz."""
        return self._half.copy()

    def lower(self) -> np.ndarray:
        """The (3,) lowest corner [m] in H (centre − half widths)."""
        return self._center - self._half

    def upper(self) -> np.ndarray:
        """The (3,) highest corner [m] in H (centre + half widths)."""
        return self._center + self._half

    def pose(self) -> RigidTransform:
        """X_HB: identity rotation, translation at the centre."""
        return RigidTransform(self._center)

    def CalcVolume(self) -> float:
        """The volume [m³]."""
        h = self._half
        return float(h[0] * h[1] * h[2] * 8)

    def Equal(self, other: "Aabb") -> bool:
        """True if centre and half widths are exactly equal to `other`'s."""
        return bool(np.array_equal(self._center, other._center)
                    and np.array_equal(self._half, other._half))

    @staticmethod
    @signatures("(a_G, b_H, X_GH)", "(aabb_G, obb_H, X_GH)", "(bv_H, hs_C, X_CH)",
                "(bv_H, plane_P, X_PH)")
    def HasOverlap(*args, **kwargs) -> bool:
        """HasOverlap(a_G, b_H, X_GH) for Aabb b_H; (aabb_G, obb_H, X_GH);
        (bv_H, hs_C, X_CH) for a HalfSpace; (bv_H, plane_P, X_PH) for a Plane."""
        return _has_overlap("Aabb", Aabb, args, kwargs)

    def __copy__(self):
        return Aabb(self._center, self._half)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __repr__(self) -> str:
        return f"Aabb(p_HoBo={self._center.tolist()}, half_width={self._half.tolist()})"


def _has_overlap(kind, cls, args, kwargs):
    names = [("a_G", "b_H", "X_GH"), ("aabb_G", "obb_H", "X_GH"), ("obb_G", "aabb_H", "X_GH"),
             ("bv_H", "hs_C", "X_CH"), ("bv_H", "plane_P", "X_PH")]
    values = list(args)
    if kwargs:
        for group in names:
            if set(kwargs) <= set(group[len(values):]):
                values += [kwargs[n] for n in group[len(values):] if n in kwargs]
                break
        else:
            raise TypeError(f"{kind}.HasOverlap(): unexpected keyword arguments "
                            f"{sorted(kwargs)}")
    if len(values) != 3:
        raise TypeError(f"{kind}.HasOverlap() takes 3 arguments ({len(values)} given)")
    box, other, X = values
    if not isinstance(box, cls):
        raise TypeError(f"{kind}.HasOverlap(): the first argument must be an {kind}; got "
                        f"{type(box).__name__}")
    return _overlap_dispatch(box, other, X, kind)


class Obb:
    """Oriented box: pose X_HB (RigidTransform) and half_width (3,) ≥ 0 [m] along B.
    As in Drake, the half widths are padded outward by max(ε·scale, 2e-14) (scale: the
    largest |centre coordinate| or half width) so that rounding never leaves a vertex
    outside."""

    kTolerance = 2e-14

    def __init__(self, X_HB, half_width):
        self._X_HB = RigidTransform(X_HB)
        half = _vec3(half_width, "Obb: half_width")
        if np.any(half < 0):
            raise RuntimeError(f"Obb: half_width must be non-negative; got {half.tolist()}")
        scale = max(float(np.max(np.abs(self._X_HB.translation()))), float(np.max(half)))
        self._half = half + max(scale * _EPS, self.kTolerance)

    def center(self) -> np.ndarray:
        """The centre p_HoBo (3,) [m] in frame H."""
        return self._X_HB.translation()

    def half_width(self) -> np.ndarray:
        """A copy of the (3,) half widths [m] along the box axes Bx, By, Bz."""
        return self._half.copy()

    def pose(self) -> RigidTransform:
        """A copy of X_HB, the box frame B in H."""
        return RigidTransform(self._X_HB)

    def CalcVolume(self) -> float:
        """The volume [m³]."""
        h = self._half
        return float(h[0] * h[1] * h[2] * 8)

    def Equal(self, other: "Obb") -> bool:
        """True if pose and half widths are exactly equal to `other`'s."""
        return bool(self._X_HB.IsExactlyEqualTo(other._X_HB)
                    and np.array_equal(self._half, other._half))

    @staticmethod
    @signatures("(a_G, b_H, X_GH)", "(obb_G, aabb_H, X_GH)", "(bv_H, hs_C, X_CH)",
                "(bv_H, plane_P, X_PH)")
    def HasOverlap(*args, **kwargs) -> bool:
        """HasOverlap(a_G, b_H, X_GH) for Obb b_H; (obb_G, aabb_H, X_GH);
        (bv_H, hs_C, X_CH) for a HalfSpace; (bv_H, plane_P, X_PH) for a Plane."""
        return _has_overlap("Obb", Obb, args, kwargs)

    def __copy__(self):
        copy = Obb.__new__(Obb)
        copy._X_HB, copy._half = RigidTransform(self._X_HB), self._half.copy()
        return copy

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __repr__(self) -> str:
        return f"Obb(center={self.center().tolist()}, half_width={self._half.tolist()})"


def _eigenvectors_3x3(A: np.ndarray) -> np.ndarray:
    """Eigenvectors (columns, ascending eigenvalues) of a symmetric 3x3 matrix by
    Eigen's closed-form SelfAdjointEigenSolver::computeDirect, so that the axes (and
    their signs) come out as Drake's: shift by the mean eigenvalue, scale to [-1, 1],
    trigonometric roots, kernels by cross products of the shifted matrix's columns."""
    M = np.array(A, dtype=float)
    shift = np.trace(M) / 3.0
    M[np.diag_indices(3)] -= shift
    scale = float(np.max(np.abs(M)))
    if scale > 0:
        M = M / scale
    m = M
    c0 = (m[0, 0] * m[1, 1] * m[2, 2] + 2 * m[1, 0] * m[2, 0] * m[2, 1]
          - m[0, 0] * m[2, 1] ** 2 - m[1, 1] * m[2, 0] ** 2 - m[2, 2] * m[1, 0] ** 2)
    c1 = (m[0, 0] * m[1, 1] - m[1, 0] ** 2 + m[0, 0] * m[2, 2] - m[2, 0] ** 2
          + m[1, 1] * m[2, 2] - m[2, 1] ** 2)
    c2 = m[0, 0] + m[1, 1] + m[2, 2]
    c2_over_3 = c2 / 3.0
    a_over_3 = max((c2 * c2_over_3 - c1) / 3.0, 0.0)
    half_b = 0.5 * (c0 + c2_over_3 * (2 * c2_over_3 * c2_over_3 - c1))
    q = max(a_over_3 ** 3 - half_b * half_b, 0.0)
    rho = np.sqrt(a_over_3)
    theta = np.arctan2(np.sqrt(q), half_b) / 3.0
    cos_t, sin_t = np.cos(theta), np.sin(theta)
    ev = np.array([c2_over_3 - rho * (cos_t + np.sqrt(3.0) * sin_t),
                   c2_over_3 - rho * (cos_t - np.sqrt(3.0) * sin_t),
                   c2_over_3 + 2 * rho * cos_t])
    vecs = np.zeros((3, 3))
    if ev[2] - ev[0] <= _EPS:
        return np.eye(3)

    def kernel(T):
        i0 = int(np.argmax(np.abs(np.diag(T))))
        rep = T[:, i0].copy()
        a = np.cross(rep, T[:, (i0 + 1) % 3])
        b = np.cross(rep, T[:, (i0 + 2) % 3])
        na, nb = a @ a, b @ b
        return (a / np.sqrt(na) if na > nb else b / np.sqrt(nb)), rep

    d0, d1 = ev[2] - ev[1], ev[1] - ev[0]
    k, l = 0, 2
    if d0 > d1:
        k, l, d0 = 2, 0, d1
    vecs[:, k], vecs[:, l] = kernel(M - ev[k] * np.eye(3))
    if d0 <= 2 * _EPS * d1:
        vecs[:, l] -= (vecs[:, k] @ vecs[:, l]) * vecs[:, k]
        vecs[:, l] /= np.linalg.norm(vecs[:, l])
    else:
        vecs[:, l] = kernel(M - ev[l] * np.eye(3))[0]
    c = np.cross(vecs[:, 2], vecs[:, 0])
    vecs[:, 1] = c / np.linalg.norm(c)
    return vecs


def _oriented_box(P: np.ndarray, R_MB: np.ndarray) -> Obb:
    local = P @ R_MB                        # p_FV = R_FM p_MV, row-wise
    lo, hi = local.min(axis=0), local.max(axis=0)
    return Obb(RigidTransform(RotationMatrix(R_MB), R_MB @ ((hi + lo) / 2.0)),
               (hi - lo) / 2.0)


def _rpy(r, p, y) -> np.ndarray:
    from scenegraph.math.roll_pitch_yaw import RollPitchYaw
    return RollPitchYaw(r, p, y).ToRotationMatrix().matrix()


_H_STEP = 5.0 * np.pi / 180.0


def obb_of_points(p_HV: np.ndarray) -> Obb:
    """Drake's ObbMaker on the points p_HV (N, 3): principal axes (Bx along the
    largest variance, Bz = Bx × By), then one line search along the finite-difference
    volume gradient in roll-pitch-yaw (5° steps), keeping the smaller box."""
    P = np.asarray(p_HV, dtype=float).reshape(-1, 3)
    if P.shape[0] == 0:
        raise RuntimeError("An oriented bounding box needs at least one vertex")
    centred = P - P.sum(axis=0) * (1.0 / len(P))
    covariance = (centred.T @ centred) * (1.0 / len(P))
    vecs = _eigenvectors_3x3(covariance)
    Bx, By = vecs[:, 2], vecs[:, 1]
    R_MB0 = np.column_stack([Bx, By, np.cross(Bx, By)])
    box0 = _oriented_box(P, R_MB0)
    volume0 = box0.CalcVolume()
    gradient = np.array([(_oriented_box(P, R_MB0 @ _rpy(*step)).CalcVolume() - volume0)
                         / _H_STEP for step in np.eye(3) * _H_STEP])
    length = float(np.linalg.norm(gradient))
    if length <= 1e-9:
        return box0
    volume, box = volume0, box0
    increment = 0.1 * volume0 / length
    min_increment = increment / 1e6
    step = 0.0
    for _ in range(20):
        step -= increment
        trial = _oriented_box(P, R_MB0 @ _rpy(*(step * gradient)))
        trial_volume = trial.CalcVolume()
        if trial_volume < volume:
            improvement = (volume - trial_volume) / volume
            volume, box = trial_volume, trial
            if improvement < 0.001:
                break
            increment *= 1.5
            continue
        step += increment
        if increment <= min_increment:
            break
        increment /= 10.0
    return box if box.CalcVolume() < volume0 else box0


def _selected(vertices_of_mesh, vertices, what: str) -> np.ndarray:
    V = np.asarray(vertices_of_mesh, dtype=float).reshape(-1, 3)
    indices = sorted(int(v) for v in vertices)
    if not indices:
        raise RuntimeError(f"{what}: the vertex set is empty")
    if indices[0] < 0 or indices[-1] >= len(V):
        raise RuntimeError(f"{what}: vertex index out of range [0, {len(V)})")
    return V[indices]


def _aabb(points: np.ndarray) -> Aabb:
    lo, hi = points.min(axis=0), points.max(axis=0)
    center = (lo + hi) / 2
    return Aabb(center, hi - center)


def _mesh_vertices(mesh) -> np.ndarray:
    if hasattr(mesh, "vertices_array"):
        return mesh.vertices_array()
    return np.array([np.asarray(v, dtype=float).reshape(3) for v in mesh.vertices()])


def ComputeAabbForTriangleMesh(mesh_M, vertices) -> Aabb:
    """The Aabb (in the mesh frame M) of the given vertices of a TriangleSurfaceMesh."""
    return _aabb(_selected(_mesh_vertices(mesh_M), vertices, "ComputeAabbForTriangleMesh"))


def ComputeAabbForVolumeMesh(mesh_M, vertices) -> Aabb:
    """The Aabb (in M) of the given vertices of a VolumeMesh."""
    return _aabb(_selected(_mesh_vertices(mesh_M), vertices, "ComputeAabbForVolumeMesh"))


def ComputeObbForTriangleMesh(mesh_M, vertices) -> Obb:
    """An Obb (in M) containing the given vertices of a TriangleSurfaceMesh."""
    return obb_of_points(_selected(_mesh_vertices(mesh_M), vertices,
                                   "ComputeObbForTriangleMesh"))


def ComputeObbForVolumeMesh(mesh_M, vertices) -> Obb:
    """An Obb (in M) containing the given vertices of a VolumeMesh."""
    return obb_of_points(_selected(_mesh_vertices(mesh_M), vertices,
                                   "ComputeObbForVolumeMesh"))


def CalcObb(shape):
    """The Obb of `shape` in its frame G, or None for a HalfSpace (see the module
    docstring for meshes)."""
    from scenegraph import shapes
    identity = RigidTransform()
    if isinstance(shape, shapes.Box):
        return Obb(identity, 0.5 * shape.size())
    if isinstance(shape, shapes.Sphere):
        return Obb(identity, np.full(3, shape.radius()))
    if isinstance(shape, shapes.Cylinder):
        r = shape.radius()
        return Obb(identity, [r, r, 0.5 * shape.length()])
    if isinstance(shape, shapes.Capsule):
        r = shape.radius()
        return Obb(identity, [r, r, 0.5 * shape.length() + r])
    if isinstance(shape, shapes.Ellipsoid):
        return Obb(identity, [shape.a(), shape.b(), shape.c()])
    if isinstance(shape, shapes.HalfSpace):
        return None
    if isinstance(shape, shapes.MeshcatCone):
        h = shape.height()
        return Obb(RigidTransform([0.0, 0.0, 0.5 * h]), [shape.a(), shape.b(), 0.5 * h])
    if isinstance(shape, (shapes.Convex, shapes.Mesh)):
        return obb_of_points(_mesh_vertices(shape.GetConvexHull()))
    raise RuntimeError(f"CalcObb: unsupported shape {type(shape).__name__}")
