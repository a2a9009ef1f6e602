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


def _core_modules_imported(path: Path) -> set[str]:
    """The ``redactor...`` modules a file imports (a ``from redactor import x`` counts as
    ``redactor.x``), wherever the import statement is (module top or inside a function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "redactor"}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "redactor":
                out |= {f"redactor.{a.name}" for a in node.names}
            elif node.module.startswith("redactor."):
                out.add(node.module)
    return out


def test_plugins_use_the_core_only_through_the_plugin_api():
    # what a third-party plugin may import is what ours import: the core can be
    # reorganised behind redactor.plugin_api without breaking an installed plugin
    bad = [f"{path.relative_to(ROOT)} imports {name}"
           for path in sorted((ROOT / "plugins").rglob("*.py"))
           for name in _core_modules_imported(path) - {"redactor.plugin_api"}]
    assert not bad, bad


def test_everything_the_plugin_api_exports_exists():
    import redactor.plugin_api as api
    missing = [name for name in api.__all__ if not hasattr(api, name)]
    assert not missing, missing
    # the policy machinery is imported when a plugin first asks for it, not with the API
    assert callable(api.check_policies) and api.load_policies.__module__ == "redactor.policy.model"
