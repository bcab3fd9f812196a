"""The suite's controller compiles the test modules once: what it writes is what pytest's import
hook reads, asserts rewritten (tests/bytecode.py)."""

from __future__ import annotations

from pathlib import Path
from types import CodeType

import pytest

from tests.bytecode import rewrite_tests

try:  # pytest's private names, which tests/bytecode.py does without where they change
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, get_cache_dir
except ImportError:
    pytest.skip("this pytest names its assert rewriting otherwise", allow_module_level=True)


def test_a_test_module_is_rewritten_where_pytest_reads_it(pytestconfig: pytest.Config,
                                                          tmp_path: Path) -> None:
    source = tmp_path / "test_sample.py"
    source.write_text("def test_it():\n    x = 1\n    assert x == 2\n")
    (tmp_path / "helper.py").write_text("x = 1\n")
    rewrite_tests(pytestconfig, [tmp_path])
    pyc = get_cache_dir(source) / ("test_sample" + PYC_TAIL)
    code = _read_pyc(source, pyc, lambda *args: None)
    assert code is not None and "@py_assert1" in _function(code).co_varnames
    assert [p.name for p in get_cache_dir(source).iterdir()] == [pyc.name]  # not the helper
    namespace: dict[str, object] = {}
    exec(code, namespace)
    with pytest.raises(AssertionError, match="assert 1 == 2"):
        namespace["test_it"]()  # type: ignore[operator]


def test_an_edited_module_is_rewritten_again(pytestconfig: pytest.Config, tmp_path: Path) -> None:
    source = tmp_path / "test_sample.py"
    source.write_text("def test_it():\n    assert 1 == 2\n")
    rewrite_tests(pytestconfig, [tmp_path])
    source.write_text("def test_it():\n    assert 3 == 4\n")
    rewrite_tests(pytestconfig, [tmp_path])
    code = _read_pyc(source, get_cache_dir(source) / ("test_sample" + PYC_TAIL),
                     lambda *args: None)
    assert code is not None and 3 in _function(code).co_consts


def _function(module: CodeType) -> CodeType:
    """The code of the module's one function."""
    (found,) = [c for c in module.co_consts if isinstance(c, CodeType)]
    return found


def test_a_module_that_does_not_compile_is_left_to_the_test_process(
        pytestconfig: pytest.Config, tmp_path: Path) -> None:
    (tmp_path / "test_broken.py").write_text("def test_it(:\n")
    (tmp_path / "test_fine.py").write_text("def test_it():\n    assert True\n")
    rewrite_tests(pytestconfig, [tmp_path])
    assert [p.name.split(".")[0] for p in get_cache_dir(tmp_path / "test_fine.py").iterdir()] == [
        "test_fine"]
