"""scenegraph._numba_import: numba imported without scipy and yaml, which its
import pulls in only for a version check and an optional config file."""
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

from scenegraph import _numba_import

ROOT = os.path.dirname(os.path.dirname(_numba_import.__file__))

PROBE = textwrap.dedent("""
    import sys
    import numpy
    ma_by_numpy = "numpy.ma" in sys.modules    # numpy 1.x imports it itself
    from scenegraph._numba_import import import_numba
    numba = import_numba()
    from numba.core import config
    imported = ("scipy" in sys.modules, "yaml" in sys.modules)
    have_yaml = config._HAVE_YAML
    parsed = config.yaml.safe_load("a: [1, 2]")
    import numpy as np
    typed = numba.typeof(np.zeros((2, 3))[:, :2])
    typed = f"{typed} {('numpy.ma' in sys.modules) != ma_by_numpy}"
    import scipy.linalg
    print(typed, imported, have_yaml, parsed, int(config.OPT), "yaml" in sys.modules,
          scipy.linalg.det([[2.0, 0.0], [0.0, 3.0]]))
""")


def _probe(cwd):
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("NUMBA_OPT", None)
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=cwd, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_numba_imports_without_scipy_and_yaml_which_still_work_after(tmp_path):
    # Neither package imported by numba's import; numba's config still has
    # a YAML reader (imported at its first use), and scipy imports as usual.
    # A plain ndarray is typed without importing numpy.ma (numpy 2 does not
    # import it; numpy 1.x does, itself).
    assert _probe(tmp_path) == ("array(float64, 2d, A) False (False, False) True "
                                "{'a': [1, 2]} 3 True 6.0")


def test_yaml_is_not_deferred_when_a_numba_config_file_is_there(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    missing = ("scipy", "yaml")
    assert _numba_import.deferred(missing) == ["scipy", "yaml"]
    (tmp_path / _numba_import.NUMBA_CONFIG_FILE).write_text("opt: 2\n")
    assert _numba_import.deferred(missing) == ["scipy"]
    assert _numba_import.deferred(()) == []


def test_the_refusal_holds_only_in_the_importing_thread():
    finder = _numba_import._Refuse(["scipy"], threading.get_ident())
    with pytest.raises(ModuleNotFoundError, match="scipy deferred"):
        finder.find_spec("scipy")
    assert finder.find_spec("numpy") is None
    answers = []
    other = threading.Thread(target=lambda: answers.append(finder.find_spec("scipy")))
    other.start()
    other.join()
    assert answers == [None]


def test_an_imported_numba_is_returned_as_is():
    import numba
    assert _numba_import.import_numba() is numba


@pytest.mark.parametrize("value", [
    np.zeros(3), np.zeros((3, 3)), np.zeros((3, 3))[:, :2], np.zeros((3, 3)).T,
    np.zeros(3, dtype=np.int64), np.zeros((0, 3)), np.zeros(4)[::2],
    np.zeros(2, dtype=np.complex128), np.zeros(3, dtype=np.bool_), np.zeros(2, dtype=object),
    np.zeros(2, dtype="U3")])
def test_a_plain_array_is_typed_as_numbas_own_typeof_types_it(value):
    _numba_import.import_numba()
    numbas = _numba_import._NUMBA_TYPEOF_NDARRAY[0]
    assert _numba_import.typeof_ndarray(value, None) == numbas(value, None)
    value.setflags(write=False)
    assert _numba_import.typeof_ndarray(value, None) == numbas(value, None)


def test_a_masked_array_is_still_refused():
    numba = _numba_import.import_numba()
    from numba.core import errors
    with pytest.raises(errors.NumbaTypeError, match="MaskedArray"):
        numba.typeof(np.ma.zeros(3))


def test_the_checked_numba_range_is_the_one_pyproject_requires():
    import tomllib
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        requirements = tomllib.load(f)["project"]["dependencies"]
    (low, high) = _numba_import.NUMBA_RANGE
    assert f"numba>={low[0]}.{low[1]},<{high[0]}.{high[1]}" in requirements


def test_an_older_numba_is_refused_naming_its_version_and_the_range():
    with pytest.raises(ImportError, match=r"needs numba>=0\.66,<0\.69, found numba 0\.65\.1"):
        _numba_import.check_numba_version("0.65.1")
    with pytest.raises(ImportError, match="found numba unknown"):
        _numba_import.check_numba_version("unknown")


def test_a_newer_numba_is_accepted_with_a_warning_and_the_range_quietly():
    with pytest.warns(RuntimeWarning, match=r"numba 0\.69\.0rc1 is newer and untested"):
        _numba_import.check_numba_version("0.69.0rc1")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for version in ("0.66.0", "0.68.1", "0.68.2.dev0+g1234"):
            _numba_import.check_numba_version(version)
