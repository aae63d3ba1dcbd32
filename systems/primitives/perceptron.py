"""MultilayerPerceptron and PerceptronActivationType (pydrake's, with Drake's
parameter layout): a feedforward network y = f(x) whose weights and biases are one
numeric parameter vector of the Context.

Layer i maps X_i (layers[i],) to X_{i+1} = σ_i(W_i X_i + b_i) with W_i
(layers[i+1], layers[i]). The parameter vector holds, for i = 0, 1, ..., W_i in
column-major order then b_i (Drake's layout, so GetParameters/SetParameters exchange
the same vectors as pydrake). Defaults are zero; SetRandomContext draws each entry of
layer i uniformly in ±√(3/layers[i]). With ``use_sin_cos_for_input``, input element
j is replaced by (sin x_j, cos x_j). Ports "x" and "y".
"""
from __future__ import annotations

import enum

import numpy as np

from systems.framework import BasicVector, Context, LeafSystem
from systems.common.overloads import overloaded

from ._checks import as_size

__all__ = ["MultilayerPerceptron", "PerceptronActivationType"]


class PerceptronActivationType(enum.IntEnum):
    """σ of a layer: identity, ReLU (max(0, z)) or tanh."""

    kIdentity = 0
    kReLU = 1
    kTanh = 2


def _activate(kind, z):
    """(σ(z), dσ/dz) elementwise."""
    if kind == PerceptronActivationType.kTanh:
        y = np.tanh(z)
        return y, 1.0 - y * y
    if kind == PerceptronActivationType.kReLU:
        return np.maximum(z, 0.0), (z > 0.0).astype(float)
    return z, np.ones_like(z)


class MultilayerPerceptron(LeafSystem):
    """See the module docstring. ``MultilayerPerceptron(layers, activation_type=kTanh)``
    (every layer but the last uses activation_type; the last is linear),
    ``(layers, activation_types)`` (one per layer of weights), or
    ``(use_sin_cos_for_input, remaining_layers, activation_types)``."""

    @overloaded.typed(layers=lambda v: all(not isinstance(x, bool) for x in v),
                      activation_type=lambda v: isinstance(v, int))
    def __init__(self, layers, activation_type=PerceptronActivationType.kTanh):
        sizes = [as_size(n, "MultilayerPerceptron: layers") for n in layers]
        if len(sizes) < 2:
            raise RuntimeError("The MultilayerPerceptron's layers constructor argument "
                               "has too few elements.")
        kinds = [PerceptronActivationType(activation_type)] * (len(sizes) - 2) + \
            [PerceptronActivationType.kIdentity]
        self._construct([False] * sizes[0], sizes, kinds)

    @__init__.overload(layers=lambda v: all(not isinstance(x, bool) for x in v))
    def __init__(self, layers, activation_types):
        sizes = [as_size(n, "MultilayerPerceptron: layers") for n in layers]
        self._construct([False] * (sizes[0] if sizes else 0), sizes,
                        [PerceptronActivationType(k) for k in activation_types])

    @__init__.overload
    def __init__(self, use_sin_cos_for_input, remaining_layers, activation_types):
        flags = [bool(f) for f in use_sin_cos_for_input]
        sizes = [len(flags) + sum(flags)] + [as_size(n, "MultilayerPerceptron: layers")
                                              for n in remaining_layers]
        self._construct(flags, sizes, [PerceptronActivationType(k)
                                       for k in activation_types])

    def _construct(self, sin_cos, sizes, kinds) -> None:
        if len(sizes) < 2:
            raise RuntimeError("The MultilayerPerceptron's layers constructor argument "
                               "has too few elements.")
        if len(kinds) != len(sizes) - 1:
            raise RuntimeError(f"MultilayerPerceptron: {len(sizes) - 1} layers of weights "
                               f"need {len(sizes) - 1} activation types; got {len(kinds)}")
        super().__init__()
        self._sin_cos = sin_cos
        self._layers = sizes
        self._kinds = kinds
        offsets, n = [], 0
        for i in range(len(sizes) - 1):
            w = n
            n += sizes[i + 1] * sizes[i]
            offsets.append((w, n))
            n += sizes[i + 1]
        self._offsets = offsets
        self._num_parameters = n
        self._param_index = self.DeclareNumericParameter(BasicVector(np.zeros(n)))
        self.DeclareVectorInputPort("x", len(sin_cos))
        self.DeclareVectorOutputPort("y", sizes[-1], self._calc_output,
                                     {self.all_input_ports_ticket(),
                                      self.numeric_parameter_ticket(self._param_index)})

    # --- structure --------------------------------------------------------------------
    def num_parameters(self) -> int:
        """The total number of weights and biases."""
        return self._num_parameters

    def layers(self) -> list:
        """The layer sizes, input layer first."""
        return list(self._layers)

    def activation_type(self, layer: int) -> PerceptronActivationType:
        """The PerceptronActivationType of layer `layer` (counting from the first hidden
        layer)."""
        return self._kinds[layer]

    # --- parameters ---------------------------------------------------------------------
    def GetParameters(self, context) -> np.ndarray:
        """All weights and biases in `context`, a read-only (num_parameters(),) array in
        Drake's layout."""
        self.ValidateContext(context)
        return context.get_numeric_parameter(self._param_index).get_value()

    def GetMutableParameters(self, context) -> np.ndarray:
        """All weights and biases in `context`, a writable (num_parameters(),) array;
        dependents go out of date now."""
        self.ValidateContext(context)
        return context.get_mutable_numeric_parameter(self._param_index)._mutable_values()

    def SetParameters(self, context, params) -> None:
        """Sets all weights and biases in `context` from `params` (num_parameters()
        values in Drake's layout).

        Raises:
          ValueError: `params` has the wrong size.
        """
        params = np.asarray(params, dtype=float).reshape(-1)
        if params.size != self._num_parameters:
            raise ValueError(f"SetParameters: expected {self._num_parameters} values; got "
                             f"{params.size}")
        self.GetMutableParameters(context)[:] = params

    def _weights_of(self, params, layer: int) -> np.ndarray:
        start, stop = self._offsets[layer][0], self._offsets[layer][1]
        return params[start:stop].reshape(self._layers[layer + 1], self._layers[layer],
                                          order="F")

    def _biases_of(self, params, layer: int) -> np.ndarray:
        start = self._offsets[layer][1]
        return params[start:start + self._layers[layer + 1]]

    @overloaded.typed(context=Context)
    def GetWeights(self, context, layer: int) -> np.ndarray:
        """W_layer (layers[layer+1], layers[layer]) (a copy), from a Context or, in the
        (params, layer) form, from a parameter vector."""
        return self._weights_of(self.GetParameters(context), layer).copy()

    @GetWeights.overload
    def GetWeights(self, params, layer: int) -> np.ndarray:
        return self._weights_of(np.asarray(params, dtype=float), layer).copy()

    @overloaded.typed(context=Context)
    def GetBiases(self, context, layer: int) -> np.ndarray:
        """A copy of the biases of layer `layer` in `context`."""
        return self._biases_of(self.GetParameters(context), layer).copy()

    @GetBiases.overload
    def GetBiases(self, params, layer: int) -> np.ndarray:
        return self._biases_of(np.asarray(params, dtype=float), layer).copy()

    def _write_weights(self, params, layer, W) -> None:
        W = np.asarray(W, dtype=float)
        shape = (self._layers[layer + 1], self._layers[layer])
        if W.shape != shape:
            raise ValueError(f"SetWeights: layer {layer} needs a {shape} matrix; got "
                             f"{W.shape}")
        start, stop = self._offsets[layer]
        params[start:stop] = W.reshape(-1, order="F")

    def _write_biases(self, params, layer, b) -> None:
        b = np.asarray(b, dtype=float).reshape(-1)
        if b.size != self._layers[layer + 1]:
            raise ValueError(f"SetBiases: layer {layer} needs {self._layers[layer + 1]} "
                             f"biases; got {b.size}")
        start = self._offsets[layer][1]
        params[start:start + b.size] = b

    @overloaded.typed(context=Context)
    def SetWeights(self, context, layer: int, W) -> None:
        """Sets W_layer in a Context or, in the (params, layer, W) form, in a parameter
        vector (a float64 numpy array, changed in place)."""
        self._write_weights(self.GetMutableParameters(context), layer, W)

    @SetWeights.overload
    def SetWeights(self, params, layer: int, W) -> None:
        self._write_weights(params, layer, W)

    @overloaded.typed(context=Context)
    def SetBiases(self, context, layer: int, b) -> None:
        """Sets the biases of layer `layer` in `context` to `b`."""
        self._write_biases(self.GetMutableParameters(context), layer, b)

    @SetBiases.overload
    def SetBiases(self, params, layer: int, b) -> None:
        self._write_biases(params, layer, b)

    def SetRandomContext(self, context, generator=None) -> None:
        """Draws every parameter of layer i uniformly in ±√(3/layers[i]) (Drake's rule)
        from `generator` (a numpy Generator; a fixed-seed one when None)."""
        super().SetRandomContext(context, generator)
        rng = generator if generator is not None else np.random.default_rng(0)
        params = self.GetMutableParameters(context)
        for i, (w, b) in enumerate(self._offsets):
            m = np.sqrt(3.0 / self._layers[i])
            params[w:b + self._layers[i + 1]] = m * rng.uniform(-1.0, 1.0,
                                                                 b + self._layers[i + 1] - w)

    # --- evaluation ---------------------------------------------------------------------
    def _features(self, X: np.ndarray) -> np.ndarray:
        if not any(self._sin_cos):
            return X
        rows = []
        for j, flag in enumerate(self._sin_cos):
            rows += [np.sin(X[j]), np.cos(X[j])] if flag else [X[j]]
        return np.array(rows)

    def _forward(self, params, X):
        """Layer outputs and activation slopes for inputs X (n_in, N)."""
        outputs, slopes = [self._features(X)], []
        for i in range(len(self._layers) - 1):
            z = self._weights_of(params, i) @ outputs[-1] + \
                self._biases_of(params, i)[:, None]
            y, dy = _activate(self._kinds[i], z)
            outputs.append(y)
            slopes.append(dy)
        return outputs, slopes

    def _calc_output(self, context, output) -> None:
        x = self.get_input_port().Eval(context)
        outputs, _ = self._forward(self.GetParameters(context), np.asarray(x)[:, None])
        output.SetFromVector(outputs[-1][:, 0])

    @overloaded
    def BatchOutput(self, context, X, Y, dYdX=None) -> None:
        """Fills Y (n_out, N) with the outputs for the columns of X (n_in, N) and, when
        given and n_out == 1, dYdX (n_in, N) with their gradients."""
        result = self.BatchOutput(context, X)
        Y[...] = result
        if dYdX is not None:
            if self._layers[-1] != 1:
                raise RuntimeError("BatchOutput: dYdX needs a single output")
            dYdX[...] = self._input_gradient(context, np.asarray(X, dtype=float))

    @BatchOutput.overload
    def BatchOutput(self, context, X) -> np.ndarray:
        """The outputs (n_out, N) for the columns of X (n_in, N)."""
        self.ValidateContext(context)
        X = np.asarray(X, dtype=float).reshape(len(self._sin_cos), -1)
        outputs, _ = self._forward(self.GetParameters(context), X)
        return outputs[-1]

    def _backward(self, params, X, dloss_dY):
        """(∂loss/∂params, ∂loss/∂features) from ∂loss/∂Y by backpropagation."""
        outputs, slopes = self._forward(params, X)
        gradient = np.zeros(self._num_parameters)
        delta = dloss_dY * slopes[-1]
        for i in range(len(self._layers) - 2, -1, -1):
            w, b = self._offsets[i]
            gradient[w:b] = (delta @ outputs[i].T).reshape(-1, order="F")
            gradient[b:b + self._layers[i + 1]] = delta.sum(axis=1)
            back = self._weights_of(params, i).T @ delta
            if i > 0:
                delta = back * slopes[i - 1]
        return gradient, back

    def _input_gradient(self, context, X):
        params = self.GetParameters(context)
        outputs, _ = self._forward(params, X)
        _, dfeatures = self._backward(params, X, np.ones_like(outputs[-1]))
        if not any(self._sin_cos):
            return dfeatures
        rows, k = [], 0
        for j, flag in enumerate(self._sin_cos):
            if flag:
                rows.append(dfeatures[k] * np.cos(X[j]) - dfeatures[k + 1] * np.sin(X[j]))
                k += 2
            else:
                rows.append(dfeatures[k])
                k += 1
        return np.array(rows)

    def Backpropagation(self, context, X, loss, dloss_dparams) -> float:
        """loss(Y, dloss_dY) -> float must fill dloss_dY (n_out, N) in place; returns
        the loss and writes ∂loss/∂params (num_parameters,) into dloss_dparams."""
        self.ValidateContext(context)
        X = np.asarray(X, dtype=float).reshape(len(self._sin_cos), -1)
        params = self.GetParameters(context)
        Y = self._forward(params, X)[0][-1]
        dloss_dY = np.zeros_like(Y)
        value = float(loss(Y, dloss_dY))
        gradient, _ = self._backward(params, X, dloss_dY)
        dloss_dparams[:] = gradient
        return value

    def BackpropagationMeanSquaredError(self, context, X, Y_desired, dloss_dparams) -> float:
        """loss = Σ_columns |Y − Y_desired|² / N; returns it and fills its gradient."""
        Y_desired = np.asarray(Y_desired, dtype=float)
        N = Y_desired.shape[1] if Y_desired.ndim == 2 else 1

        def loss(Y, dloss_dY):
            error = Y - Y_desired.reshape(Y.shape)
            dloss_dY[...] = 2.0 * error / N
            return float(np.sum(error * error) / N)
        return self.Backpropagation(context, X, loss, dloss_dparams)
