"""``redactor redact``: burn PII out of page images and PDFs, write the boxes found."""
from __future__ import annotations

import json
import logging
import sys
import tempfile
from pathlib import Path

from redactor.commands._common import add_burn_options
from redactor.errors import (EXIT_PARTIAL, InputError, OutputError, RedactorError, VerificationFailed,
                             exit_code_for, one_line)

log = logging.getLogger(__name__)


def add_pipeline_options(p) -> None:
    """Options shared by every command that runs the pipeline (redact, predict, batch)."""
    p.add_argument("--config", metavar="FILE",
                   help="TOML file with the same options (flags win); `redactor config` lists "
                        "every key with its default")
    p.add_argument("--ocr", help="OCR backend (default: tesseract); see `redactor plugins`")
    p.add_argument("--detector", dest="detectors", action="append", metavar="NAME",
                   help="detector plugin; repeat for an ensemble (default: rules, presidio, with "
                        "their tuned options)")
    p.add_argument("--ocr-free", metavar="NAME", help="an OCR-free system instead of OCR + detectors")
    p.add_argument("--visual", action="append", metavar="NAME",
                   help="visual detector on the page image (codes, faces, signatures, stamps, "
                        "time_stamps); repeat; 'none' for none (default: codes, faces, "
                        "signatures, time_stamps)")
    p.add_argument("--types", action="append", metavar="T[,T]",
                   help="only these fine types or groups (direct, linkage, critical, ...)")
    p.add_argument("--min-score", type=float, help="drop detections scored below this (0-1)")
    p.add_argument("--box-mode", choices=["auto", "span", "line"],
                   help="one rectangle per span, per line, or auto (default)")
    p.add_argument("--no-ink-fit", dest="fit_to_ink", action="store_false", default=None,
                   help="do not grow boxes to the ink of the value")
    p.add_argument("--cut-punctuation", dest="cut_punctuation", action="store_true", default=None,
                   help="cut a word's edge punctuation the value leaves out off its box (default: "
                        "only a fill-in line touching the value)")
    p.add_argument("--verify", dest="verify", action="store_true", default=None,
                   help="read every output page again before writing it, burn what a reader could "
                        "still use in a second pass, and keep aside what remains (default: on)")
    p.add_argument("--no-verify", dest="verify", action="store_false",
                   help="skip that check: about twice the pages/s, and nothing catches what the "
                        "first pass left readable")
    p.add_argument("--on-verify-fail", choices=["fail", "quarantine"],
                   help="quarantine (default): write it to OUT/quarantine/; fail: write nothing")
    p.add_argument("--page-timeout", type=float, metavar="SECONDS",
                   help="analyse pages in a child process and give up on a page after this long "
                        "(also contains crashes of native code)")
    p.add_argument("--max-pixels", type=int, help="refuse pages larger than this many pixels")
    p.add_argument("--pdf-dpi", type=int,
                   help="resolution born-digital PDF pages are rendered at (a scanned page keeps "
                        "its scan's own resolution)")
    p.add_argument("--ocr-option", action="append", metavar="KEY=VALUE", default=[],
                   help="option for the OCR backend (e.g. psm=11)")
    p.add_argument("--detector-option", action="append", metavar="NAME.KEY=VALUE", default=[],
                   help="option for one detector (e.g. presidio.spacy_model=en_core_web_sm)")
    p.add_argument("--patterns", action="append", metavar="FILE",
                   help="YAML file of pattern recognizers in Presidio's format: each adds a rule "
                        "with its own name and type; repeatable (docs/review.md)")
    lists = p.add_argument_group(
        "allow and deny lists",
        "applied by the pipeline after every detector, so no detector undoes them; added to "
        "the config file's allow/allow_patterns/deny/deny_patterns (docs/review.md)")
    lists.add_argument("--allow", action="append", metavar="TERM", default=[],
                       help="never redact a value that is exactly TERM (case-insensitive); repeatable")
    lists.add_argument("--allow-pattern", dest="allow_patterns", action="append", metavar="REGEX", default=[],
                       help="never redact a value REGEX matches in full (case-insensitive); repeatable")
    lists.add_argument("--deny", action="append", metavar="TERM", default=[],
                       help="always redact TERM wherever OCR reads it (type OTHER), even if no "
                            "detector finds it; repeatable")
    lists.add_argument("--deny-pattern", dest="deny_patterns", action="append", metavar="REGEX", default=[],
                       help="always redact what REGEX matches in the OCR text (type OTHER); repeatable")


def _parse_value(raw: str):
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def parse_ocr_options(items: list[str] | None) -> dict:
    """``--ocr-option KEY=VALUE`` flags as a dict, values read as JSON where they parse."""
    options = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise InputError(f"--ocr-option expects KEY=VALUE, got {item!r}")
        options[key] = _parse_value(value)
    return options


def config_from_args(args):
    from redactor.config import check_config, load_config

    ocr_options = parse_ocr_options(args.ocr_option)
    det_options: dict[str, dict] = {}
    for item in args.detector_option or []:
        target, sep, value = item.partition("=")
        name, dot, key = target.partition(".")
        if not sep or not dot or not name or not key:
            raise InputError(f"--detector-option expects NAME.KEY=VALUE, got {item!r}")
        det_options.setdefault(name, {})[key] = _parse_value(value)
    overrides = {
        "ocr": args.ocr, "detectors": args.detectors, "ocr_free": args.ocr_free,
        "visual": getattr(args, "visual", None),
        "types": args.types, "min_score": args.min_score, "box_mode": args.box_mode,
        "fit_to_ink": args.fit_to_ink, "cut_punctuation": args.cut_punctuation,
        "verify": args.verify, "page_timeout": args.page_timeout,
        "on_verify_fail": args.on_verify_fail, "max_pixels": args.max_pixels, "pdf_dpi": args.pdf_dpi,
        "pad": getattr(args, "pad", None), "fill": getattr(args, "fill", None),
    }
    cfg = load_config(args.config, overrides)
    cfg.ocr_options = {**cfg.ocr_options, **ocr_options}
    for name, opts in det_options.items():
        cfg.detector_options[name] = {**cfg.detector_options.get(name, {}), **opts}
    check_config(cfg)
    _add_list_flags(cfg, args)
    if getattr(args, "patterns", None):
        from redactor.user_patterns import load_pattern_files
        load_pattern_files(args.patterns)   # a bad file: exit 2 before any page is read
        cfg.patterns = list(cfg.patterns) + list(args.patterns)   # added, like the lists
    return cfg


_LIST_FLAGS = {"allow": "--allow", "allow_patterns": "--allow-pattern", "deny": "--deny",
               "deny_patterns": "--deny-pattern"}


def _add_list_flags(cfg, args) -> None:
    """The allow/deny flags, validated under their own names, added to the config's lists."""
    from redactor.lists import build_lists

    given = {key: list(getattr(args, key, None) or []) for key in _LIST_FLAGS}
    if not any(given.values()):
        return
    build_lists(**given, names=_LIST_FLAGS)
    for key, values in given.items():
        setattr(cfg, key, list(getattr(cfg, key) or []) + values)


def register(sub) -> None:
    p = sub.add_parser("redact", help="redact page images or PDFs",
                       description="Redact page images (PNG, JPEG, TIFF, WebP, ...) or PDFs. "
                                   "Writes DIR/<stem>.redacted.png (PDF in: .redacted.pdf, TIFF "
                                   "in: .redacted.tif, each page at its input's size and "
                                   "resolution) and "
                                   "DIR/<stem>.boxes.jsonl. With --preview: burns nothing, "
                                   "writes an outlined preview and the boxes file for review "
                                   "(then `redactor apply`).")
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("--overwrite", action="store_true",
                   help="replace outputs that already exist in DIR (default: that input fails "
                        "and the files are left alone)")
    p.add_argument("--preview", action="store_true",
                   help="burn nothing: write DIR/<stem>.preview.png (several pages: "
                        "<stem>-p0001.preview.png, ...), the page with each proposed box outlined "
                        "in its group's colour and labelled with type and source, and the boxes "
                        "file; review or edit the boxes file, then `redactor apply`. The preview "
                        "shows the UNREDACTED page: written owner-only (0600), never publish it")
    add_burn_options(p)
    add_audit_option(p)
    add_pipeline_options(p)
    p.set_defaults(func=run)


def add_audit_option(p) -> None:
    p.add_argument("--audit", metavar="FILE",
                   help="append every page's full record, hidden values included, to FILE "
                        "(owner-only; must lie outside the output folder). The boxes files "
                        "never hold the hidden text.")


def check_writable(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise OutputError(f"output folder {folder} is not writable: {exc.strerror or exc}") from None


def output_names(inputs: list[Path]) -> dict[Path, str]:
    stems: dict[str, Path] = {}
    for path in inputs:
        if path.stem in stems and stems[path.stem] != path:
            raise InputError(f"{path} and {stems[path.stem]} would write the same output name "
                             f"{path.stem!r}; redact them into different folders")
        stems[path.stem] = path
    return {p: p.stem for p in inputs}


def _page_bar(path: Path, n_inputs: int):
    """A bar over the pages of one document (beside the bar over the inputs), for documents
    of several pages; off when stderr is not a terminal, like every bar here."""
    from tqdm import tqdm

    from redactor.batch.walk import estimate_pages
    pages = estimate_pages(path)
    return tqdm(total=pages, unit="page", desc=path.name, leave=False, file=sys.stderr,
                position=1 if n_inputs > 1 else 0, disable=None if pages > 1 else True)


def _report_failure(failures: list, path: Path, exc: RedactorError, detail: str | None = None) -> None:
    """Count a failed input and say so in one line that names it (``detail`` in place of
    the error's own text)."""
    from tqdm import tqdm

    failures.append(exc)
    msg = detail or str(exc)
    msg = msg if path.name in msg else f"{path.name}: {msg}"
    tqdm.write(f"redactor: error: {one_line(msg)}", file=sys.stderr)


class _Run:
    """What one ``redact`` run holds across its inputs: the pipeline, the output names, the
    audit log and the failures so far."""

    def __init__(self, args, redactor, analyzer, audit, names: dict[Path, str], n_inputs: int):
        self.args, self.redactor, self.analyzer, self.audit = args, redactor, analyzer, audit
        self.names, self.n_inputs = names, n_inputs
        self.out_dir = Path(args.out)
        self.failures: list[RedactorError] = []

    def one(self, path: Path) -> bool:
        """Redact (or preview) one input; True when it was written and passed."""
        from redactor.document import existing_outputs
        from redactor.review import existing_previews

        name = self.names[path]
        # the quarantine is the tool's own back room: its files are replaced freely
        present = existing_outputs(self.out_dir, name, quarantine=False)
        if self.args.preview:
            present += existing_previews(self.out_dir, name)
        if present and not self.args.overwrite:
            # Files of an earlier run, or anyone's: never replaced without being asked.
            _report_failure(self.failures, path,
                            OutputError(f"{path.name}: {present[0]} already exists; --overwrite replaces it"),
                            f"{present[0]} already exists; nothing written (--overwrite replaces it)")
            return False
        return self._preview(path, name) if self.args.preview else self._redact(path, name)

    def _preview(self, path: Path, name: str) -> bool:
        from tqdm import tqdm

        from redactor.review import preview_document
        from redactor.summary import type_counts
        try:
            doc = preview_document(self.redactor, path, self.out_dir, name, self.analyzer,
                                   replace=self.args.overwrite)
        except RedactorError as exc:
            _report_failure(self.failures, path, exc)
            return False
        if self.audit is not None:
            self.audit.write(doc.records)
        tqdm.write(one_line(f"{path} -> {doc.output} (preview, owner-only; {len(doc.pages)} "
                            f"page(s), {type_counts(doc.pages)} proposed, nothing burned; "
                            f"boxes in {doc.boxes})"), file=sys.stdout)
        return True

    def _redact(self, path: Path, name: str) -> bool:
        from tqdm import tqdm

        from redactor.document import redact_document, remove_stale_outputs
        from redactor.summary import readable_findings, type_counts
        try:
            with _page_bar(path, self.n_inputs) as bar:
                doc = redact_document(self.redactor, path, self.out_dir, name, self.analyzer,
                                      progress=bar.update)
        except RedactorError as exc:
            _report_failure(self.failures, path, exc)
            stale = remove_stale_outputs(self.out_dir, name)
            if stale:
                tqdm.write(one_line(f"redactor: removed the outputs of an earlier run: "
                                    f"{', '.join(p.name for p in stale)}"), file=sys.stderr)
            return False
        if self.audit is not None:
            self.audit.write(doc.records)
        if doc.quarantined:
            _report_failure(self.failures, path, VerificationFailed(f"{path.name}: failed verification, quarantined"),
                            f"failed verification, {readable_findings(doc.pages)}; written to {doc.output} "
                            f"(quarantine)")
            return False
        remove_stale_outputs(self.out_dir, name, published=False)   # it passed now
        tqdm.write(one_line(f"{path} -> {doc.output} ({len(doc.pages)} page(s), "
                            f"{type_counts(doc.pages)})"), file=sys.stdout)
        return True


def run(args) -> int:
    from tqdm import tqdm

    from redactor.audit import AuditLog
    from redactor.document import QUARANTINE_DIR
    from redactor.isolation import IsolatedAnalyzer
    from redactor.pipeline import Redactor
    from redactor.render import sweep_partial_outputs

    inputs = [Path(p) for p in args.inputs]
    for p in inputs:
        if p.is_dir():
            raise InputError(f"{p} is a folder; use `redactor batch {p} --out DIR` for folders")
    names = output_names(inputs)
    # a bad option is refused before the output folder is made or touched
    config = config_from_args(args)
    out_dir = Path(args.out)
    check_writable(out_dir)
    # what a killed run left half-written (never a final name)
    sweep_partial_outputs(out_dir)
    sweep_partial_outputs(out_dir / QUARANTINE_DIR)
    if args.preview and args.verify:
        log.warning("--verify does not run with --preview (nothing is burned yet)")
    audit = AuditLog(args.audit, [out_dir]) if args.audit else None
    redactor = Redactor(config)
    analyzer = IsolatedAnalyzer(config, config.page_timeout) if config.page_timeout else None
    job = _Run(args, redactor, analyzer, audit, names, len(inputs))
    done = 0
    try:
        for path in tqdm(inputs, unit="file", disable=len(inputs) < 2 or None, file=sys.stderr):
            done += job.one(path)
    finally:
        if analyzer is not None:
            analyzer.close()
        if audit is not None:
            audit.close()
    if job.failures:
        print(f"redactor: {done} of {len(inputs)} input(s) redacted, {len(job.failures)} failed",
              file=sys.stderr)
        return exit_code_for(job.failures[0]) if done == 0 else EXIT_PARTIAL
    return 0
