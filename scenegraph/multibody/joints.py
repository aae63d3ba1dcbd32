"""Joints (pydrake.multibody.tree): the base Joint and RevoluteJoint,
PrismaticJoint, WeldJoint, QuaternionFloatingJoint, RpyFloatingJoint,
BallRpyJoint and PlanarJoint.

A joint connects frame F (frame_on_parent, fixed to the parent body P) to
frame M (frame_on_child, fixed to the child body B) and says how M may move
in F: X_FM(q) is M's pose in F for the joint's positions q, and its
velocities v give M's spatial velocity in F, V_FM_F = H_F(q)·v, measured at
Mo and expressed in F. Per type (the kernel code `_KIND` is what
kinematics_kernels reads):

| type | q | v | X_FM(q) |
|---|---|---|---|
| revolute | θ [rad] | θ̇ | rotation by θ about the unit axis â_F |
| prismatic | d [m] | ḋ | translation d·â_F |
| weld | – | – | fixed X_FM |
| quaternion_floating | (qw, qx, qy, qz, x, y, z) | (w_FM_F, v_FM_F) | quaternion, translation |
| rpy_floating | (r, p, y, x, y, z) | (w_FM_F, v_FM_F) | RollPitchYaw(r, p, y), translation |
| ball_rpy | (r, p, y) | w_FM_F | RollPitchYaw(r, p, y) |
| planar | (x, y, θ) | (ẋ, ẏ, θ̇) | rotation θ about F's z, translation (x, y, 0) |

Damping values are stored and returned (no dynamics here).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.math import RigidTransform, RollPitchYaw, RotationMatrix
from scenegraph.multibody.element import MultibodyElement
from systems.common.overloads import overloaded

__all__ = ["Joint", "RevoluteJoint", "PrismaticJoint", "WeldJoint",
           "QuaternionFloatingJoint", "RpyFloatingJoint", "BallRpyJoint", "PlanarJoint",
           "KIND_WELD", "KIND_REVOLUTE", "KIND_PRISMATIC", "KIND_QUATERNION_FLOATING",
           "KIND_BALL_RPY", "KIND_PLANAR", "KIND_RPY_FLOATING"]

KIND_WELD, KIND_REVOLUTE, KIND_PRISMATIC, KIND_QUATERNION_FLOATING = 0, 1, 2, 3
KIND_BALL_RPY, KIND_PLANAR, KIND_RPY_FLOATING = 4, 5, 6

_INF = math.inf



def _entry(values: np.ndarray, k: int):
    """values[k] as a float, or as it is when it is not a real number (an
    AutoDiffXd of a MultibodyPlant_[AutoDiffXd]'s context, which pydrake's
    getters hand out with its derivatives)."""
    value = values[k]
    return float(value) if isinstance(value, (float, int, np.number)) else value

def _limits(value, n: int, default: float, what: str) -> np.ndarray:
    if value is None:
        return np.full(n, default)
    out = np.array(value, dtype=float).reshape(-1)
    if out.size == 1 and n != 1:
        out = np.full(n, out[0])
    if out.shape != (n,):
        raise ValueError(f"{what}: expected {n} value(s); got shape {np.shape(value)}")
    if np.isnan(out).any():
        raise ValueError(f"{what}: NaN is not a limit")
    return out


def _unit_axis(axis, joint_name: str, kind: str) -> np.ndarray:
    a = np.array(axis, dtype=float).reshape(-1)
    if a.shape != (3,) or not np.isfinite(a).all():
        raise ValueError(f"{kind} '{joint_name}': axis must be 3 finite numbers; got "
                         f"{np.asarray(axis).tolist()}")
    norm = float(np.linalg.norm(a))
    if norm < 1e-10:
        raise RuntimeError(f"{kind} '{joint_name}': the axis {a.tolist()} has (nearly) zero "
                           f"length; it must be a nonzero vector")
    return a / norm


class Joint(MultibodyElement):
    """A joint between frame F on the parent body and frame M on the child
    body (see the module docstring). Positions q and velocities v of all
    joints are concatenated, in the plant's depth-first order, into the
    plant's q and v: ``position_start()``/``velocity_start()`` say where.
    """

    __slots__ = ("_frame_on_parent", "_frame_on_child", "_q_lower", "_q_upper", "_v_lower",
                 "_v_upper", "_a_lower", "_a_upper", "_damping", "_q_default", "_q_start",
                 "_v_start")
    _KIND = -1
    _NQ = _NV = 0
    _Q_SUFFIX: tuple = ()
    _V_SUFFIX: tuple = ()
    kTypeName = ""

    def __init__(self, name, frame_on_parent, frame_on_child, damping=None,
                 pos_lower_limits=None, pos_upper_limits=None):
        from scenegraph.multibody.frames import Frame
        for what, frame in (("frame_on_parent", frame_on_parent),
                            ("frame_on_child", frame_on_child)):
            if not isinstance(frame, Frame):
                raise TypeError(f"{type(self).__name__} '{name}': {what} must be a Frame; "
                                f"got {type(frame).__name__}")
        super().__init__(name, frame_on_child.model_instance())
        if frame_on_parent.body() is frame_on_child.body():
            raise RuntimeError(
                f"{type(self).__name__} '{name}': frame_on_parent '{frame_on_parent.name()}' "
                f"and frame_on_child '{frame_on_child.name()}' are on the same body "
                f"'{frame_on_child.body().name()}'")
        self._frame_on_parent, self._frame_on_child = frame_on_parent, frame_on_child
        nq, nv = self._NQ, self._NV
        self._q_lower = _limits(pos_lower_limits, nq, -_INF, f"{name}: pos_lower_limits")
        self._q_upper = _limits(pos_upper_limits, nq, _INF, f"{name}: pos_upper_limits")
        if (self._q_lower > self._q_upper).any():
            raise RuntimeError(f"{type(self).__name__} '{name}': a lower position limit "
                               f"{self._q_lower.tolist()} exceeds the upper "
                               f"{self._q_upper.tolist()}")
        self._v_lower, self._v_upper = np.full(nv, -_INF), np.full(nv, _INF)
        self._a_lower, self._a_upper = np.full(nv, -_INF), np.full(nv, _INF)
        self._damping = _limits(damping if damping is not None else 0.0, nv, 0.0,
                                f"{name}: damping") if nv else np.zeros(0)
        if (self._damping < 0).any():
            raise RuntimeError(f"{type(self).__name__} '{name}': damping must be "
                               f"non-negative; got {self._damping.tolist()}")
        self._q_default = self._zero_configuration()
        self._q_start = self._v_start = None

    def _zero_configuration(self) -> np.ndarray:
        return np.zeros(self._NQ)

    # --- structure -------------------------------------------------------------------
    def type_name(self) -> str:
        """The joint type's name ("revolute", "prismatic", "weld", ...)."""
        return self.kTypeName

    def frame_on_parent(self):
        """F, the joint's frame on the parent body."""
        return self._frame_on_parent

    def frame_on_child(self):
        """M, the joint's frame on the child body."""
        return self._frame_on_child

    def parent_body(self):
        """The parent (inboard) body."""
        return self._frame_on_parent.body()

    def child_body(self):
        """The child (outboard) body."""
        return self._frame_on_child.body()

    def num_positions(self) -> int:
        """nq, this joint's number of positions: 0 weld, 1 revolute or prismatic,
        3 ball_rpy or planar, 6 rpy_floating, 7 quaternion_floating."""
        return self._NQ

    def num_velocities(self) -> int:
        """nv, this joint's number of velocities: 0 weld, 1 revolute or prismatic,
        3 ball_rpy or planar, 6 for the floating joints."""
        return self._NV

    def position_start(self) -> int:
        """Index of this joint's first position in the plant's q.

        Raises:
          RuntimeError: the plant is not finalized."""
        if self._q_start is None:
            raise RuntimeError(f"Joint '{self._name}': position_start() is known only after "
                               f"MultibodyPlant.Finalize()")
        return self._q_start

    def velocity_start(self) -> int:
        """Index of this joint's first velocity in the plant's v (after Finalize)."""
        if self._v_start is None:
            raise RuntimeError(f"Joint '{self._name}': velocity_start() is known only after "
                               f"MultibodyPlant.Finalize()")
        return self._v_start

    def position_suffix(self, index: int) -> str:
        """The suffix naming position `index` ("q", "x", "qw", ...)."""
        return self._Q_SUFFIX[self._check_index(index, self._NQ, "position_suffix")]

    def velocity_suffix(self, index: int) -> str:
        """The suffix naming velocity `index` ("w", "v", "wx", ...)."""
        return self._V_SUFFIX[self._check_index(index, self._NV, "velocity_suffix")]

    def _check_index(self, index, n, what) -> int:
        if not 0 <= int(index) < n:
            raise IndexError(f"Joint '{self._name}'.{what}: index {index} is out of range "
                             f"[0, {n})")
        return int(index)

    def can_rotate(self) -> bool:
        """True if M may rotate in F (revolute, ball_rpy, planar and the floating
        joints). Unlike pydrake, also answered before Finalize."""
        return self._KIND in (KIND_REVOLUTE, KIND_QUATERNION_FLOATING, KIND_BALL_RPY,
                              KIND_PLANAR, KIND_RPY_FLOATING)

    def can_translate(self) -> bool:
        """True if M may translate in F (prismatic, planar and the floating
        joints). Unlike pydrake, also answered before Finalize."""
        return self._KIND in (KIND_PRISMATIC, KIND_QUATERNION_FLOATING, KIND_PLANAR,
                              KIND_RPY_FLOATING)

    # --- limits and defaults ---------------------------------------------------------------
    def position_lower_limits(self) -> np.ndarray:
        """The lower position limits (nq,) [m or rad]; −inf where unlimited."""
        return self._q_lower.copy()

    def position_upper_limits(self) -> np.ndarray:
        """The upper position limits (nq,) [m or rad]; +inf where unlimited."""
        return self._q_upper.copy()

    def velocity_lower_limits(self) -> np.ndarray:
        """The lower velocity limits (nv,) [m/s or rad/s]; −inf where unlimited."""
        return self._v_lower.copy()

    def velocity_upper_limits(self) -> np.ndarray:
        """The upper velocity limits (nv,) [m/s or rad/s]; +inf where unlimited."""
        return self._v_upper.copy()

    def acceleration_lower_limits(self) -> np.ndarray:
        """The lower acceleration limits (nv,) [m/s² or rad/s²]; −inf where
        unlimited."""
        return self._a_lower.copy()

    def acceleration_upper_limits(self) -> np.ndarray:
        """The upper acceleration limits (nv,) [m/s² or rad/s²]; +inf where
        unlimited."""
        return self._a_upper.copy()

    def _set_limits(self, lower, upper, n, attr_lower, attr_upper, what):
        self._throw_if_finalized(what)
        lo = _limits(lower, n, -_INF, f"{self._name}.{what}: lower_limits")
        hi = _limits(upper, n, _INF, f"{self._name}.{what}: upper_limits")
        if (lo > hi).any():
            raise RuntimeError(f"Joint '{self._name}'.{what}: lower limits {lo.tolist()} "
                               f"exceed upper limits {hi.tolist()}")
        setattr(self, attr_lower, lo)
        setattr(self, attr_upper, hi)

    def set_position_limits(self, lower_limits, upper_limits) -> None:
        """Sets the position limits (before Finalize)."""
        self._set_limits(lower_limits, upper_limits, self._NQ, "_q_lower", "_q_upper",
                         "set_position_limits")

    def set_velocity_limits(self, lower_limits, upper_limits) -> None:
        """Sets the velocity limits (before Finalize)."""
        self._set_limits(lower_limits, upper_limits, self._NV, "_v_lower", "_v_upper",
                         "set_velocity_limits")

    def set_acceleration_limits(self, lower_limits, upper_limits) -> None:
        """Sets the acceleration limits (before Finalize)."""
        self._set_limits(lower_limits, upper_limits, self._NV, "_a_lower", "_a_upper",
                         "set_acceleration_limits")

    def _throw_if_finalized(self, what):
        if self._plant is not None and self._plant.is_finalized():
            raise RuntimeError(f"Joint '{self._name}'.{what}: not allowed after "
                               f"MultibodyPlant.Finalize()")

    def default_positions(self) -> np.ndarray:
        """The positions this joint takes in a new context (nq,)."""
        return self._q_default.copy()

    def set_default_positions(self, default_positions) -> None:
        """Sets the positions a new context starts with (nq,)."""
        q = np.array(default_positions, dtype=float).reshape(-1)
        if q.shape != (self._NQ,):
            raise ValueError(f"Joint '{self._name}'.set_default_positions: expected "
                             f"{self._NQ} values; got shape {np.shape(default_positions)}")
        self._q_default = q
        if self._plant is not None:
            self._plant._on_default_positions_changed()

    def default_damping_vector(self) -> np.ndarray:
        """The viscous damping coefficients d (nv,) of τ = −d·v [N·m·s on
        rotations, N·s/m on translations]; zeros (0,) for a weld. Stored only:
        no dynamics here."""
        return self._damping.copy()

    def set_default_damping_vector(self, damping) -> None:
        """Sets d (nv,) [N·m·s or N·s/m]; one value is used for every velocity.

        Raises:
          ValueError: not nv values (or one), or a NaN.
          RuntimeError: a negative coefficient, or after Finalize."""
        self._throw_if_finalized("set_default_damping_vector")
        damping = _limits(damping, self._NV, 0.0, f"{self._name}: damping")
        if (damping < 0).any():
            raise RuntimeError(f"Joint '{self._name}': damping must be non-negative; got "
                               f"{damping.tolist()}")
        self._damping = damping

    def GetDampingVector(self, context) -> np.ndarray:
        """d (nv,) [N·m·s or N·s/m] in `context`: the default here (damping is
        not a context parameter).

        Raises:
          RuntimeError: the joint is not in a plant, or `context` is another
            system's."""
        self._plant_checked("GetDampingVector").ValidateContext(context)
        return self._damping.copy()

    # --- positions and velocities in a context ----------------------------------------------
    def _q(self, context) -> np.ndarray:
        plant = self._plant_checked("positions")
        q = plant._positions_of(context)
        s = self.position_start()
        return q[s:s + self._NQ]

    def _v(self, context) -> np.ndarray:
        plant = self._plant_checked("velocities")
        v = plant._velocities_of(context)
        s = self.velocity_start()
        return v[s:s + self._NV]

    def _set_q(self, context, values) -> None:
        self._plant_checked("set positions")._set_joint_positions(context, self, values)

    def _set_v(self, context, values) -> None:
        self._plant_checked("set velocities")._set_joint_velocities(context, self, values)

    def GetPositions(self, context) -> np.ndarray:
        """This joint's positions in `context` (nq,) (an extension; a copy)."""
        return self._q(context).copy()

    def SetPositions(self, context, q) -> None:
        """Sets this joint's positions in `context` (an extension)."""
        self._set_q(context, q)

    def GetVelocities(self, context) -> np.ndarray:
        """This joint's velocities in `context` (nv,) (an extension; a copy)."""
        return self._v(context).copy()

    def SetVelocities(self, context, v) -> None:
        """Sets this joint's velocities in `context` (an extension)."""
        self._set_v(context, v)

    def GetOnePosition(self, context) -> float:
        """The position of a one-position joint."""
        if self._NQ != 1:
            raise RuntimeError(f"Joint '{self._name}'.GetOnePosition: the joint has "
                               f"{self._NQ} positions, not one")
        return _entry(self._q(context), 0)

    def GetOneVelocity(self, context) -> float:
        """The velocity of a one-velocity joint."""
        if self._NV != 1:
            raise RuntimeError(f"Joint '{self._name}'.GetOneVelocity: the joint has "
                               f"{self._NV} velocities, not one")
        return _entry(self._v(context), 0)

    # --- kinematics data for the compiled kernels ---------------------------------------------
    def _axis_param(self) -> np.ndarray:
        """The (3,) parameter the kernel reads (axis for revolute/prismatic)."""
        return np.zeros(3)

    def _fixed_X_FM(self) -> RigidTransform:
        """The fixed X_FM of a weld (identity otherwise)."""
        return RigidTransform()

    # --- pose helpers for the default pose of floating joints ------------------------------------
    def GetDefaultPose(self) -> RigidTransform:
        """X_FM at the default positions."""
        return self._X_FM_of(self._q_default)

    def _X_FM_of(self, q) -> RigidTransform:
        from scenegraph.multibody.kinematics_kernels import joint_pose
        R, p = np.empty((3, 3)), np.empty(3)
        Xw = self._fixed_X_FM()
        joint_pose(self._KIND, np.asarray(q, dtype=float), 0, self._axis_param(),
                   np.ascontiguousarray(Xw.rotation().matrix()), Xw.translation(), R, p)
        return RigidTransform(RotationMatrix(R), p)

    def SetDefaultPose(self, X_FM) -> None:
        """Sets the default positions so that X_FM is as given (floating joints).

        Raises:
          RuntimeError: on every other joint type, as pydrake's."""
        raise RuntimeError(f"Joint '{self._name}' ({self.kTypeName}) cannot be set to an "
                           f"arbitrary pose")


class RevoluteJoint(Joint):
    """Rotation θ [rad] about a unit axis â (the same in F and M).

    ``RevoluteJoint(name, frame_on_parent, frame_on_child, axis, damping=0)`` or
    ``RevoluteJoint(name, frame_on_parent, frame_on_child, axis, pos_lower_limit,
    pos_upper_limit, damping=0.0)``. `axis` (3,) is normalized; damping [N·m·s].
    """

    __slots__ = ("_axis",)
    _KIND, _NQ, _NV = KIND_REVOLUTE, 1, 1
    _Q_SUFFIX, _V_SUFFIX = ("q",), ("w",)
    kTypeName = "revolute"

    @overloaded
    def __init__(self, name, frame_on_parent, frame_on_child, axis, damping=0):
        self._init(name, frame_on_parent, frame_on_child, axis, -_INF, _INF, damping)

    @__init__.overload
    def __init__(self, name, frame_on_parent, frame_on_child, axis, pos_lower_limit,
                 pos_upper_limit, damping=0.0):
        self._init(name, frame_on_parent, frame_on_child, axis, pos_lower_limit,
                   pos_upper_limit, damping)

    def _init(self, name, frame_on_parent, frame_on_child, axis, lower, upper, damping):
        Joint.__init__(self, name, frame_on_parent, frame_on_child, damping, [lower],
                       [upper])
        self._axis = _unit_axis(axis, name, "RevoluteJoint")

    def revolute_axis(self) -> np.ndarray:
        """â (3,), the unit axis, expressed in F (and in M)."""
        return self._axis.copy()

    def _axis_param(self):
        return self._axis

    # The limit and damping accessors below are shared with PrismaticJoint: units
    # are rad-based on a RevoluteJoint, m-based on a PrismaticJoint.
    def position_lower_limit(self) -> float:
        """The lower position limit [rad, or m on a PrismaticJoint]; −inf when
        unlimited."""
        return float(self._q_lower[0])

    def position_upper_limit(self) -> float:
        """The upper position limit [rad, or m on a PrismaticJoint]; +inf when
        unlimited."""
        return float(self._q_upper[0])

    def velocity_lower_limit(self) -> float:
        """The lower velocity limit [rad/s, or m/s on a PrismaticJoint]; −inf when
        unlimited."""
        return float(self._v_lower[0])

    def velocity_upper_limit(self) -> float:
        """The upper velocity limit [rad/s, or m/s on a PrismaticJoint]; +inf when
        unlimited."""
        return float(self._v_upper[0])

    def acceleration_lower_limit(self) -> float:
        """The lower acceleration limit [rad/s², or m/s² on a PrismaticJoint]; −inf
        when unlimited."""
        return float(self._a_lower[0])

    def acceleration_upper_limit(self) -> float:
        """The upper acceleration limit [rad/s², or m/s² on a PrismaticJoint]; +inf
        when unlimited."""
        return float(self._a_upper[0])

    def default_damping(self) -> float:
        """The viscous damping coefficient d [N·m·s, or N·s/m on a
        PrismaticJoint] (stored only: no dynamics here)."""
        return float(self._damping[0])

    def set_default_damping(self, damping) -> None:
        """Sets d [N·m·s, or N·s/m on a PrismaticJoint] (stored only).

        Raises:
          ValueError: `damping` is NaN.

        Unlike pydrake, a negative value or a finalized plant is not refused."""
        self.set_default_damping_vector([damping])

    def GetDamping(self, context) -> float:
        """d in `context` [N·m·s, or N·s/m on a PrismaticJoint]: the default here
        (damping is not a context parameter).

        Raises:
          RuntimeError: the joint is not in a plant, or `context` is another
            system's."""
        return float(self.GetDampingVector(context)[0])

    def get_angle(self, context) -> float:
        """θ [rad]."""
        return _entry(self._q(context), 0)

    def set_angle(self, context, angle):
        """Sets θ [rad]; returns this joint, as pydrake's."""
        self._set_q(context, [angle])
        return self

    def get_angular_rate(self, context) -> float:
        """θ̇ [rad/s]."""
        return _entry(self._v(context), 0)

    def set_angular_rate(self, context, angle):
        """Sets θ̇ [rad/s] (pydrake names the argument `angle`); returns this joint."""
        self._set_v(context, [angle])
        return self

    def get_default_angle(self) -> float:
        """The default θ [rad] new contexts start with."""
        return float(self._q_default[0])

    def set_default_angle(self, angle) -> None:
        """Sets the default θ [rad] (contexts created afterwards start there)."""
        self.set_default_positions([angle])


class PrismaticJoint(Joint):
    """Translation d [m] along a unit axis â (the same in F and M).

    ``PrismaticJoint(name, frame_on_parent, frame_on_child, axis,
    pos_lower_limit=-inf, pos_upper_limit=inf, damping=0)``; damping [N·s/m].
    """

    __slots__ = ("_axis",)
    _KIND, _NQ, _NV = KIND_PRISMATIC, 1, 1
    _Q_SUFFIX, _V_SUFFIX = ("x",), ("v",)
    kTypeName = "prismatic"

    def __init__(self, name, frame_on_parent, frame_on_child, axis, pos_lower_limit=-_INF,
                 pos_upper_limit=_INF, damping=0):
        Joint.__init__(self, name, frame_on_parent, frame_on_child, damping,
                       [pos_lower_limit], [pos_upper_limit])
        self._axis = _unit_axis(axis, name, "PrismaticJoint")

    def translation_axis(self) -> np.ndarray:
        """â (3,), the unit axis, expressed in F (and in M)."""
        return self._axis.copy()

    def _axis_param(self):
        return self._axis

    position_lower_limit = RevoluteJoint.position_lower_limit
    position_upper_limit = RevoluteJoint.position_upper_limit
    velocity_lower_limit = RevoluteJoint.velocity_lower_limit
    velocity_upper_limit = RevoluteJoint.velocity_upper_limit
    acceleration_lower_limit = RevoluteJoint.acceleration_lower_limit
    acceleration_upper_limit = RevoluteJoint.acceleration_upper_limit
    default_damping = RevoluteJoint.default_damping
    set_default_damping = RevoluteJoint.set_default_damping
    GetDamping = RevoluteJoint.GetDamping

    def get_translation(self, context) -> float:
        """d [m]."""
        return _entry(self._q(context), 0)

    def set_translation(self, context, translation):
        """Sets d [m]; returns this joint, as pydrake's."""
        self._set_q(context, [translation])
        return self

    def get_translation_rate(self, context) -> float:
        """ḋ [m/s]."""
        return _entry(self._v(context), 0)

    def set_translation_rate(self, context, translation_dot):
        """Sets ḋ [m/s]; returns this joint, as pydrake's."""
        self._set_v(context, [translation_dot])
        return self

    def get_default_translation(self) -> float:
        """The default d [m] new contexts start with."""
        return float(self._q_default[0])

    def set_default_translation(self, translation) -> None:
        """Sets the default d [m] (contexts created afterwards start there)."""
        self.set_default_positions([translation])


class WeldJoint(Joint):
    """M fixed at X_FM in F: ``WeldJoint(name, frame_on_parent_F,
    frame_on_child_M, X_FM)``. No positions or velocities."""

    __slots__ = ("_X_FM",)
    _KIND, _NQ, _NV = KIND_WELD, 0, 0
    kTypeName = "weld"

    def __init__(self, name, frame_on_parent_F, frame_on_child_M, X_FM):
        if not isinstance(X_FM, RigidTransform):
            raise TypeError(f"WeldJoint '{name}': X_FM must be a RigidTransform; got "
                            f"{type(X_FM).__name__}")
        Joint.__init__(self, name, frame_on_parent_F, frame_on_child_M)
        self._X_FM = RigidTransform(X_FM)

    def X_FM(self) -> RigidTransform:
        """The fixed pose of M in F."""
        return RigidTransform(self._X_FM)

    def _fixed_X_FM(self):
        return self._X_FM


class _FloatingPose:
    """Accessors shared by the 6-dof joints (translation in F, v_FM_F)."""

    __slots__ = ()

    def get_translation(self, context) -> np.ndarray:
        """p_FoMo_F (3,) [m]."""
        return self._q(context)[-3:].copy()

    def SetTranslation(self, context, p_FM):
        """Sets p_FoMo_F (3,) [m]; returns this joint, as pydrake's."""
        q = self._q(context).copy()
        q[-3:] = np.asarray(p_FM, dtype=float).reshape(3)
        self._set_q(context, q)
        return self

    set_translation = SetTranslation

    def get_angular_velocity(self, context) -> np.ndarray:
        """w_FM_F (3,) [rad/s]."""
        return self._v(context)[:3].copy()

    def set_angular_velocity(self, context, w_FM):
        """Sets w_FM_F (3,) [rad/s]; returns this joint, as pydrake's."""
        v = self._v(context).copy()
        v[:3] = np.asarray(w_FM, dtype=float).reshape(3)
        self._set_v(context, v)
        return self

    def get_translational_velocity(self, context) -> np.ndarray:
        """v_FMo_F (3,) [m/s]."""
        return self._v(context)[3:].copy()

    def set_translational_velocity(self, context, v_FM):
        """Sets v_FMo_F (3,) [m/s]; returns this joint, as pydrake's."""
        v = self._v(context).copy()
        v[3:] = np.asarray(v_FM, dtype=float).reshape(3)
        self._set_v(context, v)
        return self

    def GetPose(self, context) -> RigidTransform:
        """X_FM in `context`."""
        return self._X_FM_of(self._q(context))

    def get_default_translation(self) -> np.ndarray:
        """The default p_FoMo_F (3,) [m] new contexts start with."""
        return self._q_default[-3:].copy()

    def set_default_translation(self, translation) -> None:
        """Sets the default p_FoMo_F (3,) [m], keeping the default orientation."""
        q = self._q_default.copy()
        q[-3:] = np.asarray(translation, dtype=float).reshape(3)
        self.set_default_positions(q)

    def default_angular_damping(self) -> float:
        """The damping coefficient d of τ = −d·w_FM [N·m·s] (stored only)."""
        return float(self._damping[0])

    def default_translational_damping(self) -> float:
        """The damping coefficient d of f = −d·v_FMo [N·s/m] (stored only)."""
        return float(self._damping[3])


class QuaternionFloatingJoint(_FloatingPose, Joint):
    """Free motion: q = (qw, qx, qy, qz, x, y, z) (a quaternion of R_FM, not
    necessarily unit length, and p_FoMo_F [m]); v = (w_FM_F, v_FMo_F).

    ``QuaternionFloatingJoint(name, frame_on_parent, frame_on_child,
    angular_damping=0, translational_damping=0)``.
    """

    __slots__ = ()
    _KIND, _NQ, _NV = KIND_QUATERNION_FLOATING, 7, 6
    _Q_SUFFIX = ("qw", "qx", "qy", "qz", "x", "y", "z")
    _V_SUFFIX = ("wx", "wy", "wz", "vx", "vy", "vz")
    kTypeName = "quaternion_floating"

    def __init__(self, name, frame_on_parent, frame_on_child, angular_damping=0,
                 translational_damping=0):
        Joint.__init__(self, name, frame_on_parent, frame_on_child,
                       [angular_damping] * 3 + [translational_damping] * 3)

    def _zero_configuration(self):
        return np.array([1.0, 0, 0, 0, 0, 0, 0])

    def get_quaternion(self, context):
        """The orientation quaternion (a Quaternion, normalized)."""
        from scenegraph.math import Quaternion
        q = self._q(context)[:4]
        return Quaternion(q / np.linalg.norm(q))

    def SetQuaternion(self, context, q_FM):
        """Sets the orientation from a Quaternion; returns this joint, as pydrake's."""
        q = self._q(context).copy()
        q[:4] = q_FM.wxyz() if hasattr(q_FM, "wxyz") else np.asarray(q_FM, float)
        self._set_q(context, q)
        return self

    def SetOrientation(self, context, R):
        """Sets the orientation from a RotationMatrix R_FM; returns this joint."""
        return self.SetQuaternion(context, R.ToQuaternion())

    def SetPose(self, context, X_FM):
        """Sets X_FM; returns this joint, as pydrake's."""
        q = np.concatenate([X_FM.rotation().ToQuaternion().wxyz(), X_FM.translation()])
        self._set_q(context, q)
        return self

    def SetDefaultPose(self, X_FM) -> None:
        """Sets the default q to X_FM's quaternion (qw, qx, qy, qz) and
        translation p_FoMo_F [m]."""
        self.set_default_positions(np.concatenate([X_FM.rotation().ToQuaternion().wxyz(),
                                                   X_FM.translation()]))

    def get_default_quaternion(self):
        """q_FM, the default orientation new contexts start with (a Quaternion,
        normalized)."""
        from scenegraph.math import Quaternion
        q = self._q_default[:4]
        return Quaternion(q / np.linalg.norm(q))

    def set_default_quaternion(self, q_FM) -> None:
        """Sets the default orientation from a Quaternion q_FM (or, an extension,
        (4,) values (w, x, y, z)), keeping the default translation; stored as
        given, normalized when read."""
        q = self._q_default.copy()
        q[:4] = q_FM.wxyz() if hasattr(q_FM, "wxyz") else np.asarray(q_FM, float)
        self.set_default_positions(q)


class RpyFloatingJoint(_FloatingPose, Joint):
    """Free motion: q = (roll, pitch, yaw [rad], x, y, z [m]) with
    R_FM = RollPitchYaw(roll, pitch, yaw); v = (w_FM_F, v_FMo_F)."""

    __slots__ = ()
    _KIND, _NQ, _NV = KIND_RPY_FLOATING, 6, 6
    _Q_SUFFIX = ("qx", "qy", "qz", "x", "y", "z")
    _V_SUFFIX = ("wx", "wy", "wz", "vx", "vy", "vz")
    kTypeName = "rpy_floating"

    def __init__(self, name, frame_on_parent, frame_on_child, angular_damping=0,
                 translational_damping=0):
        Joint.__init__(self, name, frame_on_parent, frame_on_child,
                       [angular_damping] * 3 + [translational_damping] * 3)

    def get_angles(self, context) -> np.ndarray:
        """(roll, pitch, yaw) (3,) [rad]."""
        return self._q(context)[:3].copy()

    def set_angles(self, context, angles):
        """Sets (roll, pitch, yaw) [rad]; returns this joint, as pydrake's."""
        q = self._q(context).copy()
        q[:3] = np.asarray(angles, dtype=float).reshape(3)
        self._set_q(context, q)
        return self

    def SetOrientation(self, context, R_FM):
        """Sets the angles from R_FM (a RotationMatrix) as roll-pitch-yaw [rad];
        returns this joint."""
        return self.set_angles(context, RollPitchYaw(R_FM).vector())

    def SetPose(self, context, X_FM):
        """Sets X_FM; returns this joint, as pydrake's."""
        self._set_q(context, np.concatenate([RollPitchYaw(X_FM.rotation()).vector(),
                                             X_FM.translation()]))
        return self

    def SetDefaultPose(self, X_FM) -> None:
        """Sets the default q to X_FM's roll-pitch-yaw angles [rad] and
        translation p_FoMo_F [m]."""
        self.set_default_positions(np.concatenate([RollPitchYaw(X_FM.rotation()).vector(),
                                                   X_FM.translation()]))

    def get_default_angles(self) -> np.ndarray:
        """The default (roll, pitch, yaw) (3,) [rad] new contexts start with."""
        return self._q_default[:3].copy()

    def set_default_angles(self, angles) -> None:
        """Sets the default (roll, pitch, yaw) (3,) [rad] (an RpyFloatingJoint
        keeps its default translation)."""
        q = self._q_default.copy()
        q[:3] = np.asarray(angles, dtype=float).reshape(3)
        self.set_default_positions(q)

    def set_default_translation(self, p_FM) -> None:
        """Sets the default p_FoMo_F (3,) [m] (pydrake names it p_FM here,
        `translation` on QuaternionFloatingJoint)."""
        _FloatingPose.set_default_translation(self, p_FM)


class BallRpyJoint(Joint):
    """Rotation only: q = (roll, pitch, yaw) [rad], R_FM = RollPitchYaw(q);
    v = w_FM_F [rad/s]. ``BallRpyJoint(name, frame_on_parent, frame_on_child,
    damping=0)``."""

    __slots__ = ()
    _KIND, _NQ, _NV = KIND_BALL_RPY, 3, 3
    _Q_SUFFIX, _V_SUFFIX = ("qx", "qy", "qz"), ("wx", "wy", "wz")
    kTypeName = "ball_rpy"

    def __init__(self, name, frame_on_parent, frame_on_child, damping=0):
        Joint.__init__(self, name, frame_on_parent, frame_on_child, [damping] * 3)

    def default_damping(self) -> float:
        """The damping coefficient d of τ = −d·w_FM [N·m·s], the same on all three
        velocities (stored only)."""
        return float(self._damping[0])

    get_angles = RpyFloatingJoint.get_angles
    set_angles = RpyFloatingJoint.set_angles
    get_default_angles = RpyFloatingJoint.get_default_angles
    set_default_angles = RpyFloatingJoint.set_default_angles
    get_angular_velocity = _FloatingPose.get_angular_velocity

    def set_angular_velocity(self, context, w_FM):
        """Sets w_FM_F (3,) [rad/s]; returns this joint, as pydrake's."""
        self._set_v(context, np.asarray(w_FM, dtype=float).reshape(3))
        return self


class PlanarJoint(Joint):
    """Motion in F's xy plane: q = (x, y [m], θ [rad] about F's z);
    v = (ẋ, ẏ, θ̇). ``PlanarJoint(name, frame_on_parent, frame_on_child,
    damping=[0, 0, 0])``."""

    __slots__ = ()
    _KIND, _NQ, _NV = KIND_PLANAR, 3, 3
    _Q_SUFFIX, _V_SUFFIX = ("x", "y", "qz"), ("vx", "vy", "wz")
    kTypeName = "planar"

    def __init__(self, name, frame_on_parent, frame_on_child, damping=(0.0, 0.0, 0.0)):
        Joint.__init__(self, name, frame_on_parent, frame_on_child, damping)

    def default_damping(self) -> np.ndarray:
        """The damping coefficients (3,) for (ẋ, ẏ, θ̇): [N·s/m, N·s/m, N·m·s]
        (stored only)."""
        return self._damping.copy()

    def get_translation(self, context) -> np.ndarray:
        """(x, y) (2,) [m]."""
        return self._q(context)[:2].copy()

    def set_translation(self, context, p_FoMo_F):
        """Sets (x, y) [m]; returns this joint, as pydrake's."""
        q = self._q(context).copy()
        q[:2] = np.asarray(p_FoMo_F, dtype=float).reshape(2)
        self._set_q(context, q)
        return self

    def get_rotation(self, context) -> float:
        """θ [rad]."""
        return _entry(self._q(context), 2)

    def set_rotation(self, context, theta):
        """Sets θ [rad]; returns this joint, as pydrake's."""
        q = self._q(context).copy()
        q[2] = float(theta)
        self._set_q(context, q)
        return self

    def set_pose(self, context, p_FoMo_F, theta):
        """Sets (x, y) [m] and θ [rad]; returns this joint, as pydrake's."""
        self._set_q(context, np.concatenate([np.asarray(p_FoMo_F, float).reshape(2),
                                             [float(theta)]]))
        return self

    def get_translational_velocity(self, context) -> np.ndarray:
        """(ẋ, ẏ) (2,) [m/s]: v_FMo_F's components along F's x and y."""
        return self._v(context)[:2].copy()

    def set_translational_velocity(self, context, v_FoMo_F):
        """Sets (ẋ, ẏ) [m/s]; returns this joint, as pydrake's."""
        v = self._v(context).copy()
        v[:2] = np.asarray(v_FoMo_F, dtype=float).reshape(2)
        self._set_v(context, v)
        return self

    def get_angular_velocity(self, context) -> float:
        """θ̇ [rad/s], M's rotation rate about F's z."""
        return _entry(self._v(context), 2)

    def set_angular_velocity(self, context, theta_dot):
        """Sets θ̇ [rad/s]; returns this joint, as pydrake's."""
        v = self._v(context).copy()
        v[2] = float(theta_dot)
        self._set_v(context, v)
        return self

    def get_default_translation(self) -> np.ndarray:
        """The default (x, y) (2,) [m] new contexts start with."""
        return self._q_default[:2].copy()

    def get_default_rotation(self) -> float:
        """The default θ [rad] new contexts start with."""
        return float(self._q_default[2])

    def set_default_translation(self, p_FoMo_F) -> None:
        """Sets the default (x, y) (2,) [m], keeping the default θ."""
        q = self._q_default.copy()
        q[:2] = np.asarray(p_FoMo_F, dtype=float).reshape(2)
        self.set_default_positions(q)

    def set_default_rotation(self, theta) -> None:
        """Sets the default θ [rad], keeping the default (x, y)."""
        q = self._q_default.copy()
        q[2] = float(theta)
        self.set_default_positions(q)

    def set_default_pose(self, p_FoMo_F, theta) -> None:
        """Sets the default (x, y) (2,) [m] and θ [rad]."""
        self.set_default_positions(np.concatenate([np.asarray(p_FoMo_F, float).reshape(2),
                                                   [float(theta)]]))
