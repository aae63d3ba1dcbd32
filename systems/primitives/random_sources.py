"""Random signals (pydrake's RandomSource, AddRandomInputs, LinearTransformDensity).

RandomSource(distribution, num_outputs, sampling_interval_sec): output "output" holds
independent samples of `distribution` (a RandomDistribution: uniform [0, 1), standard
normal, exponential with rate 1), redrawn every sampling interval (from t = 0). As in
Drake each instance gets its own seed from a process-wide counter, every default
Context starts from that seed (so default contexts agree), and SetRandomContext
reseeds from the given generator (a numpy Generator). The generator state lives in
the Context (abstract state), so clones continue the same stream.
"""
from __future__ import annotations

import itertools

import numpy as np

from systems.framework import (BasicVector, LeafSystem, PortDataType, RandomDistribution,
                               Value)
from systems.framework.random_distribution import draw

from ._checks import as_period, as_size, as_vector

__all__ = ["RandomSource", "AddRandomInputs", "LinearTransformDensity"]

_seeds = itertools.count(5489)   # Drake starts its counter at mt19937's default seed


class _Stream:
    """A seed and the numpy Generator it started (RandomSource's abstract state)."""

    __slots__ = ("seed", "generator")

    def __init__(self, seed: int, generator=None):
        self.seed = seed
        self.generator = np.random.default_rng(seed) if generator is None else generator

    def __deepcopy__(self, memo):
        import copy
        return _Stream(self.seed, copy.deepcopy(self.generator, memo))


class RandomSource(LeafSystem):
    """See the module docstring."""

    def __init__(self, distribution, num_outputs: int, sampling_interval_sec: float):
        kind = RandomDistribution(distribution)
        n = as_size(num_outputs, "RandomSource: num_outputs")
        period = as_period(sampling_interval_sec, "RandomSource: sampling_interval_sec")
        super().__init__()
        self._distribution, self._period = kind, period
        self._seed = next(_seeds)
        stream = _Stream(self._seed)
        first = draw(kind, stream.generator, n)
        index = self.DeclareDiscreteState(BasicVector(first))
        self.DeclareAbstractState(Value[_Stream](stream))
        self.DeclarePeriodicUnrestrictedUpdateEvent(period, 0.0, self._update)
        self.DeclareStateOutputPort("output", index)

    def get_distribution(self) -> RandomDistribution:
        """The RandomDistribution of the samples."""
        return self._distribution

    def get_seed(self, context) -> int:
        """The seed this context's stream started from."""
        self.ValidateContext(context)
        return context.get_abstract_state(0).get_value().seed

    def _update(self, context, state) -> None:
        stream = state.get_mutable_abstract_state(0).get_mutable_value()
        samples = state.get_mutable_discrete_state(0)
        samples.SetFromVector(draw(self._distribution, stream.generator, samples.size()))

    def SetRandomContext(self, context, generator=None) -> None:
        """Reseeds the context's stream from `generator` and draws new samples."""
        super().SetRandomContext(context, generator)
        rng = generator if generator is not None else np.random.default_rng()
        stream = _Stream(int(rng.integers(0, 2**32)))
        context.get_mutable_discrete_state(0).SetFromVector(
            draw(self._distribution, stream.generator, context.get_discrete_state(0).size()))
        context.get_mutable_abstract_state(0).set_value(stream)


def AddRandomInputs(sampling_interval_sec: float, builder) -> int:
    """Connects a RandomSource to every input port of the builder's systems that was
    declared with a random_type and is neither connected nor exported; returns how
    many sources were added."""
    count = 0
    for system in builder.GetSystems():
        for i in range(system.num_input_ports()):
            port = system.get_input_port(i)
            if not port.is_random() or builder.IsConnectedOrExported(port):
                continue
            source = builder.AddSystem(RandomSource(port.get_random_type(), port.size(),
                                                    sampling_interval_sec))
            builder.Connect(source.get_output_port(0), port)
            count += 1
    return count


class LinearTransformDensity(LeafSystem):
    """w_out = A w_in + b for a random w_in ~ `distribution`, and the probability
    density of w_out (pydrake's ``LinearTransformDensity(distribution, input_size,
    output_size)``). Inputs "w_in" (random), "A" (output_size·input_size, column-major)
    and "b" (output_size; zero when unconnected); outputs "w_out" and
    "w_out_density" (1): pdf(A⁻¹(w_out − b)) / |det A| (A square and invertible)."""

    def __init__(self, distribution, input_size: int, output_size: int):
        kind = RandomDistribution(distribution)
        n_in = as_size(input_size, "LinearTransformDensity: input_size")
        n_out = as_size(output_size, "LinearTransformDensity: output_size")
        super().__init__()
        self._distribution, self._n_in, self._n_out = kind, n_in, n_out
        self.DeclareInputPort("w_in", PortDataType.kVectorValued, n_in, kind)
        self.DeclareInputPort("A", PortDataType.kVectorValued, n_in * n_out)
        self.DeclareInputPort("b", PortDataType.kVectorValued, n_out)
        self.DeclareVectorOutputPort("w_out", n_out, self._calc_output)
        self.DeclareVectorOutputPort("w_out_density", 1, self._calc_density_output)

    def get_distribution(self) -> RandomDistribution:
        """The RandomDistribution of the input w_in."""
        return self._distribution

    def get_input_port_w_in(self):
        """The input port w_in (the random samples)."""
        return self.get_input_port(0)

    def get_input_port_A(self):
        """The input port A, the (n_out, n_in) matrix flattened column-major."""
        return self.get_input_port(1)

    def get_input_port_b(self):
        """The input port b (n_out,)."""
        return self.get_input_port(2)

    def get_output_port_w_out(self):
        """The output port w_out = A·w_in + b."""
        return self.get_output_port(0)

    def get_output_port_w_out_density(self):
        """The output port holding the probability density of w_out."""
        return self.get_output_port(1)

    def _A(self, context) -> np.ndarray:
        return self.get_input_port(1).Eval(context).reshape(self._n_out, self._n_in,
                                                            order="F")

    def _b(self, context) -> np.ndarray:
        port = self.get_input_port(2)
        return port.Eval(context) if port.HasValue(context) else np.zeros(self._n_out)

    def FixConstantA(self, context, A):
        """Fixes input A in `context` to the (n_out, n_in) matrix `A`; returns the
        FixedInputPortValue.

        Raises:
          ValueError: `A` has the wrong shape.
        """
        A = np.asarray(A)
        if A.dtype != object:
            A = A.astype(float)
        if A.shape != (self._n_out, self._n_in):
            raise ValueError(f"FixConstantA: A must be {(self._n_out, self._n_in)}; got "
                             f"{A.shape}")
        return self.get_input_port(1).FixValue(context, A.reshape(-1, order="F"))

    def FixConstantB(self, context, b):
        """Fixes input b in `context` to the (n_out,) vector `b`; returns the
        FixedInputPortValue."""
        return self.get_input_port(2).FixValue(context, as_vector(b, "b"))

    def _calc_output(self, context, output) -> None:
        w_in = self.get_input_port(0).Eval(context)
        output.SetFromVector(self._A(context) @ w_in + self._b(context))

    def CalcDensity(self, context) -> float:
        """The probability density of w_out in `context` (that of w_in divided by
        |det A|).

        Raises:
          RuntimeError: A is not square and invertible.
        """
        self.ValidateContext(context)
        A = self._A(context)
        if A.dtype == object:                       # LinearTransformDensity_[AutoDiffXd]
            return self._autodiff_density(context, A)
        if A.shape[0] != A.shape[1] or np.linalg.matrix_rank(A) < A.shape[0]:
            raise RuntimeError("CalcDensity: to compute the density, we require the "
                               "matrix A being invertible.")
        w_out = A @ self.get_input_port(0).Eval(context) + self._b(context)
        w_in = np.linalg.solve(A, w_out - self._b(context))
        return _density(self._distribution, w_in) / abs(np.linalg.det(A))

    def _autodiff_density(self, context, A):
        """CalcDensity on AutoDiffXd: p(w_in) / |det A| with their derivatives."""
        from systems.autodiff.autodiff_arrays import ExtractValue, autodiff_det
        if A.shape[0] != A.shape[1] or \
                np.linalg.matrix_rank(ExtractValue(A)) < A.shape[0]:
            raise RuntimeError("CalcDensity: to compute the density, we require the "
                               "matrix A being invertible.")
        return _density(self._distribution, self.get_input_port(0).Eval(context),
                        scalar=True) / abs(autodiff_det(A))

    def _calc_density_output(self, context, output) -> None:
        output.SetFromVector([self.CalcDensity(context)])


def _density(kind, w, scalar: bool = False):
    """The density of w (floats, or AutoDiffXd with scalar=True: no float())."""
    as_result = (lambda x: x) if scalar else float
    if kind == RandomDistribution.kUniform:
        return 1.0 if np.all((w >= 0.0) & (w <= 1.0)) else 0.0
    if kind == RandomDistribution.kGaussian:
        return as_result(np.exp(-0.5 * w @ w) / (2.0 * np.pi) ** (w.size / 2.0))
    return as_result(np.exp(-np.sum(w))) if np.all(w >= 0.0) else 0.0
