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

    def __init__(self, *args, **kwargs):
        names = (self._ROT, self._TRANS)
        if kwargs:
            if set(kwargs) == set(names):
                args = (kwargs[names[0]], kwargs[names[1]])
            elif len(kwargs) == 1 and not args:
                args = tuple(kwargs.values())
            else:
                raise TypeError(f"{type(self).__name__}: unexpected arguments "
                                f"{sorted(kwargs)}")
        if len(args) == 0:
            self._V = np.full(6, np.nan)
        elif len(args) == 1:
            V = np.array(args[0], dtype=float).reshape(-1)
            if V.shape != (6,):
                raise ValueError(f"{type(self).__name__}: expects 6 coefficients; got "
                                 f"shape {np.shape(args[0])}")
            self._V = V
        elif len(args) == 2:
            self._V = np.concatenate([_vec3(args[0], f"{type(self).__name__}.{names[0]}"),
                                      _vec3(args[1], f"{type(self).__name__}.{names[1]}")])
        else:
            raise TypeError(f"{type(self).__name__}: takes (), ({names[0]}, {names[1]}) "
                            f"or (V); got {len(args)} arguments")

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

    def dot(self, force=None, momentum=None):
        """The power Vᵀ·F [W] of a SpatialForce (or, with `momentum`, twice the
        kinetic energy Vᵀ·L of a SpatialMomentum), both expressed in one frame."""
        other = force if force is not None else momentum
        return float(self._V @ other._V)


class SpatialAcceleration(_SpatialVector):
    """A_AB_E: angular acceleration alpha_AB_E [rad/s²] and translational
    acceleration a_ABo_E [m/s²] of frame B in frame A, expressed in E."""

    __slots__ = ()
    _ROT, _TRANS = "alpha", "a"


class SpatialForce(_SpatialVector):
    """F_Bo_E: torque tau_Bo_E about point Bo [N·m] and force f_Bo_E [N],
    expressed in frame E."""

    __slots__ = ()
    _ROT, _TRANS = "tau", "f"

    def Shift(self, offset):
        """F_Bq_E, the same force system about point Bq at p_BoBq_E [m] from Bo:
        [tau − p × f; f]."""
        p = _vec3(offset, "SpatialForce.Shift: offset")
        f = self._V[3:]
        return SpatialForce._make(np.concatenate([self._V[:3] - np.cross(p, f), f]))

    def dot(self, velocity):
        """The power Fᵀ·V [W] of this force on a SpatialVelocity."""
        return float(self._V @ velocity._V)


class SpatialMomentum(_SpatialVector):
    """L_WS_E: angular momentum h about a point [kg·m²/s] and translational
    momentum l [kg·m/s], expressed in frame E."""

    __slots__ = ()
    _ROT, _TRANS = "h", "l"

    def Shift(self, offset):
        """The momentum about the point at p_PoQ_E [m] from the current point:
        [h − p × l; l]."""
        p = _vec3(offset, "SpatialMomentum.Shift: offset")
        l_ = self._V[3:]
        return SpatialMomentum._make(np.concatenate([self._V[:3] - np.cross(p, l_), l_]))

    def dot(self, velocity):
        """Lᵀ·V (twice the kinetic energy when V is the body's velocity)."""
        return float(self._V @ velocity._V)
