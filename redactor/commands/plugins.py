"""``redactor plugins``: every OCR backend, detector, OCR-free system and visual detector,
whether it can run here (and why not), and the fine types each can emit."""
from __future__ import annotations

import json


def register(sub) -> None:
    p = sub.add_parser("plugins", help="list plugins, their availability and emit-able types",
                       description="List every OCR backend, detector, OCR-free system and visual "
                                   "detector installed (ours and third-party entry points): "
                                   "whether it can run here now (binary, packages, model weights, "
                                   "credentials) and why not, and the types it can emit.")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--options", action="store_true",
                   help="also list each plugin's options and their defaults (set them with "
                        "--ocr-option KEY=VALUE or --detector-option NAME.KEY=VALUE)")
    p.set_defaults(func=run)


def run(args) -> int:
    from redactor.registry import describe_all

    infos = describe_all()
    if args.json:
        print(json.dumps([i.__dict__ for i in infos], indent=2))
        return 0
    kind_title = {"ocr": "OCR backends", "detector": "Detectors", "ocr_free": "OCR-free systems",
                  "visual": "Visual detectors (signatures, photos, codes)"}
    for kind, title in kind_title.items():
        print(f"{title}:")
        for info in (i for i in infos if i.kind == kind):
            state = "available" if info.available else f"unavailable: {info.reason}"
            print(f"  {info.name:<22} {state}")
            if info.emits:
                print(f"  {'':<22} emits: {', '.join(info.emits)}")
            if args.options and info.options:
                shown = ", ".join(f"{k}={v}" if v else k for k, v in info.options.items())
                print(f"  {'':<22} options: {shown}")
    return 0
