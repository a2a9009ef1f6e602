"""The packages depend one way: the core (``redactor``) imports neither the plugins nor the
evaluation, and the plugins do not import the evaluation. A plugin or the evaluation may be
left out of an installation; the core must not break when it is."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# folder -> top-level package names its modules must not import
FORBIDDEN = {
    "redactor": ("plugins", "eval", "redactor_plugins", "redactor_eval"),
    "plugins": ("eval", "redactor_eval"),
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_no_import_against_the_dependency_direction(folder):
    bad = [f"{path.relative_to(ROOT)} imports {name}"
           for path in sorted((ROOT / folder).rglob("*.py"))
           for name in _imports(path) & set(FORBIDDEN[folder])]
    assert not bad, bad


def test_the_evaluation_commands_come_through_entry_points():
    from importlib.metadata import entry_points

    from redactor.cli import build_parser
    names = {ep.name for ep in entry_points(group="redactor.commands")}
    assert {"eval", "bench", "predict", "synth", "docpp"} <= names
    parser = build_parser()
    sub = next(a for a in parser._actions if hasattr(a, "choices") and a.choices and "redact" in a.choices)
    assert names <= set(sub.choices)


def test_nothing_imports_the_folders_by_their_bare_names():
    # the folders install as redactor_plugins / redactor_eval / redactor_mappings: a bare
    # `plugins` or `eval` import works only from a checkout and would load a second copy
    bad = [f"{path.relative_to(ROOT)} imports {name}"
           for folder in ("redactor", "plugins", "eval", "tests")
           for path in sorted((ROOT / folder).rglob("*.py")) if "/data/" not in str(path)
           for name in _imports(path) & {"plugins", "eval", "mappings"}]
    assert not bad, bad
