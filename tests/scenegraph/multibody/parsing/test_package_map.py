"""PackageMap: package names to folders, and how model files' URIs resolve.

The rules are pydrake 1.51's (checked against it): Add needs an existing
folder and refuses a name already mapped elsewhere; ResolveUrl reads
package://, model:// and file://, and refuses a plain path and a missing file;
``package:///name/...`` (three slashes) names the empty package, which pydrake
refuses too. One documented difference: a new map is empty (pydrake's holds
its own "drake" and "drake_models" packages).
"""
import copy
import os
import pathlib

import pytest

from scenegraph.multibody.parsing.diagnostics import ParsingWarning

from scenegraph.multibody import PackageMap

MODELS = pathlib.Path(__file__).parents[1] / "models"


def test_a_new_map_is_empty_and_make_empty_is_the_same():
    assert PackageMap().size() == 0
    assert PackageMap().GetPackageNames() == []
    assert PackageMap.MakeEmpty().size() == 0
    assert str(PackageMap()) == "PackageMap:\n  [EMPTY!]\n"


def test_add_then_query(tmp_path):
    package_map = PackageMap()
    package_map.Add("beta", tmp_path)
    package_map.Add("alpha", str(MODELS))
    assert package_map.size() == 2
    assert package_map.Contains("alpha") and not package_map.Contains("gamma")
    assert package_map.GetPackageNames() == ["alpha", "beta"]        # sorted, as Drake's map
    assert package_map.GetPath("alpha") == str(MODELS)
    assert package_map.GetPath("beta") == str(tmp_path)
    assert str(package_map) == f"PackageMap:\n  - alpha: {MODELS}\n  - beta: {tmp_path}\n"


def test_add_refuses_a_missing_folder(tmp_path):
    with pytest.raises(RuntimeError, match="PackageMap::Add cannot add 'x' because directory "
                                           f"'{tmp_path / 'nope'}' does not exist"):
        PackageMap().Add("x", tmp_path / "nope")


def test_adding_a_name_again_needs_the_same_folder(tmp_path):
    package_map = PackageMap()
    package_map.Add("models", MODELS)
    package_map.Add("models", str(MODELS) + "/")        # the same folder: accepted
    package_map.Add("models", MODELS / "meshes" / "..")
    assert package_map.GetPath("models") == str(MODELS)   # the first spelling is kept
    with pytest.raises(RuntimeError, match=r"cannot add 'models' because the local paths are "
                                           r"not equivalent"):
        package_map.Add("models", tmp_path)


def test_remove_and_its_error():
    package_map = PackageMap()
    package_map.Add("models", MODELS)
    package_map.Remove("models")
    assert package_map.size() == 0
    with pytest.raises(RuntimeError, match=r"Could not find and remove package://models from "
                                           r"the search path\."):
        package_map.Remove("models")


def test_get_path_of_an_unknown_package_names_the_known_ones():
    package_map = PackageMap()
    package_map.Add("models", MODELS)
    with pytest.raises(RuntimeError, match=r"package 'other' is not in the map \(known "
                                           r"packages: models\)"):
        package_map.GetPath("other")


def test_add_package_xml_reads_the_name_and_uses_the_folder():
    package_map = PackageMap()
    package_map.AddPackageXml(MODELS / "package.xml")
    assert package_map.GetPackageNames() == ["parser_test_models"]
    assert package_map.GetPath("parser_test_models") == str(MODELS)


def test_add_package_xml_errors(tmp_path):
    (tmp_path / "package.xml").write_text("<package><version>1</version></package>")
    with pytest.raises(RuntimeError, match=r"has no <name>"):
        PackageMap().AddPackageXml(tmp_path / "package.xml")
    (tmp_path / "package.xml").write_text("<manifest><name>x</name></manifest>")
    with pytest.raises(RuntimeError, match=r"does not contain element <package>"):
        PackageMap().AddPackageXml(tmp_path / "package.xml")
    (tmp_path / "package.xml").write_text("<package><name>x</name>")
    with pytest.raises(RuntimeError, match=r"package\.xml:1: error: Failed to parse XML file"):
        PackageMap().AddPackageXml(tmp_path / "package.xml")


def test_add_map_merges_and_refuses_conflicts(tmp_path):
    first, second = PackageMap(), PackageMap()
    first.Add("models", MODELS)
    second.Add("models", MODELS)
    second.Add("scratch", tmp_path)
    first.AddMap(second)
    assert first.GetPackageNames() == ["models", "scratch"]
    third = PackageMap()
    third.Add("scratch", MODELS)
    with pytest.raises(RuntimeError, match=r"AddMap cannot merge the package definition for "
                                           r"'scratch'"):
        first.AddMap(third)
    assert first.GetPath("scratch") == str(tmp_path)       # unchanged


def test_copies_are_independent():
    package_map = PackageMap()
    package_map.Add("models", MODELS)
    for other in (PackageMap(package_map), copy.copy(package_map), copy.deepcopy(package_map)):
        other.Remove("models")
        assert package_map.Contains("models")


def _make_package(folder: pathlib.Path, name: str) -> None:
    folder.mkdir(parents=True)
    (folder / "package.xml").write_text(f"<package><name>{name}</name></package>")


def test_populate_from_folder_finds_nested_packages_and_skips_hidden(tmp_path):
    _make_package(tmp_path / "a", "pkg_a")
    _make_package(tmp_path / "a" / "inner", "pkg_inner")       # below a package: found too
    _make_package(tmp_path / ".hidden" / "h", "pkg_hidden")
    package_map = PackageMap()
    package_map.PopulateFromFolder(tmp_path)
    assert package_map.GetPackageNames() == ["pkg_a", "pkg_inner"]
    assert package_map.GetPath("pkg_a") == str(tmp_path / "a") + "/"   # Drake's trailing slash


def test_populate_from_environment(tmp_path, monkeypatch):
    _make_package(tmp_path / "one" / "p1", "p1")
    _make_package(tmp_path / "two" / "p2", "p2")
    monkeypatch.setenv("PARSER_TEST_PATH", f"{tmp_path / 'one'}::{tmp_path / 'two'}")
    package_map = PackageMap()
    package_map.PopulateFromEnvironment("PARSER_TEST_PATH")
    assert package_map.GetPackageNames() == ["p1", "p2"]
    monkeypatch.delenv("PARSER_TEST_PATH")
    PackageMap().PopulateFromEnvironment("PARSER_TEST_PATH")   # unset: nothing, no error
    with pytest.raises(RuntimeError, match="use PopulateFromRosPackagePath"):
        PackageMap().PopulateFromEnvironment("ROS_PACKAGE_PATH")


def test_populate_from_ros_package_path_stops_at_packages_and_ignore_markers(tmp_path,
                                                                           monkeypatch):
    _make_package(tmp_path / "ws" / "top", "top")
    _make_package(tmp_path / "ws" / "top" / "nested", "nested")        # below a package
    _make_package(tmp_path / "ws" / "skipped" / "p", "skipped_pkg")
    (tmp_path / "ws" / "skipped" / "COLCON_IGNORE").write_text("")
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(tmp_path / "ws"))
    package_map = PackageMap()
    package_map.PopulateFromRosPackagePath()
    assert package_map.GetPackageNames() == ["top"]


def test_add_remote_is_refused_without_network():
    params = PackageMap.RemoteParams(urls=["https://example.com/x.zip"], sha256="0" * 64)
    with pytest.raises(RuntimeError, match=r"AddRemote\('x'\): remote packages are not "
                                           r"supported"):
        PackageMap().AddRemote("x", params)


# --------------------------------------------------------------- ResolveUrl
@pytest.fixture
def models_map():
    package_map = PackageMap()
    package_map.AddPackageXml(MODELS / "package.xml")
    return package_map


def test_resolve_package_and_model_urls(models_map):
    expected = str(MODELS / "meshes" / "box.stl")
    assert models_map.ResolveUrl("package://parser_test_models/meshes/box.stl") == expected
    assert models_map.ResolveUrl("model://parser_test_models/meshes/box.stl") == expected
    assert models_map.ResolveUrl("package://parser_test_models//meshes/./box.stl") == expected


def test_resolve_file_url(models_map):
    path = str(MODELS / "arm.urdf")
    assert models_map.ResolveUrl("file://" + path) == path


def test_resolve_errors(models_map):
    with pytest.raises(RuntimeError, match=r"URI 'package://nopkg/x\.stl' refers to unknown "
                                           r"package 'nopkg'"):
        models_map.ResolveUrl("package://nopkg/x.stl")
    missing = MODELS / "meshes" / "missing.stl"
    with pytest.raises(RuntimeError, match=rf"resolved to '{missing}' which does not exist"):
        models_map.ResolveUrl("package://parser_test_models/meshes/missing.stl")
    with pytest.raises(RuntimeError, match=r"URI 'http://example\.com/x' specifies an "
                                           r"unsupported scheme"):
        models_map.ResolveUrl("http://example.com/x")
    with pytest.raises(RuntimeError, match=r"URI 'meshes/box\.stl' is invalid when parsing a "
                                           r"string instead of a filename"):
        models_map.ResolveUrl("meshes/box.stl")


def test_three_slashes_are_read_as_the_package_they_meant_with_a_warning(models_map):
    # example-robot-data's talos_full_v2.urdf writes package:///example-robot-data/...;
    # pydrake 1.51 reads the package name as '' and refuses it. Here the package
    # meant is read, with a warning saying so.
    with pytest.warns(ParsingWarning, match=r"names the empty package \(three slashes\); "
                                            r"read as 'package://parser_test_models/"):
        path = models_map.ResolveUrl("package:///parser_test_models/meshes/box.stl")
    assert path == models_map.ResolveUrl("package://parser_test_models/meshes/box.stl")
    with pytest.raises(RuntimeError, match=r"unknown package ''"):
        models_map.ResolveUrl("package:///no_such_package/box.stl")


def test_paths_are_normalised(models_map, tmp_path):
    os.symlink(MODELS, tmp_path / "link")
    package_map = PackageMap()
    package_map.Add("linked", tmp_path / "link")
    assert package_map.ResolveUrl("package://linked/meshes/../arm.urdf") == \
        str(tmp_path / "link" / "arm.urdf")
