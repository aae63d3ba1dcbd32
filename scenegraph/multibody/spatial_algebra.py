"""Spatial vectors (pydrake.multibody.math): SpatialVelocity, SpatialAcceleration,
SpatialForce and SpatialMomentum.

Each holds six numbers: a rotational part (3,) and a translational part (3,),
both expressed in the same frame E. For a spatial velocity V_AB_E of frame B
in frame A these are w_AB_E [rad/s] and v_ABo_E [m/s]; for a spatial force
F_Bo_E, the torque about Bo [N·m] and the force [N]. A default-constructed
vector is NaN, as in pydrake.
"""
from __future__ import annotations

import numpy as np

from systems.common.overloads import overloaded

__all__ = ["SpatialVelocity", "SpatialAcceleration", "SpatialForce", "SpatialMomentum"]


def _vec3(value, what: str) -> np.ndarray:
    out = np.array(value, dtype=float).reshape(-1)
    if out.shape != (3,):
        raise ValueError(f"{what} must have 3 elements; got shape {np.shape(value)}")
    return out


class _SpatialVector:
    """Six coefficients [rotational (3); translational (3)] in one frame E."""

    __slots__ = ("_V",)
    _ROT, _TRANS = "w", "v"
    # Each subclass declares pydrake's three constructors with its own parameter
    # names ((), (rotational, translational), (all six)) and fills _V through
    # _set_nan, _set_parts or _set_coeffs.

    def _set_nan(self) -> None:
        self._V = np.full(6, np.nan)

    def _set_parts(self, rotational, translational) -> None:
        name = type(self).__name__
        self._V = np.concatenate([_vec3(rotational, f"{name}: {self._ROT}"),
                                  _vec3(translational, f"{name}: {self._TRANS}")])

    def _set_coeffs(self, coeffs) -> None:
        V = np.array(coeffs, dtype=float).reshape(-1)
        if V.shape != (6,):
            raise ValueError(f"{type(self).__name__}: expects 6 coefficients; got "
                             f"shape {np.shape(coeffs)}")
        self._V = V

    @classmethod
    def _make(cls, V: np.ndarray):
        out = object.__new__(cls)
        out._V = V
        return out

    @classmethod
    def Zero(cls):
        """The zero vector."""
        return cls._make(np.zeros(6))

    def rotational(self) -> np.ndarray:
        """The rotational part (3,) (a copy)."""
        return self._V[:3].copy()

    def translational(self) -> np.ndarray:
        """The translational part (3,) (a copy)."""
        return self._V[3:].copy()

    def get_coeffs(self) -> np.ndarray:
        """All six coefficients [rotational; translational] (6,) (a copy)."""
        return self._V.copy()

    def SetZero(self):
        """Sets all six coefficients to zero; returns self."""
        self._V[:] = 0.0
        return self

    def Rotate(self, R_FE):
        """This vector re-expressed in frame F, given R_FE (a RotationMatrix or (3, 3))."""
        R = np.asarray(R_FE.matrix() if hasattr(R_FE, "matrix") else R_FE, dtype=float)
        return type(self)._make(np.concatenate([R @ self._V[:3], R @ self._V[3:]]))

    def __mul__(self, scalar):
        return type(self)._make(self._V * float(scalar))

    __rmul__ = __mul__

    def __add__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return type(self)._make(self._V + other._V)

    def __sub__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return type(self)._make(self._V - other._V)

    def __neg__(self):
        return type(self)._make(-self._V)

    # In place, as pydrake's: after ``a = b; a += c``, b has changed too.
    def __iadd__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        self._V += other._V
        return self

    def __isub__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        self._V -= other._V
        return self

    def __imul__(self, scalar):
        self._V *= float(scalar)
        return self

    def IsApprox(self, other, tolerance: float = 1e-15) -> bool:
        """True if every coefficient differs by at most `tolerance` times the
        larger norm (an extension of this library, as Eigen's isApprox)."""
        scale = max(np.linalg.norm(self._V), np.linalg.norm(other._V))
        return bool(np.linalg.norm(self._V - other._V) <= tolerance * scale)

    def __copy__(self):
        return type(self)._make(self._V.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        return type(self)._make, (self._V.copy(),)

    def __repr__(self) -> str:
        def fmt(x):
            return "[" + ", ".join(repr(float(v)) for v in x) + "]"
        return (f"{type(self).__name__}(\n  {self._ROT}={fmt(self._V[:3])},\n"
                f"  {self._TRANS}={fmt(self._V[3:])},\n)")


class SpatialVelocity(_SpatialVector):
    """V_AB_E: angular velocity w_AB_E [rad/s] and translational velocity
    v_ABo_E [m/s] of frame B in frame A, expressed in frame E.

    ``SpatialVelocity()`` (NaN), ``SpatialVelocity(w, v)``,
    ``SpatialVelocity(V)`` with V (6,) = [w; v].
    """

    __slots__ = ()

    @overloaded
    def __init__(self):
        self._set_nan()

    @__init__.overload
    def __init__(self, w, v):
        self._set_parts(w, v)

    @__init__.overload
    def __init__(self, V):
        self._set_coeffs(V)

    def Shift(self, offset):
        """V_ABq_E of the point Bq of B at offset p_BoBq_E [m] from Bo:
        [w; v + w × p]."""
        p = _vec3(offset, "SpatialVelocity.Shift: offset")
        w = self._V[:3]
        return SpatialVelocity._make(np.concatenate([w, self._V[3:] + np.cross(w, p)]))

    def ComposeWithMovingFrameVelocity(self, position_of_moving_frame,
                                       velocity_of_moving_frame):
        """V_AC_E from this V_AB_E, p_BoCo_E [m] (position_of_moving_frame) and
        V_BC_E (velocity_of_moving_frame): V_AB_E shifted to Co plus V_BC_E."""
        return self.Shift(position_of_moving_frame) + velocity_of_moving_frame

    @overloaded.typed(force=lambda f: isinstance(f, SpatialForce))
    def dot(self, force) -> float:
        """The power V_MB_E·F_B_E [W] of a SpatialForce F_B_E expressed in the
        same frame E as this V_MB_E."""
        return float(self._V @ force._V)

    @dot.overload(momentum=lambda L: isinstance(L, SpatialMomentum))
    def dot(self, momentum) -> float:
        """Twice the kinetic energy, V_MBp_E·L_MBp_E [J], of a SpatialMomentum
        L_MBp_E about the same point Bp, expressed in the same frame E."""
        return float(self._V @ momentum._V)

    def __matmul__(self, other) -> float:
        """``V @ F`` is ``V.dot(F)`` (a SpatialForce or a SpatialMomentum)."""
        return self.dot(other)


class SpatialAcceleration(_SpatialVector):
    """A_AB_E: angular acceleration alpha_AB_E [rad/s²] and translational
    acceleration a_ABo_E [m/s²] of frame B in frame A, expressed in E."""

    __slots__ = ()
    _ROT, _TRANS = "alpha", "a"

    @overloaded
    def __init__(self):
        self._set_nan()

    @__init__.overload
    def __init__(self, alpha, a):
        self._set_parts(alpha, a)

    @__init__.overload
    def __init__(self, A):
        self._set_coeffs(A)

    def Shift(self, offset, angular_velocity_of_this_frame):
        """A_MC_E of a frame C fixed to B at p_BoCo_E = offset [m], from this
        A_MB_E and w_MB_E = angular_velocity_of_this_frame [rad/s]:
        [alpha; a + alpha × p + w × (w × p)]."""
        p = _vec3(offset, "SpatialAcceleration.Shift: offset")
        w = _vec3(angular_velocity_of_this_frame,
                  "SpatialAcceleration.Shift: angular_velocity_of_this_frame")
        alpha = self._V[:3]
        a = self._V[3:] + np.cross(alpha, p) + np.cross(w, np.cross(w, p))
        return SpatialAcceleration._make(np.concatenate([alpha, a]))

    def ShiftWithZeroAngularVelocity(self, offset):
        """Shift(offset, 0): [alpha; a + alpha × p] for p_BoCo_E = offset [m]."""
        p = _vec3(offset, "SpatialAcceleration.ShiftWithZeroAngularVelocity: offset")
        alpha = self._V[:3]
        return SpatialAcceleration._make(np.concatenate([alpha,
                                                         self._V[3:] + np.cross(alpha, p)]))

    def ComposeWithMovingFrameAcceleration(self, position_of_moving_frame,
                                           angular_velocity_of_this_frame,
                                           velocity_of_moving_frame,
                                           acceleration_of_moving_frame):
        """A_MC_E of a frame C moving on B, from this A_MB_E, p_BoCo_E [m]
        (position_of_moving_frame), w_MB_E [rad/s] (angular_velocity_of_this_frame),
        V_BC_E (velocity_of_moving_frame, a SpatialVelocity) and A_BC_E
        (acceleration_of_moving_frame): alpha_MC = alpha_MB + alpha_BC + w_MB × w_BC;
        a_MCo = a_MBo + alpha_MB × p + w_MB × (w_MB × p) + 2 w_MB × v_BCo + a_BCo."""
        w = _vec3(angular_velocity_of_this_frame, "ComposeWithMovingFrameAcceleration: "
                  "angular_velocity_of_this_frame")
        shifted = self.Shift(position_of_moving_frame, w)._V
        V_BC, A_BC = velocity_of_moving_frame._V, acceleration_of_moving_frame._V
        alpha = shifted[:3] + A_BC[:3] + np.cross(w, V_BC[:3])
        a = shifted[3:] + A_BC[3:] + 2.0 * np.cross(w, V_BC[3:])
        return SpatialAcceleration._make(np.concatenate([alpha, a]))


class SpatialForce(_SpatialVector):
    """F_Bo_E: torque tau_Bo_E about point Bo [N·m] and force f_Bo_E [N],
    expressed in frame E."""

    __slots__ = ()
    _ROT, _TRANS = "tau", "f"

    @overloaded
    def __init__(self):
        self._set_nan()

    @__init__.overload
    def __init__(self, tau, f):
        self._set_parts(tau, f)

    @__init__.overload
    def __init__(self, F):
        self._set_coeffs(F)

    def Shift(self, offset):
        """F_Bq_E, the same force system about point Bq at p_BoBq_E [m] from Bo:
        [tau − p × f; f]."""
        p = _vec3(offset, "SpatialForce.Shift: offset")
        f = self._V[3:]
        return SpatialForce._make(np.concatenate([self._V[:3] - np.cross(p, f), f]))

    @overloaded.typed(velocity=SpatialVelocity)
    def dot(self, velocity) -> float:
        """The power F_B_E·V_MB_E [W] of this force on a SpatialVelocity V_MB_E
        expressed in the same frame E."""
        return float(self._V @ velocity._V)

    def __matmul__(self, velocity) -> float:
        """``F @ V`` is ``F.dot(V)``."""
        return self.dot(velocity)


class SpatialMomentum(_SpatialVector):
    """L_WS_E: angular momentum h about a point [kg·m²/s] and translational
    momentum l [kg·m/s], expressed in frame E."""

    __slots__ = ()
    _ROT, _TRANS = "h", "l"

    @overloaded
    def __init__(self):
        self._set_nan()

    @__init__.overload
    def __init__(self, h, l):  # noqa: E741 (pydrake's parameter name)
        self._set_parts(h, l)

    @__init__.overload
    def __init__(self, L):
        self._set_coeffs(L)

    def Shift(self, offset):
        """The momentum about the point at p_PoQ_E [m] from the current point:
        [h − p × l; l]."""
        p = _vec3(offset, "SpatialMomentum.Shift: offset")
        l_ = self._V[3:]
        return SpatialMomentum._make(np.concatenate([self._V[:3] - np.cross(p, l_), l_]))

    @overloaded.typed(velocity=SpatialVelocity)
    def dot(self, velocity) -> float:
        """L_MBp_E·V_MBp_E [J]: twice body B's kinetic energy in M, for its
        SpatialVelocity V_MBp_E at the same point Bp, expressed in the same frame E."""
        return float(self._V @ velocity._V)

    def __matmul__(self, velocity) -> float:
        """``L @ V`` is ``L.dot(V)``."""
        return self.dot(velocity)
