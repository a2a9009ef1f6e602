"""``redactor plugins``: every OCR backend, detector, OCR-free system and visual detector,
whether it can run here (and why not), the fine types each can emit and, with
``--options``, the options each takes."""
from __future__ import annotations

import json

KIND_TITLE = {"ocr": "OCR backends", "detector": "Detectors", "ocr_free": "OCR-free systems",
              "visual": "Visual detectors (signatures, photos, codes)"}
INDENT = " " * 25


def register(sub) -> None:
    p = sub.add_parser("plugins", help="list plugins, their availability and emit-able types",
                       description="List every OCR backend, detector, OCR-free system and visual "
                                   "detector installed (ours and third-party entry points): "
                                   "whether it can run here now (binary, packages, model weights, "
                                   "credentials) and why not, and the types it can emit.")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--options", action="store_true",
                   help="also list each plugin's options with their types and defaults (set them "
                        "with --ocr-option KEY=VALUE or --detector-option NAME.KEY=VALUE)")
    p.add_argument("--config", metavar="FILE",
                   help="judge availability with this run config's plugin options (e.g. a "
                        "[detector_options.gliner] model folder)")
    p.add_argument("--ocr", metavar="NAME",
                   help="the OCR backend --ocr-option is for (default: the config's, else the "
                        "default pipeline's)")
    p.add_argument("--ocr-option", action="append", metavar="KEY=VALUE", default=[],
                   help="judge availability with this OCR option, as redact takes it; repeatable")
    p.add_argument("--detector-option", action="append", metavar="NAME.KEY=VALUE", default=[],
                   help="judge availability with this option, as redact takes it (e.g. "
                        "gliner.model=DIR: available when DIR holds the weights); repeatable")
    p.set_defaults(func=run)


def run(args) -> int:
    from redactor.registry import describe_all

    infos = describe_all(_given_options(args))
    if args.json:
        print(json.dumps([i.__dict__ for i in infos], indent=2))
        return 0
    for kind, title in KIND_TITLE.items():
        print(f"{title}:")
        for info in (i for i in infos if i.kind == kind):
            state = "available" if info.available else f"unavailable: {info.reason}"
            print(f"  {info.name:<22} {state}")
            if info.emits:
                print(f"{INDENT}emits: {', '.join(info.emits)}")
            if args.options:
                for line in _option_lines(info.options):
                    print(line)
    return 0


def _option_lines(options: dict[str, dict], width: int = 100) -> list[str]:
    """``options: psm: int = 3, lang: str = 'eng', ...`` wrapped between options, never
    inside one; a required option has no default."""
    items = [f"{key}: {spec['type']}" + ("" if spec["required"] else f" = {spec['default']!r}")
             for key, spec in options.items()] or ["none"]
    lines, line = [], f"{INDENT}options: {items[0]}"
    for item in items[1:]:
        if len(line) + len(item) + 2 > width:
            lines.append(line + ",")
            line = f"{INDENT}  {item}"
        else:
            line += f", {item}"
    return lines + [line]


def _given_options(args) -> dict[tuple[str, str], dict]:
    """Options per ``(kind, name)`` from ``--config``, ``--ocr-option`` and ``--detector-option``, each checked
    against its plugin (a typo is exit 2 here as in redact). A detector option's NAME may
    be a detector, visual detector or OCR-free system, as in a run config."""
    from redactor import registry
    from redactor.errors import InputError

    from redactor.commands.redact import parse_ocr_options
    from redactor.config import RedactorConfig, load_config

    cfg = load_config(args.config) if args.config else RedactorConfig()
    given = {}
    named = {k: dict(v) for k, v in cfg.detector_options.items()}
    ocr = args.ocr or cfg.ocr
    if ocr not in registry.names("ocr"):
        raise InputError(f"--ocr: no OCR backend is named {ocr!r}")
    given[("ocr", ocr)] = {**(cfg.ocr_options if ocr == cfg.ocr else {}), **parse_ocr_options(args.ocr_option)}
    for name, key, value in _detector_options(args.detector_option):
        named.setdefault(name, {})[key] = value
    for name, opts in named.items():
        kinds = [k for k in ("detector", "visual", "ocr_free") if name in registry.names(k)]
        if not kinds:
            raise InputError(f"--detector-option: no detector, visual detector or OCR-free "
                             f"system is named {name!r}")
        for kind in kinds:
            given[(kind, name)] = opts
    for (kind, name), opts in given.items():
        registry.check_options(kind, name, opts)
    return given


def _detector_options(items: list[str]):
    """``NAME.KEY=VALUE`` flags as ``(name, key, value)``, values read as redact reads them."""
    from redactor.commands.redact import _parse_value
    from redactor.errors import InputError

    for item in items:
        target, sep, value = item.partition("=")
        name, dot, key = target.partition(".")
        if not sep or not dot or not name or not key:
            raise InputError(f"--detector-option expects NAME.KEY=VALUE, got {item!r}")
        yield name, key, _parse_value(value)
