"""SpatialInertia (pydrake.multibody.tree): a body's mass, centre of mass and
unit inertia about a point, M_BP_E.

Split from inertia.py (which holds RotationalInertia and UnitInertia, and
still re-exports this class). A SpatialInertia M_BP_E holds a body B's mass
[kg], the position p_PBcm_E of its centre of mass from a point P [m] and its
unit inertia G_BP_E about P [m²], all expressed in frame E. A
default-constructed one is NaN, as in pydrake.
"""
from __future__ import annotations

import numpy as np

from scenegraph.multibody.inertia import (RotationalInertia, UnitInertia, _matrix_of,
                                          _point_mass_matrix, _unit_vector, _vec3)

__all__ = ["SpatialInertia"]


def _positive(value, what: str, func: str) -> float:
    """`value` as a float, or Drake's RuntimeError when it is not positive and finite."""
    v = float(value)
    if not (v > 0 and np.isfinite(v)):
        raise RuntimeError(f"{func}(): {what} is not positive and finite: {value:g}.")
    return v


class SpatialInertia:
    """M_BP_E: mass [kg], p_PBcm_E [m] and G_BP_E (UnitInertia about P) [m²].

    ``SpatialInertia(mass, p_PScm_E, G_SP_E, skip_validity_check=False)``;
    ``SpatialInertia()`` is NaN; ``SpatialInertia.Zero()`` is a massless body.

    Raises:
      RuntimeError: a negative mass, or (unless skip_validity_check) an
        inertia that cannot be physical.
    """

    __slots__ = ("_mass", "_p", "_G")

    def __init__(self, mass=None, p_PScm_E=None, G_SP_E=None, skip_validity_check=False):
        if mass is None:
            self._mass, self._p, self._G = np.nan, np.full(3, np.nan), UnitInertia()
            return
        self._mass = float(mass)
        self._p = _vec3(p_PScm_E, "SpatialInertia: p_PScm_E")
        G = G_SP_E if isinstance(G_SP_E, RotationalInertia) else UnitInertia(G_SP_E)
        self._G = UnitInertia._make(G.CopyToFullMatrix3())
        if not skip_validity_check and not self.IsPhysicallyValid():
            raise RuntimeError(
                f"Spatial inertia fails SpatialInertia::IsPhysicallyValid(): mass = "
                f"{self._mass}, center of mass = {self._p.tolist()}, unit inertia = "
                f"{self._G.CopyToFullMatrix3().tolist()}")

    @classmethod
    def _make(cls, mass: float, p: np.ndarray, G: np.ndarray):
        out = object.__new__(cls)
        out._mass, out._p, out._G = float(mass), p, UnitInertia._make(G)
        return out

    @staticmethod
    def Zero():
        """Zero mass, centre of mass at P, zero inertia."""
        return SpatialInertia._make(0.0, np.zeros(3), np.zeros((3, 3)))

    @staticmethod
    def NaN():
        """Every entry NaN."""
        return SpatialInertia()

    @staticmethod
    def MakeFromCentralInertia(mass, p_PScm_E, I_SScm_E):
        """M_SP_E from the mass [kg], p_PScm_E [m] and the inertia about the
        centre of mass I_SScm_E (RotationalInertia or (3, 3)) [kg·m²]."""
        m = float(mass)
        p = _vec3(p_PScm_E, "MakeFromCentralInertia: p_PScm_E")
        I = I_SScm_E.CopyToFullMatrix3() if isinstance(I_SScm_E, RotationalInertia) \
            else np.asarray(I_SScm_E, dtype=float)
        I_P = I + m * _point_mass_matrix(p)
        G = I_P / m if m != 0 else np.zeros((3, 3))
        out = SpatialInertia._make(m, p, G)
        if not out.IsPhysicallyValid():
            raise RuntimeError(
                f"MakeFromCentralInertia: mass {m} with central inertia {I.tolist()} is not "
                f"physically valid")
        return out

    # The solid/hollow shape factories: about the shape's centre (or, *AboutEnd, the
    # centre of one end, with the centre of mass at +length/2 along unit_vector).
    # Masses [kg], densities [kg/m³] (area_density [kg/m²]) and lengths [m] must be
    # positive and finite and unit_vector of norm 1 (RuntimeError naming the value,
    # as pydrake's).
    @staticmethod
    def SolidBoxWithMass(mass, lx, ly, lz):
        """A solid box of `mass` [kg] and edge lengths lx, ly, lz [m]."""
        f = "SolidBoxWithMass"
        m = _positive(mass, "mass", f)
        G = UnitInertia.SolidBox(_positive(lx, "x-length", f), _positive(ly, "y-length", f),
                                 _positive(lz, "z-length", f))
        return SpatialInertia._make(m, np.zeros(3), G.CopyToFullMatrix3())

    @staticmethod
    def SolidBoxWithDensity(density, lx, ly, lz):
        """A solid box of `density` [kg/m³] and edge lengths lx, ly, lz [m]."""
        f = "SolidBoxWithDensity"
        volume = _positive(lx, "x-length", f) * _positive(ly, "y-length", f) * \
            _positive(lz, "z-length", f)
        return SpatialInertia.SolidBoxWithMass(_positive(density, "density", f) * volume,
                                               lx, ly, lz)

    @staticmethod
    def SolidCubeWithMass(mass, length):
        """A solid cube of `mass` [kg] and edge `length` [m] (an extension)."""
        return SpatialInertia.SolidBoxWithMass(mass, length, length, length)

    @staticmethod
    def SolidCubeWithDensity(density, length):
        """A solid cube of `density` [kg/m³] and edge `length` [m]."""
        f = "SolidCubeWithDensity"
        L = _positive(length, "length", f)
        return SpatialInertia.SolidBoxWithMass(_positive(density, "density", f) * L ** 3,
                                               L, L, L)

    @staticmethod
    def SolidSphereWithMass(mass, radius):
        """A solid sphere of `mass` [kg] and `radius` [m]."""
        f = "SolidSphereWithMass"
        m, r = _positive(mass, "mass", f), _positive(radius, "radius", f)
        return SpatialInertia._make(m, np.zeros(3),
                                    UnitInertia.SolidSphere(r).CopyToFullMatrix3())

    @staticmethod
    def SolidSphereWithDensity(density, radius):
        """A solid sphere of `density` [kg/m³] and `radius` [m]."""
        f = "SolidSphereWithDensity"
        r = _positive(radius, "radius", f)
        return SpatialInertia.SolidSphereWithMass(
            _positive(density, "density", f) * 4.0 / 3.0 * np.pi * r ** 3, r)

    @staticmethod
    def HollowSphereWithMass(mass, radius):
        """A thin spherical shell of `mass` [kg] and `radius` [m]."""
        f = "HollowSphereWithMass"
        m, r = _positive(mass, "mass", f), _positive(radius, "radius", f)
        return SpatialInertia._make(m, np.zeros(3),
                                    UnitInertia.HollowSphere(r).CopyToFullMatrix3())

    @staticmethod
    def HollowSphereWithDensity(area_density, radius):
        """A thin spherical shell of `area_density` [kg/m²] and `radius` [m]."""
        f = "HollowSphereWithDensity"
        r = _positive(radius, "radius", f)
        return SpatialInertia.HollowSphereWithMass(
            _positive(area_density, "area_density", f) * 4.0 * np.pi * r * r, r)

    @staticmethod
    def SolidEllipsoidWithMass(mass, a, b, c):
        """A solid ellipsoid of `mass` [kg] and semi-axes a, b, c [m] along x, y, z."""
        f = "SolidEllipsoidWithMass"
        m = _positive(mass, "mass", f)
        G = UnitInertia.SolidEllipsoid(_positive(a, "semi-axis a", f),
                                       _positive(b, "semi-axis b", f),
                                       _positive(c, "semi-axis c", f))
        return SpatialInertia._make(m, np.zeros(3), G.CopyToFullMatrix3())

    @staticmethod
    def SolidEllipsoidWithDensity(density, a, b, c):
        """A solid ellipsoid of `density` [kg/m³] and semi-axes a, b, c [m]."""
        f = "SolidEllipsoidWithDensity"
        volume = 4.0 / 3.0 * np.pi * _positive(a, "semi-axis a", f) * \
            _positive(b, "semi-axis b", f) * _positive(c, "semi-axis c", f)
        return SpatialInertia.SolidEllipsoidWithMass(
            _positive(density, "density", f) * volume, a, b, c)

    @staticmethod
    def SolidCylinderWithMass(mass, radius, length, unit_vector):
        """A solid cylinder of `mass` [kg], `radius` and `length` [m], axis along
        unit_vector."""
        f = "SolidCylinderWithMass"
        m = _positive(mass, "mass", f)
        r, L = _positive(radius, "radius", f), _positive(length, "length", f)
        _unit_vector(unit_vector, f)
        return SpatialInertia._make(
            m, np.zeros(3), UnitInertia.SolidCylinder(r, L, unit_vector).CopyToFullMatrix3())

    @staticmethod
    def SolidCylinderWithDensity(density, radius, length, unit_vector):
        """A solid cylinder of `density` [kg/m³], `radius` and `length` [m]."""
        f = "SolidCylinderWithDensity"
        r, L = _positive(radius, "radius", f), _positive(length, "length", f)
        return SpatialInertia.SolidCylinderWithMass(
            _positive(density, "density", f) * np.pi * r * r * L, r, L, unit_vector)

    @staticmethod
    def SolidCylinderWithMassAboutEnd(mass, radius, length, unit_vector):
        """A solid cylinder about the centre of one end: p_PScm = length/2·unit_vector."""
        f = "SolidCylinderWithMassAboutEnd"
        m = _positive(mass, "mass", f)
        r, L = _positive(radius, "radius", f), _positive(length, "length", f)
        u = _unit_vector(unit_vector, f)
        G = UnitInertia.SolidCylinderAboutEnd(r, L, u)
        return SpatialInertia._make(m, 0.5 * L * u, G.CopyToFullMatrix3())

    @staticmethod
    def SolidCylinderWithDensityAboutEnd(density, radius, length, unit_vector):
        """SolidCylinderWithMassAboutEnd for a `density` [kg/m³]."""
        f = "SolidCylinderWithDensityAboutEnd"
        r, L = _positive(radius, "radius", f), _positive(length, "length", f)
        return SpatialInertia.SolidCylinderWithMassAboutEnd(
            _positive(density, "density", f) * np.pi * r * r * L, r, L, unit_vector)

    @staticmethod
    def SolidCapsuleWithMass(mass, radius, length, unit_vector):
        """A solid capsule of `mass` [kg]: a cylinder of `radius` and `length` [m]
        capped by half spheres, axis along unit_vector."""
        f = "SolidCapsuleWithMass"
        m = _positive(mass, "mass", f)
        r, L = _positive(radius, "radius", f), _positive(length, "length", f)
        _unit_vector(unit_vector, f)
        return SpatialInertia._make(
            m, np.zeros(3), UnitInertia.SolidCapsule(r, L, unit_vector).CopyToFullMatrix3())

    @staticmethod
    def SolidCapsuleWithDensity(density, radius, length, unit_vector):
        """SolidCapsuleWithMass for a `density` [kg/m³] (volume πr²L + 4/3·πr³)."""
        f = "SolidCapsuleWithDensity"
        r, L = _positive(radius, "radius", f), _positive(length, "length", f)
        volume = np.pi * r * r * L + 4.0 / 3.0 * np.pi * r ** 3
        return SpatialInertia.SolidCapsuleWithMass(
            _positive(density, "density", f) * volume, r, L, unit_vector)

    @staticmethod
    def ThinRodWithMass(mass, length, unit_vector):
        """A thin rod of `mass` [kg] and `length` [m] along unit_vector."""
        f = "ThinRodWithMass"
        m, L = _positive(mass, "mass", f), _positive(length, "length", f)
        _unit_vector(unit_vector, f)
        return SpatialInertia._make(
            m, np.zeros(3), UnitInertia.ThinRod(L, unit_vector).CopyToFullMatrix3())

    @staticmethod
    def ThinRodWithMassAboutEnd(mass, length, unit_vector):
        """The thin rod about one end: p_PScm = length/2·unit_vector, L²/3 across it."""
        f = "ThinRodWithMassAboutEnd"
        m, L = _positive(mass, "mass", f), _positive(length, "length", f)
        u = _unit_vector(unit_vector, f)
        return SpatialInertia._make(
            m, 0.5 * L * u, UnitInertia.StraightLine(L * L / 3.0, u).CopyToFullMatrix3())

    def __mul__(self, other):
        """M_SP_E * V_WP_E: the SpatialMomentum L_WS_P_E about P; M_SP_E * A_WP_E (a
        SpatialAcceleration): the SpatialForce M·A (as pydrake's, no velocity terms)."""
        from scenegraph.multibody.spatial_algebra import (SpatialAcceleration,
                                                          SpatialForce, SpatialMomentum,
                                                          SpatialVelocity)
        if isinstance(other, SpatialVelocity):
            return SpatialMomentum._make(self.CopyToFullMatrix6() @ other._V)
        if isinstance(other, SpatialAcceleration):
            return SpatialForce._make(self.CopyToFullMatrix6() @ other._V)
        return NotImplemented

    @staticmethod
    def PointMass(mass, position):
        """A point of `mass` [kg] at `position` p_PQ [m], about P."""
        p = _vec3(position, "position")
        return SpatialInertia._make(float(mass), p, _point_mass_matrix(p))

    def get_mass(self) -> float:
        """The mass [kg]."""
        return self._mass

    def get_com(self) -> np.ndarray:
        """p_PScm_E (3,) [m] (a copy)."""
        return self._p.copy()

    def CalcComMoment(self) -> np.ndarray:
        """mass · p_PScm_E (3,) [kg·m]."""
        return self._mass * self._p

    def get_unit_inertia(self) -> UnitInertia:
        """G_SP_E [m²]."""
        return UnitInertia._make(self._G.CopyToFullMatrix3())

    def CalcRotationalInertia(self) -> RotationalInertia:
        """I_SP_E = mass · G_SP_E [kg·m²]."""
        return RotationalInertia._make(self._mass * self._G.CopyToFullMatrix3())

    def CopyToFullMatrix6(self) -> np.ndarray:
        """The (6, 6) spatial inertia matrix [[I, m p×]; [−m p×, m 1]]."""
        m, p = self._mass, self._p
        px = np.array([[0.0, -p[2], p[1]], [p[2], 0.0, -p[0]], [-p[1], p[0], 0.0]])
        M = np.zeros((6, 6))
        M[:3, :3] = m * self._G.CopyToFullMatrix3()
        M[:3, 3:] = m * px
        M[3:, :3] = -m * px
        M[3:, 3:] = m * np.eye(3)
        return M

    def IsNaN(self) -> bool:
        """True if the mass, any coordinate of p_PScm_E or any element of G_SP_E
        is NaN."""
        return bool(np.isnan(self._mass) or np.isnan(self._p).any() or self._G.IsNaN())

    def IsZero(self) -> bool:
        """True if the mass, p_PScm_E and G_SP_E are all exactly zero."""
        return bool(self._mass == 0 and not self._p.any() and self._G.IsZero())

    def SetNaN(self) -> None:
        """Sets the mass, p_PScm_E and G_SP_E to NaN, in place (as
        ``SpatialInertia()``)."""
        self._mass, self._p, self._G = np.nan, np.full(3, np.nan), UnitInertia()

    def IsPhysicallyValid(self) -> bool:
        """Non-negative mass and a central inertia that could be physical."""
        if self.IsNaN() or self._mass < 0:
            return False
        if self._mass == 0:
            return True
        central = RotationalInertia._make(
            self._mass * (self._G.CopyToFullMatrix3() - _point_mass_matrix(self._p)))
        return central.CouldBePhysicallyValid()

    def ReExpress(self, R_AE):
        """M_SP_A from this M_SP_E given R_AE."""
        R = _matrix_of(R_AE)
        return SpatialInertia._make(self._mass, R @ self._p,
                                    R @ self._G.CopyToFullMatrix3() @ R.T)

    def Shift(self, p_PQ_E):
        """M_SQ_E: the same body's inertia about Q at p_PQ_E [m] from P."""
        p_PQ = _vec3(p_PQ_E, "p_PQ_E")
        p_QScm = self._p - p_PQ
        G_Scm = self._G.CopyToFullMatrix3() - _point_mass_matrix(self._p)
        return SpatialInertia._make(self._mass, p_QScm, G_Scm + _point_mass_matrix(p_QScm))

    def __iadd__(self, other):
        total = self._mass + other._mass
        I = self._mass * self._G.CopyToFullMatrix3() + other._mass * \
            other._G.CopyToFullMatrix3()
        p = (self._mass * self._p + other._mass * other._p) / total if total else \
            np.zeros(3)
        self._mass, self._p = total, p
        self._G = UnitInertia._make(I / total if total else np.zeros((3, 3)))
        return self

    def __copy__(self):
        return SpatialInertia._make(self._mass, self._p.copy(), self._G.CopyToFullMatrix3())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        return SpatialInertia._make, (self._mass, self._p.copy(),
                                      self._G.CopyToFullMatrix3())

    def __repr__(self) -> str:
        return (f"SpatialInertia(mass={self._mass!r}, p_PScm_E={self._p.tolist()!r}, "
                f"G_SP_E={self._G!r})")
