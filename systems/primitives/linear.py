"""Linear and affine systems: AffineSystem, LinearSystem, MatrixGain, Gain,
Integrator and FirstOrderLowPassFilter (pydrake's names, ports and semantics).

AffineSystem, continuous (time_period = 0):
    ẋ = A x + B u + f0,        y = C x + D u + y0
discrete (time_period = h > 0), updated at t = 0, h, 2h, ...:
    x[n+1] = A x[n] + B u[n] + f0,   y[n] = C x[n] + D u[n] + y0

Output ports declare narrow prerequisites: state only when C ≠ 0, the input
only when D ≠ 0 (as Drake's AffineSystem), so an Integrator or a strictly
proper LinearSystem breaks algebraic loops and outputs are recomputed only
when what they read changes.
"""
from __future__ import annotations

import numpy as np

from systems.framework import BasicVector, LeafSystem, kUseDefaultName
from systems.common.overloads import overloaded

from ._checks import as_matrix, as_period, as_size, as_vector, is_size

__all__ = ["AffineSystem", "LinearSystem", "MatrixGain", "Gain", "Integrator",
           "FirstOrderLowPassFilter"]


def _infer(dims, what: str) -> int:
    """The common value of the (name, size) pairs in `dims` (0 when empty)."""
    if not dims:
        return 0
    sizes = {size for _, size in dims}
    if len(sizes) > 1:
        detail = ", ".join(f"{name} = {size}" for name, size in dims)
        raise ValueError(f"AffineSystem: inconsistent {what}: {detail}")
    return sizes.pop()


def _meaningful(matrix: np.ndarray) -> bool:
    return matrix.size > 0 and bool(np.any(matrix != 0))


class _StateDefaults:
    """Mixin: change the default (model) value of the single state vector."""

    def _set_default_state_vector(self, value: np.ndarray) -> None:
        if self._discrete_models:
            self._discrete_models[0].SetFromVector(value)
        else:
            self._xc_model.SetFromVector(value)


class _RandomAffineState(_StateDefaults):
    """Mixin of the affine systems: the state's random distribution (Drake's
    TimeVaryingAffineSystem::configure_random_state and SetRandomState)."""

    def configure_random_state(self, covariance) -> None:
        """Makes SetRandomContext draw the state x ~ N(x0, covariance): x = x0 + L·w,
        L Lᵀ = covariance (n, n), w standard normal from the generator; x0 the
        default state.

        Raises:
          ValueError: covariance is not (n, n) or not symmetric positive semidefinite.
        """
        name = f"{type(self).__name__}.configure_random_state"
        cov = as_matrix(covariance, f"{name}: covariance")
        n = self._default_state_vector().size
        if cov.shape != (n, n):
            raise ValueError(f"{name}: covariance is {cov.shape[0]}x{cov.shape[1]} but the "
                             f"system has {n} states")
        lam, V = np.linalg.eigh(cov) if n else (np.zeros(0), np.zeros((0, 0)))
        scale = max(1.0, float(np.abs(cov).max())) if n else 1.0
        if not np.isfinite(cov).all() or not np.allclose(cov, cov.T, rtol=0.0,
                                                         atol=1e-12 * scale) \
                or (n and lam.min() < -1e-12 * scale):
            raise ValueError(f"{name}: covariance is not symmetric positive semidefinite: "
                             f"{cov.tolist()}")
        try:
            self._sqrt_sigma_x0 = np.linalg.cholesky(cov)
        except np.linalg.LinAlgError:       # singular: a square root from the eigenbasis
            self._sqrt_sigma_x0 = V * np.sqrt(np.clip(lam, 0.0, None))

    def _default_state_vector(self) -> np.ndarray:
        if self._discrete_models:
            return self._discrete_models[0].CopyToVector()
        model = getattr(self, "_xc_model", None)
        return np.zeros(0) if model is None else model.CopyToVector()

    def SetRandomContext(self, context, generator=None) -> None:
        """Default parameters; the state drawn as configure_random_state says (n
        standard normals from `generator`, as Drake draws them even without a
        covariance; a fixed-seed generator when None)."""
        super().SetRandomContext(context, generator)
        x0 = self._default_state_vector()
        if not x0.size:
            return
        rng = generator if generator is not None else np.random.default_rng(0)
        w = rng.standard_normal(x0.size)
        L = getattr(self, "_sqrt_sigma_x0", None)
        x = x0 + (L @ w if L is not None else 0.0)
        if self._discrete_models:
            context.get_mutable_discrete_state_vector().SetFromVector(x)
        else:
            context.get_mutable_continuous_state_vector().SetFromVector(x)


class AffineSystem(_RandomAffineState, LeafSystem):
    """A (continuous or discrete) affine system (pydrake's ``AffineSystem``).

    A (n, n), B (n, m), f0 (n,), C (p, n), D (p, m), y0 (p,); time_period h [s]
    (0 for continuous time). As in pydrake every argument defaults to empty; an
    empty (or None) argument stands for zeros of the shape the others imply,
    and non-empty ones must agree. Ports: input "u0" (size m) if m > 0,
    output "y0" (size p) if p > 0. The default state is zero (see
    ``configure_default_state``).
    """

    def __init__(self, A=None, B=None, f0=None, C=None, D=None, y0=None,
                 time_period=0.0):
        A = as_matrix(A, "AffineSystem: A")
        B = as_matrix(B, "AffineSystem: B")
        C = as_matrix(C, "AffineSystem: C")
        D = as_matrix(D, "AffineSystem: D")
        f0 = np.zeros(0) if f0 is None else as_vector(f0, "AffineSystem: f0")
        y0 = np.zeros(0) if y0 is None else as_vector(y0, "AffineSystem: y0")
        period = as_period(time_period, "AffineSystem: time_period", allow_zero=True)
        given = {name: m for name, m in (("A", A), ("B", B), ("C", C), ("D", D),
                                         ("f0", f0), ("y0", y0)) if m.size}
        n = _infer([(f"{k}.shape[{i}]", given[k].shape[i])
                    for k, i in (("A", 0), ("A", 1), ("B", 0), ("C", 1))
                    if k in given] + ([("f0.size", f0.size)] if f0.size else []),
                   "number of states")
        m = _infer([(f"{k}.shape[1]", given[k].shape[1]) for k in ("B", "D")
                    if k in given], "number of inputs")
        p = _infer([(f"{k}.shape[0]", given[k].shape[0]) for k in ("C", "D")
                    if k in given] + ([("y0.size", y0.size)] if y0.size else []),
                   "number of outputs")
        super().__init__()
        self._A = A if A.size else np.zeros((n, n))
        self._B = B if B.size else np.zeros((n, m))
        self._f0 = f0 if f0.size else np.zeros(n)
        self._C = C if C.size else np.zeros((p, n))
        self._D = D if D.size else np.zeros((p, m))
        self._y0 = y0 if y0.size else np.zeros(p)
        self._num_states, self._num_inputs, self._num_outputs = n, m, p
        self._time_period = period
        self._has_B = m > 0 and _meaningful(self._B)
        self._has_f0 = _meaningful(self._f0)
        self._has_C = _meaningful(self._C)
        self._has_D = _meaningful(self._D)
        state_ticket = None
        if n > 0:
            if period == 0.0:
                self.DeclareContinuousState(BasicVector(np.zeros(n)))
                state_ticket = self.xc_ticket()
            else:
                self.DeclareDiscreteState(n)
                self.DeclarePeriodicDiscreteUpdateEvent(period, 0.0,
                                                        self._update_discrete)
                # As Drake's TimeVaryingAffineSystem: the same update when forced.
                self.DeclareForcedDiscreteUpdateEvent(self._update_discrete)
                state_ticket = self.discrete_state_ticket(0)
        if m > 0:
            self.DeclareVectorInputPort(kUseDefaultName, m)
        if p > 0:
            prerequisites = set()
            if self._has_C:
                prerequisites.add(state_ticket)
            if self._has_D:
                prerequisites.add(self.input_port_ticket(0))
            self.DeclareVectorOutputPort(kUseDefaultName, p, self._calc_output,
                                         prerequisites_of_calc=prerequisites)

    # --- dynamics and output -------------------------------------------------
    def _state(self, context) -> np.ndarray:
        if self._time_period == 0.0:
            return context._state._continuous._vector._data
        return context._state._discrete._groups[0]._data

    def _calc_output(self, context, output) -> None:
        y = output._data
        y[:] = self._y0
        if self._has_C:
            y += self._C @ self._state(context)
        if self._has_D:
            y += self._D @ context._eval_input(0)._data

    def _next_or_derivative(self, context, x: np.ndarray) -> np.ndarray:
        value = self._A @ x
        if self._has_B:
            value += self._B @ context._eval_input(0)._data
        if self._has_f0:
            value += self._f0
        return value

    def DoCalcTimeDerivatives(self, context, derivatives) -> None:
        derivatives._vector._data[:] = self._next_or_derivative(
            context, context._state._continuous._vector._data)

    def _update_discrete(self, context, discrete_state) -> None:
        x_next = discrete_state.get_mutable_vector(0)._mutable_values()
        x_next[:] = self._next_or_derivative(context,
                                             context._state._discrete._groups[0]._data)

    def UpdateCoefficients(self, A=None, B=None, f0=None, C=None, D=None, y0=None) -> None:
        """Replaces A, B, f0, C, D, y0, each of the size it has now (as Drake's; an
        empty or omitted argument matches only an empty coefficient). Contexts keep
        their state; outputs computed before are not recomputed by this call.

        Raises:
          RuntimeError: a size differs, or a C (D) that is not zero where the current
            one is makes the output depend on the state (input), which the declared
            output port does not; nothing changes.
        """
        name = f"{type(self).__name__}.UpdateCoefficients"
        new = {"A": as_matrix(A, f"{name}: A"), "B": as_matrix(B, f"{name}: B"),
               "f0": as_vector(f0, f"{name}: f0") if f0 is not None else np.zeros(0),
               "C": as_matrix(C, f"{name}: C"), "D": as_matrix(D, f"{name}: D"),
               "y0": as_vector(y0, f"{name}: y0") if y0 is not None else np.zeros(0)}
        for key, value in new.items():
            current = getattr(self, f"_{key}")
            if value.shape != current.shape:
                raise RuntimeError(f"{name}: New and current {key} have different sizes "
                                   f"({value.shape} vs {current.shape}).")
        for key, has, dependency in (("C", self._has_C, "state"),
                                     ("D", self._has_D, "input")):
            if not has and _meaningful(new[key]):
                raise RuntimeError(
                    f"{name}: new_{key} makes the output dependent on {dependency}, when "
                    f"it was previously independent. This would change the dependencies "
                    f"of the output port, and it is currently unsupported.")
        for key, value in new.items():
            setattr(self, f"_{key}", value)
        self._has_B = self._num_inputs > 0 and _meaningful(self._B)
        self._has_f0 = _meaningful(self._f0)
        self._has_C = _meaningful(self._C)
        self._has_D = _meaningful(self._D)

    # --- pydrake accessors -----------------------------------------------------
    def A(self) -> np.ndarray:
        """A copy of the (n, n) state matrix A."""
        return self._A.copy()

    def B(self) -> np.ndarray:
        """A copy of the (n, m) input matrix B."""
        return self._B.copy()

    def f0(self) -> np.ndarray:
        """A copy of the (n,) state offset f0."""
        return self._f0.copy()

    def C(self) -> np.ndarray:
        """A copy of the (p, n) output matrix C."""
        return self._C.copy()

    def D(self) -> np.ndarray:
        """A copy of the (p, m) feedthrough matrix D."""
        return self._D.copy()

    def y0(self) -> np.ndarray:
        """A copy of the (p,) output offset y0."""
        return self._y0.copy()

    def time_period(self) -> float:
        """The update period [s]; 0 for continuous time."""
        return self._time_period

    def num_states(self) -> int:
        """n, the state size."""
        return self._num_states

    def num_inputs(self) -> int:
        """m, the input size."""
        return self._num_inputs

    def num_outputs(self) -> int:
        """p, the output size."""
        return self._num_outputs

    def get_input_port(self, port_index=None, warn_deprecated: bool = True):
        if port_index is None and self._num_inputs == 0:
            raise RuntimeError(f"{type(self).__name__} {self.GetSystemPathname()} "
                               f"has no inputs, hence no input port")
        return super().get_input_port(port_index)

    def get_output_port(self, port_index=None, warn_deprecated: bool = True):
        if port_index is None and self._num_outputs == 0:
            raise RuntimeError(f"{type(self).__name__} {self.GetSystemPathname()} "
                               f"has no outputs, hence no output port")
        return super().get_output_port(port_index)

    def configure_default_state(self, x0) -> None:
        """Sets the state (n,) that newly created Contexts start from."""
        x0 = as_vector(x0, f"{type(self).__name__}.configure_default_state: x0")
        if x0.size != self._num_states:
            raise ValueError(f"{type(self).__name__}.configure_default_state: x0 has "
                             f"size {x0.size} but the system has {self._num_states} "
                             f"states")
        if self._num_states:
            self._set_default_state_vector(x0)

    def get_default_state(self) -> np.ndarray:
        """The (n,) default state (zero unless configured)."""
        if not self._num_states:
            return np.zeros(0)
        models = self._discrete_models or [self._xc_model]
        return models[0].CopyToVector()


class LinearSystem(AffineSystem):
    """ẋ = A x + B u, y = C x + D u (or the discrete form when time_period > 0)
    (pydrake's ``LinearSystem``). Sizes and ports as AffineSystem with
    f0 = 0, y0 = 0."""

    def __init__(self, A=None, B=None, C=None, D=None, time_period=0.0):
        super().__init__(A=A, B=B, C=C, D=D, time_period=time_period)


class MatrixGain(LinearSystem):
    """y = D u (pydrake's ``MatrixGain``): ``MatrixGain(D)`` with D (p, m), or
    ``MatrixGain(size)`` for the identity of that size. Ports "u0" and "y0"."""

    def __init__(self, D):
        if is_size(D):
            D = np.eye(as_size(D, "MatrixGain: size"))
        D = as_matrix(D, "MatrixGain: D")
        if D.size == 0:
            raise ValueError(f"MatrixGain: D must be non-empty; got shape {D.shape}")
        super().__init__(D=D)


class Gain(LeafSystem):
    """y = k ⊙ u elementwise (pydrake's ``Gain``): ``Gain(k, size)`` with a
    scalar k, or ``Gain(k)`` with a (n,) vector k. Ports "u0" and "y0" (size
    n); the output depends on the input only."""

    def __init__(self, k, size=None):
        if size is not None:
            n = as_size(size, "Gain: size")
            if np.ndim(k) != 0:
                raise TypeError(f"Gain: with `size` given, k must be a scalar; "
                                f"got {k!r}")
            k = np.full(n, float(k))
        else:
            k = as_vector(k, "Gain: k")
            if k.size == 0:
                raise ValueError("Gain: k must be non-empty")
        super().__init__()
        self._k = k
        self.DeclareVectorInputPort(kUseDefaultName, k.size)
        self.DeclareVectorOutputPort(
            kUseDefaultName, k.size, self._calc_output,
            prerequisites_of_calc={self.input_port_ticket(0)})

    def _calc_output(self, context, output) -> None:
        np.multiply(self._k, context._eval_input(0)._data, out=output._data)

    def get_gain(self) -> float:
        """The gain, when every channel has the same one (else RuntimeError)."""
        if not np.all(self._k == self._k[0]):
            raise RuntimeError(f"Gain: the gain vector {self._k.tolist()} cannot be "
                               f"represented as a scalar value; use "
                               f"get_gain_vector() instead")
        return float(self._k[0])

    def get_gain_vector(self) -> np.ndarray:
        """A copy of the gain k, one per element (y = k ⊙ u)."""
        return self._k.copy()


class Integrator(_StateDefaults, LeafSystem):
    """ẋ = u, y = x (pydrake's ``Integrator``): ``Integrator(size)`` (initial
    value zero) or ``Integrator(initial_value)`` with a (n,) vector. Ports
    "u0" and "y0" (as Drake's VectorSystem names them); the output depends on
    the continuous state only, so an Integrator breaks algebraic loops."""

    @overloaded.typed(size=is_size)
    def __init__(self, size):
        self._construct(np.zeros(as_size(size, "Integrator: size")))

    @__init__.overload
    def __init__(self, initial_value):
        self._construct(initial_value)

    def _construct(self, initial_value) -> None:
        x0 = as_vector(initial_value, "Integrator: initial_value")
        if x0.size == 0:
            raise ValueError("Integrator: initial_value must be non-empty")
        super().__init__()
        n = x0.size
        self.DeclareContinuousState(BasicVector(x0))
        self.DeclareVectorInputPort(kUseDefaultName, n)
        self.DeclareVectorOutputPort(kUseDefaultName, n, self._calc_output,
                                     prerequisites_of_calc={self.xc_ticket()})

    def _calc_output(self, context, output) -> None:
        output._data[:] = context._state._continuous._vector._data

    def DoCalcTimeDerivatives(self, context, derivatives) -> None:
        derivatives._vector._data[:] = context._eval_input(0)._data

    def _check_size(self, value, method: str) -> np.ndarray:
        value = as_vector(value, f"Integrator.{method}: value")
        n = self._xc_model.size()
        if value.size != n:
            raise ValueError(f"Integrator.{method}: value has size {value.size} but "
                             f"the integrator has size {n}; the size cannot change")
        return value

    def set_default_integral_value(self, initial_value) -> None:
        """Sets x(0) (n,) for Contexts created from now on."""
        self._set_default_state_vector(
            self._check_size(initial_value, "set_default_integral_value"))

    def set_integral_value(self, context, value) -> None:
        """Sets the integral x (n,) in `context`."""
        self.ValidateContext(context)
        value = self._check_size(value, "set_integral_value")
        context.get_mutable_continuous_state_vector().SetFromVector(value)


class FirstOrderLowPassFilter(LeafSystem):
    """τ ẋ = u − x, y = x, elementwise (pydrake's ``FirstOrderLowPassFilter``):
    ``FirstOrderLowPassFilter(time_constant, size=1)`` or
    ``FirstOrderLowPassFilter(time_constants)`` with a (n,) vector. Time
    constants τ > 0 in seconds. Ports "u0" and "y0"; the output depends on the
    state only. A unit step from x = 0 gives y(t) = 1 − exp(−t/τ)."""

    @overloaded.typed(time_constant=lambda v: np.ndim(v) == 0)
    def __init__(self, time_constant, size=1):
        n = as_size(size, "FirstOrderLowPassFilter: size")
        self._construct(np.full(n, float(time_constant)))

    @__init__.overload
    def __init__(self, time_constants):
        self._construct(time_constants)

    def _construct(self, time_constants) -> None:
        tau = as_vector(time_constants, "FirstOrderLowPassFilter: time_constants")
        if tau.size == 0:
            raise ValueError("FirstOrderLowPassFilter: time_constants must be non-empty")
        if not np.all(np.isfinite(tau) & (tau > 0)):
            raise ValueError(f"FirstOrderLowPassFilter: time constants must be "
                             f"positive and finite; got {tau.tolist()}")
        super().__init__()
        self._tau = tau
        self._inverse_tau = 1.0 / tau
        n = tau.size
        self.DeclareContinuousState(BasicVector(np.zeros(n)))
        self.DeclareVectorInputPort(kUseDefaultName, n)
        self.DeclareVectorOutputPort(kUseDefaultName, n, self._calc_output,
                                     prerequisites_of_calc={self.xc_ticket()})

    def _calc_output(self, context, output) -> None:
        output._data[:] = context._state._continuous._vector._data

    def DoCalcTimeDerivatives(self, context, derivatives) -> None:
        xdot = derivatives._vector._data
        np.subtract(context._eval_input(0)._data,
                    context._state._continuous._vector._data, out=xdot)
        xdot *= self._inverse_tau

    def get_time_constant(self) -> float:
        """τ [s], when every channel has the same one (else RuntimeError)."""
        if not np.all(self._tau == self._tau[0]):
            raise RuntimeError(
                f"FirstOrderLowPassFilter: the time constants vector "
                f"{self._tau.tolist()} cannot be represented as a scalar value; use "
                f"get_time_constants_vector() instead")
        return float(self._tau[0])

    def get_time_constants_vector(self) -> np.ndarray:
        """A copy of the time constants τ [s], one per element."""
        return self._tau.copy()

    def set_initial_output_value(self, context, z0) -> None:
        """Sets the filter state (= output) (n,) in `context`."""
        self.ValidateContext(context)
        z0 = as_vector(z0, "FirstOrderLowPassFilter.set_initial_output_value: z0")
        if z0.size != self._tau.size:
            raise ValueError(f"FirstOrderLowPassFilter.set_initial_output_value: z0 "
                             f"has size {z0.size} but the filter has size "
                             f"{self._tau.size}")
        context.get_mutable_continuous_state_vector().SetFromVector(z0)


class SparseMatrixGain(LeafSystem):
    """y = D u with a sparse D (p, m) (pydrake's ``SparseMatrixGain``; D is a scipy
    sparse matrix or anything scipy.sparse.csc_matrix accepts). Ports "u" and "y"."""

    def __init__(self, D):
        import scipy.sparse
        D = scipy.sparse.csc_matrix(D, dtype=float)
        super().__init__()
        self._D = D
        self.DeclareVectorInputPort("u", D.shape[1])
        self.DeclareVectorOutputPort("y", D.shape[0], self._calc,
                                     prerequisites_of_calc={self.all_input_ports_ticket()})

    def D(self):
        """The gain (a scipy.sparse.csc_matrix)."""
        return self._D.copy()

    def set_D(self, D) -> None:
        """Replaces the gain; its shape may not change."""
        import scipy.sparse
        D = scipy.sparse.csc_matrix(D, dtype=float)
        if D.shape != self._D.shape:
            raise ValueError(f"SparseMatrixGain.set_D: D has shape {D.shape}; it must keep "
                             f"the shape {self._D.shape}")
        self._D = D

    def _calc(self, context, output) -> None:
        u = self.get_input_port().Eval(context)
        if u.dtype == object:                     # SparseMatrixGain_[AutoDiffXd]
            output.SetFromVector(self._D.toarray() @ u)
            return
        output.SetFromVector(self._D @ u)
