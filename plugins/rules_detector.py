"""The `rules` detector: layout-aware, recall-oriented PII rules without any model.

It combines text patterns with checksums (cards, SSN, EIN, IBAN, ABA routing, phones, e-mail,
URLs, IPs, dates), unlabelled postal addresses with multi-line blocks, label-driven key-value
pairs that use the word geometry (value right of or under its label), and person names from
titles, salutations and signature blocks. Patterns and lexicons are data under
mappings/rules/; rule names map to fine types in mappings/rules.yaml."""
from __future__ import annotations

import re
from pathlib import Path

from redactor.ensemble import merge_spans
from redactor.errors import InputError, PluginUnavailable
from redactor.model import OcrPage, Span
from redactor.plugin_api import Detector, load_label_mapping

from plugins._options import as_float
from plugins.rules.addresses import find_address_hits, join_address_rows
from plugins.rules.hits import Hit
from plugins.rules.labels import find_label_hits
from plugins.rules.layout import Layout
from plugins.rules.lexicon import load_labels, load_patterns, load_vocab
from plugins.rules.names import find_name_hits
from plugins.rules.patterns import check_validators, find_pattern_hits

# Rules that only speak for numbers no other rule explained (a date, a phone number).
FALLBACK_RULES = frozenset({"long_number", "aba_routing"})


class RulesDetector(Detector):
    name = "rules"
    mapping_file = "rules.yaml"

    def __init__(self, min_score: float = 0.0, data_dir: str | Path | None = None, **unknown):
        """``min_score`` drops weaker findings; ``data_dir`` reads the patterns and lexicons
        from another folder (same file names as mappings/rules/)."""
        if unknown:
            raise InputError(f"rules detector: unknown option(s) {', '.join(sorted(unknown))} "
                             "(known: min_score, data_dir)")
        d = Path(data_dir) if data_dir else None
        if d is not None and not d.is_dir():
            raise InputError(f"rules detector: data_dir {str(d)!r} is not a folder")
        try:
            self.types = load_label_mapping(self.mapping_file)
            self.patterns = load_patterns(d)
            check_validators(self.patterns)
            self.labels = load_labels(d)
            self.vocab = load_vocab(d)
        except (ValueError, OSError) as exc:
            raise PluginUnavailable(f"rules detector data is broken: {exc}") from exc
        self.min_score = as_float("min_score", min_score, 0.0, 1.0)

    def hits(self, page: OcrPage) -> list[Hit]:
        """Every rule's candidates before merging (for inspection and tests)."""
        if not page.words:
            return []
        layout = Layout(page)
        hits = find_pattern_hits(page.text, self.patterns)
        hits += find_address_hits(layout, self.vocab, self.labels.regex)
        hits += find_label_hits(layout, self.labels, self.vocab)
        hits += find_name_hits(layout, self.vocab)
        primary = [h for h in hits if h.rule not in FALLBACK_RULES]
        fallback = [h for h in hits if h.rule in FALLBACK_RULES
                    and not any(p.start < h.end and h.start < p.end for p in primary)
                    and not self._product_code(page.text, h)]
        return primary + fallback

    def _product_code(self, text: str, hit: Hit) -> bool:
        """A number that starts with, or follows, a product word ("SKU 909871", "Item #
        44120", "Part No. 2231-889") is a product code, not a person's record."""
        before = text[max(0, hit.start - 20):hit.start]
        tail = re.search(r"(?:^|[ \n])([^ \n]+(?:[ ][^ \n]+)?)[ ]?[:#.]?[ ]?$", before)
        stop = self.labels.stop_regex
        if stop.match(text, hit.start):
            return True
        return bool(tail and stop.fullmatch(tail.group(1).rstrip(" :#")))

    def detect(self, page: OcrPage) -> list[Span]:
        spans = []
        for h in self.hits(page):
            fine = self.types.get(h.rule)
            if fine is None or h.score < self.min_score or h.end <= h.start:
                continue
            spans.append(Span(h.start, h.end, fine, h.score, self.name, page.text[h.start:h.end]))
        merged = merge_spans(spans, text=page.text)
        return join_address_rows(Layout(page), merged, page.text)
