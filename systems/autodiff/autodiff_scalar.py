"""AutoDiffXd: a float value with a dense vector of partial derivatives (forward mode).

pydrake.autodiffutils.AutoDiffXd's behaviour: ``AutoDiffXd(value)`` has no derivatives
(an empty vector, which counts as zeros when combined with another value),
``AutoDiffXd(value, derivatives)`` copies them, ``AutoDiffXd(value, size, offset)`` is
the unit partial e_offset of length `size`. Arithmetic with floats, ints and other
AutoDiffXd follows the chain rule; comparisons compare values only (and return bool).

numpy arrays of AutoDiffXd have ``dtype=object``; numpy's ufuncs call the method of the
same name on each element, so ``np.sin(x)``, ``np.exp(x)``, ``np.sqrt(x)``, ``x @ A``,
``np.dot``, ``np.trace``, comparisons, ``np.maximum``... work on them as in pydrake.

Differences from pydrake (extensions, documented in docs/migrating_from_pydrake.md):

* Combining two values whose derivative vectors have different non-zero lengths
  raises ValueError naming both lengths (Drake's Eigen leaves it undefined).
* ``bool(x)`` is ``x.value() != 0`` (pydrake's object is always truthy).
* ``**`` and ``pow`` accept an AutoDiffXd exponent, and ``float ** x`` works.
* ``float(x)`` raises TypeError as in pydrake: taking the value must be explicit.

Non-smooth functions use the derivative of the branch taken: ``abs`` at 0 and
``max``/``min`` on a tie take the first argument's branch (as Drake); ``ceil``/``floor``
return a float (as pydrake).
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["AutoDiffXd"]

_EMPTY = np.zeros(0)
_EMPTY.flags.writeable = False
_NUMBER = (float, int, np.floating, np.integer)


def _merge(ca: float, da: np.ndarray, cb: float, db: np.ndarray) -> np.ndarray:
    """ca da + cb db with an empty vector standing for zeros."""
    na, nb = da.shape[0], db.shape[0]
    if na == nb:
        return ca * da + cb * db
    if na == 0:
        return cb * db
    if nb == 0:
        return ca * da
    raise ValueError(f"AutoDiffXd: cannot combine derivative vectors of sizes {na} and "
                     f"{nb} (use the same number of derivatives, or none)")


def _new(value: float, derivatives: np.ndarray) -> "AutoDiffXd":
    out = object.__new__(AutoDiffXd)
    out._v = value
    out._d = derivatives
    return out


class AutoDiffXd:
    """A scalar x with value x.value() and partials x.derivatives() = dx/dz, (n,) float,
    for some vector z of n independent variables (n may be 0)."""

    __slots__ = ("_v", "_d")
    __hash__ = None          # as pydrake's (it defines ==)

    def __init__(self, value, derivatives=None, size=None, offset=None):
        if not isinstance(value, _NUMBER) or isinstance(value, bool):
            raise TypeError(f"AutoDiffXd: value must be a float; got {value!r}")
        self._v = float(value)
        if size is not None or offset is not None:
            if isinstance(derivatives, (int, np.integer)) and offset is None:
                # Positional AutoDiffXd(value, size, offset).
                size, offset, derivatives = derivatives, size, None
            elif derivatives is not None and size is None:
                size, derivatives = derivatives, None   # (value, size, offset=...)
            if derivatives is not None or size is None or offset is None:
                raise TypeError("AutoDiffXd: give (value), (value, derivatives) or "
                                "(value, size, offset)")
            size, offset = int(size), int(offset)
            if not 0 <= offset < size:
                raise ValueError(f"AutoDiffXd: offset {offset} is outside a derivative "
                                 f"vector of size {size}")
            d = np.zeros(size)
            d[offset] = 1.0
            self._d = d
        elif derivatives is None:
            self._d = _EMPTY
        else:
            d = np.array(derivatives, dtype=float)
            if d.ndim > 1 and d.size == max(d.shape):
                d = d.reshape(-1)
            if d.ndim != 1:
                raise ValueError(f"AutoDiffXd: derivatives must be a vector; got shape "
                                 f"{d.shape}")
            self._d = d

    # -- access ----------------------------------------------------------------------
    def value(self) -> float:
        """The value."""
        return self._v

    def derivatives(self) -> np.ndarray:
        """A copy of the partial derivatives, (n,) float."""
        return self._d.copy()

    def __str__(self) -> str:
        return f"AD{{{self._v!r}, nderiv={self._d.shape[0]}}}"

    def __repr__(self) -> str:
        return f"<AutoDiffXd {self._v!r} nderiv={self._d.shape[0]}>"

    def __bool__(self) -> bool:
        return self._v != 0.0

    def __copy__(self) -> "AutoDiffXd":
        return _new(self._v, self._d)

    def __deepcopy__(self, memo) -> "AutoDiffXd":
        return _new(self._v, self._d.copy())

    def __reduce__(self):
        return (AutoDiffXd, (self._v, self._d.copy()))

    # -- arithmetic ------------------------------------------------------------------
    def __neg__(self) -> "AutoDiffXd":
        return _new(-self._v, -self._d)

    def __pos__(self) -> "AutoDiffXd":
        return _new(self._v, self._d)

    def __add__(self, other):
        if isinstance(other, AutoDiffXd):
            return _new(self._v + other._v, _merge(1.0, self._d, 1.0, other._d))
        if isinstance(other, _NUMBER):
            return _new(self._v + float(other), self._d)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, AutoDiffXd):
            return _new(self._v - other._v, _merge(1.0, self._d, -1.0, other._d))
        if isinstance(other, _NUMBER):
            return _new(self._v - float(other), self._d)
        return NotImplemented

    def __rsub__(self, other):
        if isinstance(other, _NUMBER):
            return _new(float(other) - self._v, -self._d)
        return NotImplemented

    def __mul__(self, other):
        if isinstance(other, AutoDiffXd):
            return _new(self._v * other._v, _merge(other._v, self._d, self._v, other._d))
        if isinstance(other, _NUMBER):
            c = float(other)
            return _new(self._v * c, c * self._d)
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, AutoDiffXd):
            b = other._v
            inv = 1.0 / b if b != 0.0 else _divide(1.0, b)
            q = self._v / b if b != 0.0 else _divide(self._v, b)
            return _new(q, _merge(inv, self._d, -q * inv, other._d))
        if isinstance(other, _NUMBER):
            c = float(other)
            if c == 0.0:
                return _new(_divide(self._v, c), _divide(self._d, c))
            return _new(self._v / c, self._d / c)
        return NotImplemented

    def __rtruediv__(self, other):
        if isinstance(other, _NUMBER):
            a, b = float(other), self._v
            if b == 0.0:
                return _new(_divide(a, b), _divide(-a, 0.0) * self._d)
            q = a / b
            return _new(q, (-q / b) * self._d)
        return NotImplemented

    def __pow__(self, exponent):
        if isinstance(exponent, AutoDiffXd):
            return self.pow(exponent)
        if isinstance(exponent, _NUMBER):
            p = float(exponent)
            x = self._v
            return _new(x ** p, (p * x ** (p - 1.0)) * self._d if p != 0.0
                        else 0.0 * self._d)
        return NotImplemented

    def __rpow__(self, base):
        if isinstance(base, _NUMBER):
            return AutoDiffXd(float(base)).pow(self)
        return NotImplemented

    def __abs__(self) -> "AutoDiffXd":
        return self if self._v >= 0.0 else -self

    def __ceil__(self) -> float:
        return float(math.ceil(self._v))

    def __floor__(self) -> float:
        return float(math.floor(self._v))

    # -- comparisons (values only) ---------------------------------------------------
    def __eq__(self, other):
        if isinstance(other, AutoDiffXd):
            return self._v == other._v
        if isinstance(other, _NUMBER):
            return self._v == other
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, AutoDiffXd):
            return self._v != other._v
        if isinstance(other, _NUMBER):
            return self._v != other
        return NotImplemented

    def __lt__(self, other):
        if isinstance(other, AutoDiffXd):
            return self._v < other._v
        if isinstance(other, _NUMBER):
            return self._v < other
        return NotImplemented

    def __le__(self, other):
        if isinstance(other, AutoDiffXd):
            return self._v <= other._v
        if isinstance(other, _NUMBER):
            return self._v <= other
        return NotImplemented

    def __gt__(self, other):
        if isinstance(other, AutoDiffXd):
            return self._v > other._v
        if isinstance(other, _NUMBER):
            return self._v > other
        return NotImplemented

    def __ge__(self, other):
        if isinstance(other, AutoDiffXd):
            return self._v >= other._v
        if isinstance(other, _NUMBER):
            return self._v >= other
        return NotImplemented

    # -- math functions (numpy's ufuncs call these on object arrays) -----------------
    def _chain(self, value: float, slope: float) -> "AutoDiffXd":
        return _new(value, slope * self._d)

    def abs(self) -> "AutoDiffXd":
        """|x| (the derivative at 0 is the +x branch's)."""
        return self.__abs__()

    def sin(self) -> "AutoDiffXd":
        """sin x; d = cos x dx."""
        return self._chain(math.sin(self._v), math.cos(self._v))

    def cos(self) -> "AutoDiffXd":
        """cos x; d = −sin x dx."""
        return self._chain(math.cos(self._v), -math.sin(self._v))

    def tan(self) -> "AutoDiffXd":
        """tan x; d = (1 + tan² x) dx."""
        t = math.tan(self._v)
        return self._chain(t, 1.0 + t * t)

    def asin(self) -> "AutoDiffXd":
        """asin x [rad]; d = dx / √(1 − x²)."""
        x = self._v
        return self._chain(math.asin(x), _divide(1.0, math.sqrt(1.0 - x * x)))

    def acos(self) -> "AutoDiffXd":
        """acos x [rad]; d = −dx / √(1 − x²)."""
        x = self._v
        return self._chain(math.acos(x), _divide(-1.0, math.sqrt(1.0 - x * x)))

    def atan(self) -> "AutoDiffXd":
        """atan x [rad]; d = dx / (1 + x²)."""
        x = self._v
        return self._chain(math.atan(x), 1.0 / (1.0 + x * x))

    def atan2(self, x) -> "AutoDiffXd":
        """atan2(self, x): self is y."""
        y = self
        if not isinstance(x, AutoDiffXd):
            x = AutoDiffXd(x)
        r2 = y._v * y._v + x._v * x._v
        if r2 == 0.0:
            return _new(math.atan2(y._v, x._v), _merge(0.0, y._d, 0.0, x._d))
        return _new(math.atan2(y._v, x._v), _merge(x._v / r2, y._d, -y._v / r2, x._d))

    def sinh(self) -> "AutoDiffXd":
        """sinh x; d = cosh x dx."""
        return self._chain(math.sinh(self._v), math.cosh(self._v))

    def cosh(self) -> "AutoDiffXd":
        """cosh x; d = sinh x dx."""
        return self._chain(math.cosh(self._v), math.sinh(self._v))

    def tanh(self) -> "AutoDiffXd":
        """tanh x; d = (1 − tanh² x) dx."""
        t = math.tanh(self._v)
        return self._chain(t, 1.0 - t * t)

    def exp(self) -> "AutoDiffXd":
        """eˣ; d = eˣ dx."""
        e = math.exp(self._v)
        return self._chain(e, e)

    def log(self) -> "AutoDiffXd":
        """ln x; d = dx / x."""
        x = self._v
        value = math.log(x) if x > 0.0 else (-math.inf if x == 0.0 else math.nan)
        return self._chain(value, _divide(1.0, x))

    def sqrt(self) -> "AutoDiffXd":
        """√x; d = dx / (2√x) (inf at 0)."""
        x = self._v
        s = math.sqrt(x) if x >= 0.0 else math.nan
        return self._chain(s, _divide(0.5, s))

    def pow(self, exponent) -> "AutoDiffXd":
        """self ** exponent (a float or an AutoDiffXd)."""
        if not isinstance(exponent, AutoDiffXd):
            return self.__pow__(exponent)
        x, p = self._v, exponent._v
        value = x ** p
        dx = p * x ** (p - 1.0) if p != 0.0 else 0.0
        dp = value * math.log(x) if x > 0.0 else 0.0
        return _new(value, _merge(dx, self._d, dp, exponent._d))

    def max(self, other) -> "AutoDiffXd":
        """The larger of self and other (self on a tie)."""
        if not isinstance(other, AutoDiffXd):
            other = AutoDiffXd(other)
        return other if self._v < other._v else self

    def min(self, other) -> "AutoDiffXd":
        """The smaller of self and other (self on a tie)."""
        if not isinstance(other, AutoDiffXd):
            other = AutoDiffXd(other)
        return other if other._v < self._v else self

    def ceil(self) -> float:
        """The smallest integer ≥ the value, as a float (no derivatives, as pydrake)."""
        return self.__ceil__()

    def floor(self) -> float:
        """The largest integer ≤ the value, as a float (no derivatives, as pydrake)."""
        return self.__floor__()

    def isnan(self) -> bool:
        """True if the value is NaN."""
        return math.isnan(self._v)

    def arcsin(self) -> "AutoDiffXd":
        """asin (numpy's name)."""
        return self.asin()

    def arccos(self) -> "AutoDiffXd":
        """acos (numpy's name)."""
        return self.acos()

    def arctan(self) -> "AutoDiffXd":
        """atan (numpy's name)."""
        return self.atan()

    def arctan2(self, x) -> "AutoDiffXd":
        """atan2(self, x) (numpy's name): self is y."""
        return self.atan2(x)

    def square(self) -> "AutoDiffXd":
        """x·x (numpy's square on object arrays)."""
        return self * self

    def hypot(self, other) -> "AutoDiffXd":
        """√(x² + y²) (numpy's hypot on object arrays)."""
        return (self * self + other * other).sqrt()


def _divide(a, b):
    """a / b with IEEE results for b = 0 (±inf or NaN), without numpy's warnings."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if np.ndim(a) == 0:
            return float(np.float64(a) / np.float64(b))
        return np.asarray(a, dtype=float) / b
