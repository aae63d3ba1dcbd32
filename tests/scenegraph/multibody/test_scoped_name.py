"""ScopedName: well-placed delimiters accepted, misplaced ones refused, Parse and Join tidy
delimiters, setters check like the constructor."""

import pytest

from scenegraph.multibody import ScopedName


# --- ScopedName ---------------------------------------------------------------------------
@pytest.mark.parametrize("namespace, element, full", [
    ("a", "b", "a::b"), ("a::x", "b", "a::x::b"), ("", "b", "b"), ("a:", "b", "a:::b")])
def test_scoped_name_accepts_well_placed_delimiters(namespace, element, full):
    name = ScopedName(namespace_name=namespace, element_name=element)
    assert (name.get_namespace(), name.get_element(), name.get_full()) == \
        (namespace, element, full)
    assert ScopedName.Make(namespace, element).get_full() == full


@pytest.mark.parametrize("namespace, element", [
    ("a", "b::c"), ("a", ""), ("::a", "b"), ("a::", "b"), ("", ""), ("", "::b")])
def test_scoped_name_refuses_misplaced_delimiters(namespace, element):
    with pytest.raises(RuntimeError, match="mis-placed delimiters"):
        ScopedName(namespace, element)
    assert ScopedName.Make(namespace_name=namespace, element_name=element) is None


@pytest.mark.parametrize("text, namespace, element", [
    ("a::b::c", "a::b", "c"), ("::b", "", "b"), ("a::", "", "a"), ("a:::b", "a:", "b"),
    ("a::::::b", "a", "b"), ("", "", "")])
def test_scoped_name_parse_and_join_tidy_delimiters(text, namespace, element):
    parsed = ScopedName.Parse(scoped_name=text)
    assert (parsed.get_namespace(), parsed.get_element()) == (namespace, element)
    assert ScopedName.Join(name1="a::", name2="::c").get_full() == "a::c"
    assert ScopedName.Join("a::::b", "c").get_full() == "a::b::c"


def test_scoped_name_setters_check_like_the_constructor():
    name = ScopedName()
    assert name.get_full() == ""
    name = ScopedName("a", "b")
    name.set_namespace(namespace_name="x::y")
    name.set_element(element_name="c")
    assert name.get_full() == "x::y::c"
    with pytest.raises(RuntimeError, match="mis-placed"):
        name.set_namespace("x::")
    with pytest.raises(RuntimeError, match="mis-placed"):
        name.set_element("c::d")
    assert name.get_full() == "x::y::c"
