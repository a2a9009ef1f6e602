"""The redaction pipeline: page image -> OCR words -> detector spans -> merged spans ->
pixel boxes -> burned-in page. Also the public Python API (``Redactor``).

Every stage failure raises a typed error; nothing here returns a page that looks redacted
when a stage failed (callers that keep going, like batch runs, record the error instead of
an output).
"""
from __future__ import annotations

import logging
import math
from typing import Sequence

from PIL import Image

from redactor import registry
from redactor.aligner import Alignment, align_spans, propagate_repeats
from redactor.surname_repeats import propagate_surnames
from redactor.name_columns import propagate_name_columns
from redactor.authority_addresses import drop_authority_addresses
from redactor.option_lists import drop_option_lists, option_list_ranges
from redactor.place_in_names import drop_places_in_body_names
from redactor.printed_definitions import drop_in_printed_definitions
from redactor.slash_names import split_slash_joined_names
from redactor.config import RedactorConfig, load_config
from redactor.errors import PluginFailed, RedactorError, plugin_failure
from redactor.imageio import as_page_image
from redactor.model import STATISTICAL, OcrPage, PageResult, Redaction, Span, WordBox
from redactor.render import burn_in, parse_fill
from redactor.taxonomy import is_known, parse_types
from redactor.unread_ink import grow_redactions_over_unread_ink
from redactor.unsure_words import grow_over_unsure_words
from redactor.user_patterns import find_pattern_spans, load_pattern_files

log = logging.getLogger(__name__)


def _clip_box(bbox, width: int, height: int):
    x0, y0, x1, y1 = (float(v) for v in bbox)
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
        return None
    x0, x1 = sorted((max(0.0, min(x0, width)), max(0.0, min(x1, width))))
    y0, y1 = sorted((max(0.0, min(y0, height)), max(0.0, min(y1, height))))
    if x1 - x0 <= 0 or y1 - y0 <= 0:
        return None
    return (x0, y0, x1, y1)


def sanitize_ocr_page(page: OcrPage, width: int, height: int) -> OcrPage:
    """Words with boxes clipped to the page; a word with no area left cannot be redacted by
    box and is a sign of a broken backend, so it fails the page instead of vanishing."""
    words = []
    for w in page.words:
        box = _clip_box(w.bbox, width, height)
        if box is None:
            raise PluginFailed(f"OCR {page.engine!r} returned an unusable box {list(w.bbox)} "
                               f"for word {w.text!r}")
        words.append(WordBox(w.text, box, w.conf, w.line, w.block))
    return OcrPage(width, height, tuple(words), page.engine, page.version)


def sanitize_spans(page: OcrPage, spans: Sequence[Span], detector: str, evidence=None) -> list[Span]:
    """The spans a detector returned, checked and clipped to the text, each with the
    evidence tier the detector declares (``evidence(span)``) unless it carries one."""
    out = []
    n = len(page.text)
    for s in spans:
        if not isinstance(s, Span):
            raise PluginFailed(f"detector {detector!r} returned {type(s).__name__}, not Span")
        if not is_known(s.type):
            raise PluginFailed(f"detector {detector!r} emitted unknown type {s.type!r}")
        start, end = max(0, int(s.start)), min(n, int(s.end))
        if end <= start:
            # Past the end of the text or empty: nothing on the page to hide, but say so.
            log.warning("detector %s returned an empty/out-of-range span %d-%d", detector, s.start, s.end)
            continue
        tier = s.evidence if s.evidence is not None else (evidence(s) if evidence else STATISTICAL)
        out.append(s.with_(start=start, end=end, text=page.text[start:end],
                           detector=s.detector or detector, evidence=tier))
    return out


def merge_spans(page: OcrPage, spans: list[Span]) -> list[Span]:
    from redactor.ensemble import merge_spans as _merge
    return _merge(spans, text=page.text)


def check_available(config: RedactorConfig) -> None:
    """Raise PluginUnavailable/InputError now for any plugin the config names, given its
    options (a model folder among them counts), before work is handed to worker processes
    (where the failure would be harder to read). Cheap: no model is loaded."""
    options = config.detector_options or {}
    if config.ocr_free:
        wanted = [("ocr_free", config.ocr_free, options.get(config.ocr_free, {}))]
    else:
        wanted = [("ocr", config.ocr, config.ocr_options or {})] + \
            [("detector", d, options.get(d, {})) for d in config.detectors] + \
            [("visual", v, options.get(v, {})) for v in config.visual]
    for kind, name, opts in wanted:
        registry.check_available(kind, name, opts)


class Redactor:
    """``Redactor(ocr="tesseract", detectors=["presidio"]).redact(image)`` returns the
    redacted image and its redactions. Options are those of ``RedactorConfig``."""

    def __init__(self, config: RedactorConfig | None = None, **options):
        if config is None:
            config = load_config(None, options)
        elif options:
            config = load_config(None, {**config.to_dict(), **options})
        self.config = config
        parse_fill(config.fill)
        self.types = parse_types(config.types) if config.types else None
        from redactor.lists import lists_from_config
        self.lists = lists_from_config(config)
        self.user_patterns = load_pattern_files(config.patterns)
        self.ocr = None
        self.detectors = []
        self.ocr_free = None
        self.visual = []
        if config.ocr_free:
            self.ocr_free = registry.create("ocr_free", config.ocr_free,
                                            **config.detector_options.get(config.ocr_free, {}))
        else:
            self.ocr = registry.create("ocr", config.ocr, **config.ocr_options)
            self.detectors = [registry.create("detector", name, **config.detector_options.get(name, {}))
                              for name in config.detectors]
            self.visual = [registry.create("visual", name, **config.detector_options.get(name, {}))
                           for name in config.visual]

    @property
    def system_name(self) -> str:
        if self.ocr_free is not None:
            return self.config.ocr_free
        return "+".join([self.config.ocr, *self.config.detectors])

    # -- stages ---------------------------------------------------------------------------
    def read(self, image: Image.Image) -> OcrPage:
        try:
            page = self.ocr.read(image)
        except RedactorError:
            raise
        except Exception as exc:
            raise plugin_failure(f"OCR {self.config.ocr!r}", exc) from exc
        if not isinstance(page, OcrPage):
            raise PluginFailed(f"OCR {self.config.ocr!r} returned {type(page).__name__}, not OcrPage")
        return sanitize_ocr_page(page, image.width, image.height)

    def detect(self, page: OcrPage, apply_filters: bool = True) -> list[Span]:
        """Spans of every detector, merged. ``apply_filters=False`` ignores the type and
        score filters (verification looks for every critical identifier)."""
        found: list[Span] = []
        for name, det in zip(self.config.detectors, self.detectors):
            try:
                spans = det.detect(page)
            except RedactorError:
                raise
            except Exception as exc:
                raise plugin_failure(f"detector {name!r}", exc) from exc
            found.extend(sanitize_spans(page, spans or [], name, getattr(det, "evidence_of", None)))
        if not self.config.keep_authority_addresses:
            # the form's own print, not a detector's or a user's filter: verification too
            # leaves it readable (redactor.authority_addresses)
            found = drop_authority_addresses(page.text, found)
        if self.user_patterns:
            found.extend(find_pattern_spans(self.user_patterns, page))
        if apply_filters and self.types is not None:
            found = [s for s in found if s.type in self.types]
        if apply_filters and self.config.min_score:
            found = [s for s in found if s.score >= self.config.min_score]
        if self.lists:
            # The allow list goes before merging (an allowed value does not widen or retype
            # a neighbour) and again at the end (nothing the pipeline grew or repeated
            # brings it back): no detector undoes it. Verification honours it too.
            found = self.lists.drop_allowed(page, found)
        if len(self.detectors) > 1:
            found = merge_spans(page, found)
        found = split_slash_joined_names(page.text, found)
        options = [] if self.config.keep_option_lists else option_list_ranges(page, found)
        found = self._drop_places_in_body_names(page, drop_option_lists(page, found, options))
        if self.config.grow_over_unsure:
            found = grow_over_unsure_words(page, found)
        if self.config.propagate_repeats:
            found = propagate_repeats(page, found)
            if self.config.propagate_surnames:
                found = propagate_surnames(page, found)
            if self.config.propagate_name_columns:
                found = propagate_name_columns(page, found)
            if self.config.grow_over_unsure:
                # a repeat is the value too: its misread initials and garbled rest with it
                found = grow_over_unsure_words(page, found)
            # a repeat of a value found elsewhere ("Washington" in the instructions' prose)
            # does not bring the form's own print back
            if not self.config.keep_authority_addresses:
                found = drop_authority_addresses(page.text, found)
            found = self._drop_places_in_body_names(page, drop_option_lists(page, found, options))
        if self.lists:
            found = self.lists.add_denied(page, self.lists.drop_allowed(page, found))
        return sorted(found, key=lambda s: (s.start, s.end, s.type))

    def _drop_places_in_body_names(self, page: OcrPage, spans: list[Span]) -> list[Span]:
        """``spans`` without the places that open a state body's name (the statutes' and the
        publisher's names a government form prints: redactor.place_in_names), nor the places
        and bodies of a statute's definition the form quotes (redactor.printed_definitions)."""
        if self.config.keep_places_in_body_names:
            return spans
        return drop_in_printed_definitions(page.text, drop_places_in_body_names(page.text, spans))

    def locate(self, page: OcrPage, spans: Sequence[Span], image: Image.Image | None = None) -> Alignment:
        if image is None or not self.config.fit_to_ink:
            return align_spans(page, spans, mode=self.config.box_mode)
        from redactor.gray import to_gray
        from redactor.ink_boxes import fit_redactions_to_ink
        # one grey copy of the page for both looks at the ink: cutting edge punctuation off
        # word boxes, then fitting the boxes
        gray = to_gray(image)
        alignment = align_spans(page, spans, mode=self.config.box_mode, image=gray,
                                cut_punctuation=self.config.cut_punctuation)
        if alignment.redactions:
            redactions = fit_redactions_to_ink(gray, alignment.redactions, page.words, shrink=self.config.ink_shrink)
            if self.config.grow_over_unread_ink:
                redactions = grow_redactions_over_unread_ink(gray, redactions, page.words)
            alignment = Alignment(redactions, alignment.dropped)
        return alignment

    def _ocr_free_redactions(self, image: Image.Image) -> list[Redaction]:
        try:
            found = self.ocr_free.redact_page(image)
        except RedactorError:
            raise
        except Exception as exc:
            raise plugin_failure(repr(self.config.ocr_free), exc) from exc
        out = []
        for r in found:
            if not is_known(r.type):
                raise PluginFailed(f"{self.config.ocr_free!r} emitted unknown type {r.type!r}")
            box = _clip_box(r.bbox, image.width, image.height)
            if box is None:
                raise PluginFailed(f"{self.config.ocr_free!r} returned an unusable box {list(r.bbox)}")
            if self.types is not None and r.type not in self.types:
                continue
            if r.score < self.config.min_score:
                continue
            if r.value and self.lists.allowed(r.value):   # deny terms need OCR text
                continue
            out.append(Redaction(box, r.type, r.value, r.score, r.sources or (self.config.ocr_free,)))
        return out

    # -- whole pages ------------------------------------------------------------------------
    def analyze(self, image, page_id: str = "page") -> PageResult:
        """Find what to redact on one page (raises on any stage failure)."""
        image = as_page_image(image)
        if self.ocr_free is not None:
            return PageResult(page_id, self._ocr_free_redactions(image))
        return self.analyze_ocr(self.read(image), image, page_id)

    def analyze_ocr(self, page: OcrPage, image: Image.Image | None = None,
                    page_id: str = "page") -> PageResult:
        """Detection and alignment on OCR words already read (shared OCR, cached OCR)."""
        spans = self.detect(page)
        alignment = self.locate(page, spans, image)
        if alignment.dropped:
            log.warning("%s: %d span(s) matched no OCR word and could not be placed",
                        page_id, len(alignment.dropped))
        redactions = list(alignment.redactions)
        if image is not None and self.visual:
            # what no OCR text holds: codes, photos, signatures (redactor.visual)
            from redactor.visual import find_visual, names_read_from_cursive
            # a code's decoded text is typed by the run's own text detectors
            found = find_visual(self.visual, image, page, redactions, text_detectors=self.detectors)
            found = [r for r in found if self.types is None or r.type in self.types]
            redactions = names_read_from_cursive(redactions, found, page) + found
        return PageResult(page_id, redactions, ocr=page, spans=spans,
                          dropped_spans=alignment.dropped)

    def render(self, image: Image.Image, redactions: Sequence[Redaction]) -> Image.Image:
        return burn_in(image, redactions, fill=self.config.fill, pad=self.config.pad)

    def redact(self, image) -> tuple[Image.Image, list[Redaction]]:
        image = as_page_image(image)
        result = self.analyze(image)
        return self.render(image, result.redactions), result.redactions
