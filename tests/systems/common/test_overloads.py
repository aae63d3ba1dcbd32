"""overloaded: which implementation a call runs.

The binding rule is Signature.bind's; plain signatures (no *args, **kwargs
or positional-only parameters) are decided without it, and must decide
exactly as it does."""
import inspect
import itertools

import pytest

from systems.common.overloads import _Impl, overloaded, overloaded_function


def _f0(self): ...
def _f1(self, a): ...
def _f2(self, a, b=1): ...
def _f3(self, a, b, c=None): ...
def _f4(self, a=0, *, k): ...
def _f5(self, a, *, k=2): ...
def _f6(self, a=None, b=None): ...
def _v1(self, a, *rest): ...
def _v2(self, a, **options): ...
def _p1(self, a, /, b=1): ...


SIGNATURES = [_f0, _f1, _f2, _f3, _f4, _f5, _f6, _v1, _v2, _p1]
KEYWORDS = ["a", "b", "c", "k", "self", "zz"]


def _binds_by_inspect(func, args, kwargs) -> bool:
    try:
        inspect.signature(func).bind(*args, **kwargs)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("func", SIGNATURES, ids=lambda f: f.__name__)
def test_binding_decided_as_signature_bind_decides(func):
    impl = _Impl(func, {})
    checked = 0
    for n in range(6):
        args = tuple(range(n))
        for k in range(3):
            for names in itertools.combinations(KEYWORDS, k):
                kwargs = {name: 0 for name in names}
                assert impl.accepts(args, kwargs) == _binds_by_inspect(func, args, kwargs), \
                    (func.__name__, args, kwargs)
                checked += 1
    assert checked == 6 * (1 + 6 + 15)


class _Target:
    @overloaded
    def Set(self, value, scale=1.0):
        return ("value", value, scale)

    @Set.overload(name=str)
    def Set(self, name, value, scale=1.0):
        return ("named", name, value, scale)

    @Set.overload
    def Set(self, *, rows, cols=1):
        return ("shape", rows, cols)


def test_type_checks_read_positional_and_keyword_arguments():
    t = _Target()
    assert t.Set(3.0) == ("value", 3.0, 1.0)
    assert t.Set(3.0, 2.0) == ("value", 3.0, 2.0)
    assert t.Set("q", 3.0) == ("value", "q", 3.0)   # the first that binds wins
    assert t.Set("q", 3.0, 2.0) == ("named", "q", 3.0, 2.0)
    assert t.Set(name="q", value=4.0) == ("named", "q", 4.0, 1.0)
    with pytest.raises(TypeError):      # value given twice; name 5 is not a str
        t.Set(5, value=4.0)
    assert t.Set(rows=2) == ("shape", 2, 1)
    assert t.Set(rows=2, cols=3) == ("shape", 2, 3)


def test_a_call_no_implementation_binds_lists_the_signatures():
    with pytest.raises(TypeError) as info:
        _Target().Set(1, 2, 3, 4)
    text = str(info.value)
    assert "Set(): incompatible function arguments" in text
    assert "1. Set(value, scale=1.0)" in text
    assert "2. Set(name, value, scale=1.0)" in text
    assert "3. Set(*, rows, cols=1)" in text
    assert "Invoked with: int, int, int, int" in text


def test_a_predicate_type_check_on_a_keyword_argument():
    @overloaded_function(x=lambda v: v > 0)
    def f(x, y=0):
        return "positive"

    @f.overload
    def f(x, y=0):
        return "other"

    assert f(1) == "positive"
    assert f(x=1) == "positive"
    assert f(-1) == "other"
    assert f(y=2, x=-1) == "other"
