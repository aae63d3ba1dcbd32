"""Mass properties (pydrake.multibody.tree): RotationalInertia and UnitInertia
here; SpatialInertia in spatial_inertia.py (re-exported from this module).

A RotationalInertia I_BP_E is the 3×3 symmetric inertia matrix of a body B
about a point P, expressed in frame E [kg·m²]; a UnitInertia G_BP_E is the
same per unit mass [m²]; a SpatialInertia M_BP_E holds a body's mass [kg],
the position p_PBcm_E of its centre of mass from P [m] and its unit inertia
G_BP_E. A default-constructed one is NaN, as in pydrake. These are data for
reading back what a model file says (masses, centres of mass, CalcTotalMass
and the centre of mass of a plant); no dynamics are computed from them.
"""
from __future__ import annotations

import numpy as np

from systems.common.overloads import overloaded

__all__ = ["RotationalInertia", "UnitInertia", "SpatialInertia"]


def _vec3(value, what: str) -> np.ndarray:
    out = np.array(value, dtype=float).reshape(-1)
    if out.shape != (3,):
        raise ValueError(f"{what} must have 3 elements; got shape {np.shape(value)}")
    return out


def _point_mass_matrix(p: np.ndarray) -> np.ndarray:
    """Unit inertia (3, 3) of a unit point mass at p about the origin: |p|²·I − p pᵀ."""
    return float(p @ p) * np.eye(3) - np.outer(p, p)


def _matrix_of(R) -> np.ndarray:
    return np.asarray(R.matrix() if hasattr(R, "matrix") else R, dtype=float)


def _unit_vector(unit_vector, func: str) -> np.ndarray:
    """`unit_vector` (3,), or Drake's RuntimeError when its norm is not within 1e-14 of 1."""
    u = _vec3(unit_vector, f"{func}(): unit_vector")
    norm = float(np.linalg.norm(u))
    if not abs(norm - 1.0) <= 1e-14:
        shown = " ".join(f"{x:g}" for x in u)
        raise RuntimeError(
            f"{func}(): The unit_vector argument {shown} is not a unit vector.\n"
            f"|unit_vector| = {norm!r}\n||unit_vector| - 1| = {abs(norm - 1.0)!r} is "
            f"greater than 1e-14.")
    return u


def _axial(J: float, K: float, u: np.ndarray) -> np.ndarray:
    """J·uuᵀ + K·(I − uuᵀ) (3, 3) for a unit vector u: moment J about u, K about any
    axis through the origin perpendicular to u."""
    uu = np.outer(u, u)
    return J * uu + K * (np.eye(3) - uu)


class RotationalInertia:
    """I_BP_E (3, 3) [kg·m²]: ``RotationalInertia()`` (NaN),
    ``(Ixx, Iyy, Izz)``, ``(Ixx, Iyy, Izz, Ixy, Ixz, Iyz)``, or
    ``(mass, p_PQ_E)`` (a point mass at Q about P)."""

    __slots__ = ("_I",)

    @overloaded
    def __init__(self):
        self._I = np.full((3, 3), np.nan)

    @__init__.overload
    def __init__(self, Ixx, Iyy, Izz):
        self._set_moments(Ixx, Iyy, Izz, 0.0, 0.0, 0.0)

    @__init__.overload
    def __init__(self, Ixx, Iyy, Izz, Ixy, Ixz, Iyz):
        self._set_moments(Ixx, Iyy, Izz, Ixy, Ixz, Iyz)

    @__init__.overload
    def __init__(self, mass, p_PQ_E):
        """A point of `mass` [kg] at Q, p_PQ_E (3,) [m] from P."""
        self._I = float(mass) * _point_mass_matrix(
            _vec3(p_PQ_E, f"{type(self).__name__}: p_PQ_E"))

    @__init__.overload
    def __init__(self, I):
        """An extension: from a (3, 3) matrix (symmetrized) or a RotationalInertia."""
        self._set_matrix(I)

    def _set_moments(self, Ixx, Iyy, Izz, Ixy, Ixz, Iyz) -> None:
        Ixx, Iyy, Izz, Ixy, Ixz, Iyz = (float(x) for x in (Ixx, Iyy, Izz, Ixy, Ixz, Iyz))
        self._I = np.array([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]])

    def _set_matrix(self, I) -> None:
        M = np.array(I.CopyToFullMatrix3() if isinstance(I, RotationalInertia) else I,
                     dtype=float)
        if M.shape != (3, 3):
            raise ValueError(f"{type(self).__name__}: expects a (3, 3) matrix; got "
                             f"shape {M.shape}")
        self._I = 0.5 * (M + M.T)

    @classmethod
    def _make(cls, I: np.ndarray):
        out = object.__new__(cls)
        out._I = I
        return out

    @classmethod
    def TriaxiallySymmetric(cls, I_triaxial):
        """I_triaxial times the identity."""
        return cls._make(float(I_triaxial) * np.eye(3))

    def CopyToFullMatrix3(self) -> np.ndarray:
        """The (3, 3) matrix (a copy)."""
        return self._I.copy()

    def get_moments(self) -> np.ndarray:
        """(Ixx, Iyy, Izz) (3,)."""
        return np.diag(self._I).copy()

    def get_products(self) -> np.ndarray:
        """(Ixy, Ixz, Iyz) (3,)."""
        return np.array([self._I[0, 1], self._I[0, 2], self._I[1, 2]])

    def rows(self) -> int:
        """3, the number of rows of the (3, 3) matrix."""
        return 3

    def cols(self) -> int:
        """3, the number of columns of the (3, 3) matrix."""
        return 3

    def Trace(self) -> float:
        """Ixx + Iyy + Izz."""
        return float(np.trace(self._I))

    def IsNaN(self) -> bool:
        """True if any element is NaN."""
        return bool(np.isnan(self._I).any())

    def IsZero(self) -> bool:
        """True if every element is zero."""
        return bool((self._I == 0).all())

    def SetZero(self) -> None:
        """Sets every moment and product to 0, in place."""
        self._I[:] = 0.0

    def SetToNaN(self) -> None:
        """Sets every element to NaN, in place (marks an unset inertia)."""
        self._I[:] = np.nan

    def CalcPrincipalMomentsOfInertia(self) -> np.ndarray:
        """The principal moments, ascending (3,)."""
        return np.linalg.eigvalsh(self._I)

    def CalcPrincipalMomentsAndAxesOfInertia(self):
        """(moments (3,) ascending, RotationMatrix whose columns are the axes)."""
        from scenegraph.math import RotationMatrix
        w, V = np.linalg.eigh(self._I)
        if np.linalg.det(V) < 0:
            V[:, 2] *= -1.0
        return w, RotationMatrix(V)

    def CalcMaximumPossibleMomentOfInertia(self) -> float:
        """Trace / 2 (an upper bound on any moment about the same point)."""
        return 0.5 * self.Trace()

    def CouldBePhysicallyValid(self) -> bool:
        """Principal moments non-negative and satisfying the triangle inequality
        (within a small tolerance)."""
        if self.IsNaN() or not np.isfinite(self._I).all():
            return False        # (an infinite moment has no principal moments)
        m = self.CalcPrincipalMomentsOfInertia()
        tol = 16 * np.finfo(float).eps * max(1.0, float(np.abs(m).max()))
        return bool(m[0] >= -tol and m[0] + m[1] >= m[2] - tol)

    def IsNearlyEqualTo(self, other, precision: float) -> bool:
        """Max element difference at most precision × the larger max moment."""
        scale = max(np.abs(self._I).max(), np.abs(other._I).max())
        return bool(np.abs(self._I - other._I).max() <= precision * scale)

    def ReExpress(self, R_AE):
        """I_BP_A from I_BP_E given R_AE: R I Rᵀ."""
        R = _matrix_of(R_AE)
        return type(self)._make(R @ self._I @ R.T)

    def ShiftFromCenterOfMass(self, mass, p_BcmQ_E):
        """I_BQ_E from this I_BBcm_E: + mass·(point mass at p_BcmQ_E)."""
        return type(self)._make(self._I + float(mass) * _point_mass_matrix(
            _vec3(p_BcmQ_E, "p_BcmQ_E")))

    def ShiftToCenterOfMass(self, mass, p_QBcm_E):
        """I_BBcm_E from this I_BQ_E."""
        return type(self)._make(self._I - float(mass) * _point_mass_matrix(
            _vec3(p_QBcm_E, "p_QBcm_E")))

    def ShiftToThenAwayFromCenterOfMass(self, mass, p_PBcm_E, p_QBcm_E):
        """I_BQ_E from this I_BP_E."""
        return self.ShiftToCenterOfMass(mass, p_PBcm_E).ShiftFromCenterOfMass(
            mass, -_vec3(p_QBcm_E, "p_QBcm_E"))

    # +, −, * and / give a RotationalInertia (also for UnitInertia operands), as pydrake's.
    def __add__(self, other):
        if not isinstance(other, RotationalInertia):
            return NotImplemented
        return RotationalInertia._make(self._I + other._I)

    def __sub__(self, other):
        if not isinstance(other, RotationalInertia):
            return NotImplemented
        return RotationalInertia._make(self._I - other._I)

    # In place, as pydrake's: after ``a = b; a += c``, b has changed too.
    def __iadd__(self, other):
        if not isinstance(other, RotationalInertia):
            return NotImplemented
        self._I += other._I
        return self

    def __isub__(self, other):
        if not isinstance(other, RotationalInertia):
            return NotImplemented
        self._I -= other._I
        return self

    def __imul__(self, scalar):
        self._I *= float(scalar)
        return self

    def __itruediv__(self, scalar):
        self._I /= float(scalar)
        return self

    def __mul__(self, other):
        """``I * s`` for a scalar s (a RotationalInertia), or ``I * w`` for a
        vector w (3,) (the product I·w (3,), e.g. an angular momentum [kg·m²/s]
        for an angular velocity w [rad/s])."""
        if np.ndim(other) == 1:
            return self._I @ _vec3(other, "RotationalInertia * vector")
        return RotationalInertia._make(self._I * float(other))

    def __rmul__(self, scalar):
        return RotationalInertia._make(self._I * float(scalar))

    def __getitem__(self, index):
        """I[i, j] for a (row, column) pair, as pydrake's."""
        if not (isinstance(index, tuple) and len(index) == 2):
            raise TypeError(f"RotationalInertia[...]: expects a (row, column) pair; got "
                            f"{index!r}")
        return float(self._I[index])

    def __truediv__(self, scalar):
        return RotationalInertia._make(self._I / float(scalar))

    def __copy__(self):
        return type(self)._make(self._I.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        return type(self)._make, (self._I.copy(),)

    def __repr__(self) -> str:
        rows = ", ".join("[" + ", ".join(repr(float(x)) for x in r) + "]" for r in self._I)
        return f"{type(self).__name__}([{rows}])"


class UnitInertia(RotationalInertia):
    """G_BP_E (3, 3) [m²]: a rotational inertia per unit mass.
    ``UnitInertia()`` (NaN), ``(Ixx, Iyy, Izz)``, ``(Ixx, Iyy, Izz, Ixy, Ixz,
    Iyz)``, or ``UnitInertia(I)`` from a RotationalInertia I (or, an extension,
    a (3, 3) matrix) taken as already per unit mass."""

    __slots__ = ()

    @overloaded
    def __init__(self):
        self._I = np.full((3, 3), np.nan)

    @__init__.overload
    def __init__(self, Ixx, Iyy, Izz):
        self._set_moments(Ixx, Iyy, Izz, 0.0, 0.0, 0.0)

    @__init__.overload
    def __init__(self, Ixx, Iyy, Izz, Ixy, Ixz, Iyz):
        self._set_moments(Ixx, Iyy, Izz, Ixy, Ixz, Iyz)

    @__init__.overload
    def __init__(self, I):
        self._set_matrix(I)

    def SetFromRotationalInertia(self, I, mass):
        """Sets this to I / mass; returns self."""
        self._I = I.CopyToFullMatrix3() / float(mass)
        return self

    def ShiftFromCenterOfMass(self, p_BcmQ_E):
        """G_BQ_E from this G_BBcm_E."""
        return UnitInertia._make(self._I + _point_mass_matrix(_vec3(p_BcmQ_E, "p_BcmQ_E")))

    def ShiftToCenterOfMass(self, p_QBcm_E):
        """G_BBcm_E from this G_BQ_E."""
        return UnitInertia._make(self._I - _point_mass_matrix(_vec3(p_QBcm_E, "p_QBcm_E")))

    @staticmethod
    def PointMass(p_FQ):
        """The unit inertia about Fo of a point mass at p_FQ [m]."""
        return UnitInertia._make(_point_mass_matrix(_vec3(p_FQ, "p_FQ")))

    @staticmethod
    def SolidSphere(r):
        """A solid sphere of radius r about its centre: 2/5 r²."""
        return UnitInertia._make(0.4 * float(r) ** 2 * np.eye(3))

    @staticmethod
    def HollowSphere(r):
        """A thin spherical shell of radius r about its centre: 2/3 r²."""
        return UnitInertia._make(2.0 / 3.0 * float(r) ** 2 * np.eye(3))

    @staticmethod
    def SolidBox(Lx, Ly, Lz):
        """A solid box of edge lengths Lx, Ly, Lz about its centre."""
        a, b, c = float(Lx) ** 2, float(Ly) ** 2, float(Lz) ** 2
        return UnitInertia._make(np.diag([b + c, a + c, a + b]) / 12.0)

    @staticmethod
    def SolidCube(L):
        """A solid cube of edge L about its centre."""
        return UnitInertia.SolidBox(L, L, L)

    @staticmethod
    def SolidEllipsoid(a, b, c):
        """A solid ellipsoid of semi-axes a, b, c about its centre."""
        a, b, c = float(a) ** 2, float(b) ** 2, float(c) ** 2
        return UnitInertia._make(np.diag([b + c, a + c, a + b]) / 5.0)

    @staticmethod
    def AxiallySymmetric(moment_parallel, moment_perpendicular, unit_vector):
        """J·uuᵀ + K·(I − uuᵀ) [m²] for J = moment_parallel, K = moment_perpendicular
        and the unit vector u (RuntimeError unless |u| is 1 within 1e-14)."""
        return UnitInertia._make(_axial(float(moment_parallel), float(moment_perpendicular),
                                        _unit_vector(unit_vector, "AxiallySymmetric")))

    @staticmethod
    def StraightLine(moment_perpendicular, unit_vector):
        """A body whose mass lies on the line along unit_vector u: K·(I − uuᵀ)."""
        return UnitInertia._make(_axial(0.0, float(moment_perpendicular),
                                        _unit_vector(unit_vector, "StraightLine")))

    @staticmethod
    def SolidCylinder(radius, length, unit_vector):
        """A solid cylinder of `radius` and `length` [m], axis along unit_vector, about
        its centre: r²/2 about the axis, (3r² + L²)/12 perpendicular to it."""
        r2, L2 = float(radius) ** 2, float(length) ** 2
        return UnitInertia._make(_axial(r2 / 2.0, (3.0 * r2 + L2) / 12.0,
                                        _unit_vector(unit_vector, "SolidCylinder")))

    @staticmethod
    def SolidCylinderAboutEnd(radius, length, unit_vector):
        """The same cylinder about the centre of one end face: r²/2 about the axis,
        r²/4 + L²/3 perpendicular to it."""
        r2, L2 = float(radius) ** 2, float(length) ** 2
        return UnitInertia._make(_axial(r2 / 2.0, r2 / 4.0 + L2 / 3.0,
                                        _unit_vector(unit_vector, "SolidCylinderAboutEnd")))

    @staticmethod
    def SolidCapsule(radius, length, unit_vector):
        """A solid capsule (a cylinder of `radius` r and `length` L [m] capped by two
        half spheres), axis along unit_vector, about its centre (Drake's formula: the
        cylinder's and half spheres' shares of the volume)."""
        r, L = float(radius), float(length)
        u = _unit_vector(unit_vector, "SolidCapsule")
        v_cylinder = np.pi * r * r * L
        v_half_sphere = 2.0 / 3.0 * np.pi * r ** 3
        total = v_cylinder + 2.0 * v_half_sphere
        mc, mh = v_cylinder / total, v_half_sphere / total
        J = mc * r * r / 2.0 + 2.0 * mh * 0.4 * r * r
        K = mc * (L * L / 12.0 + r * r / 4.0) + \
            2.0 * mh * (83.0 / 320.0 * r * r + (L / 2.0 + 3.0 * r / 8.0) ** 2)
        return UnitInertia._make(_axial(J, K, u))

    @staticmethod
    def ThinRod(length, unit_vector):
        """A thin rod of `length` [m] along unit_vector, about its centre: L²/12
        perpendicular to it."""
        return UnitInertia._make(_axial(0.0, float(length) ** 2 / 12.0,
                                        _unit_vector(unit_vector, "ThinRod")))


def __getattr__(name):
    # SpatialInertia lives in spatial_inertia.py, which imports this module's
    # classes and helpers; it is re-exported here on first access (then kept in
    # this namespace), so ``from scenegraph.multibody.inertia import
    # SpatialInertia`` keeps working without an import cycle.
    if name == "SpatialInertia":
        from scenegraph.multibody.spatial_inertia import SpatialInertia
        globals()["SpatialInertia"] = SpatialInertia
        return SpatialInertia
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
