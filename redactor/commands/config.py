"""``redactor config``: every setting of a run with its value and what it does, as a TOML
file that `--config` reads back (the defaults, or a config file's effective result)."""
from __future__ import annotations

import json
from typing import Any


def register(sub) -> None:
    p = sub.add_parser("config", help="show every setting, its value and what it does",
                       description="Print every config key with its effective value and a "
                                   "one-line description, as TOML that --config reads back. "
                                   "Without --config: the defaults.")
    p.add_argument("--config", metavar="FILE", help="show this file's settings on top of the defaults")
    p.set_defaults(func=run)


def run(args) -> int:
    from redactor.config import describe_options, load_config

    cfg = load_config(args.config).to_dict()
    tables = []
    for key, _default, help_text in describe_options():
        value = cfg[key]
        if isinstance(value, dict):
            tables.append((key, value, help_text))
            continue
        print(f"# {help_text}")
        print(f"{key} = {_toml(value)}" if value is not None else f"# {key} = (not set)")
    for key, value, help_text in tables:
        print(f"\n# {help_text}")
        print(f"[{key}]")
        for name, inner in value.items():
            if isinstance(inner, dict):
                print(f"\n[{key}.{_key(name)}]")
                for opt, v in inner.items():
                    print(f"{_key(opt)} = {_toml(v)}")
            else:
                print(f"{_key(name)} = {_toml(inner)}")
    return 0


def _key(name: str) -> str:
    bare = name.replace("_", "").replace("-", "").isalnum()
    return name if bare else json.dumps(name)


def _toml(value: Any) -> str:
    """TOML for the values a config holds (JSON's string escapes are TOML's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {value!r}")
