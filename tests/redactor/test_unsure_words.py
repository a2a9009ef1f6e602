"""Critical spans grow over the garbled, unsure words beside them; nothing else does."""
from redactor.model import OcrPage, Span, WordBox
from redactor.unsure_words import grow_over_unsure_words


def page_of(words, line_of=None):
    """words: (text, x0, x1, conf) on one 30 px line unless ``line_of`` maps an index."""
    boxes = []
    for k, (text, x0, x1, conf) in enumerate(words):
        line = (line_of or {}).get(k, 0)
        boxes.append(WordBox(text, (x0, 100 + 60 * line, x1, 130 + 60 * line), conf, line=line, block=0))
    return OcrPage(2000, 1000, tuple(boxes), "test")


def span(page, value, type_="PHONE"):
    start = page.text.index(value)
    return Span(start, start + len(value), type_, 0.9, "rules", value)


def test_phone_takes_the_garbled_rest_of_its_number():
    page = page_of([("Tel", 10, 60, 95), ("+1", 80, 110, 90), ("372", 125, 180, 90),
                    ("OLE", 195, 250, 22), ("aS", 265, 300, 10), ("1G", 315, 350, 31),
                    ("Thank", 700, 800, 20)])
    (grown,) = grow_over_unsure_words(page, [span(page, "+1 372")])
    assert grown.text == "+1 372 OLE aS 1G"          # the far word is another field
    assert (grown.start, grown.type, grown.score) == (page.text.index("+1"), "PHONE", 0.9)


def test_before_a_value_only_what_cannot_be_its_label_is_taken():
    page = page_of([("FAX", 10, 70, 20), ("(4O4)", 85, 160, 25), ("555-0134", 175, 300, 90)])
    (grown,) = grow_over_unsure_words(page, [span(page, "555-0134")])
    assert grown.text == "(4O4) 555-0134"
    page = page_of([("ACCT", 10, 80, 20), ("10336679", 95, 250, 90)])
    assert grow_over_unsure_words(page, [span(page, "10336679", "ACCOUNT_NUMBER")])[0].text == "10336679"
    page = page_of([("cail", 10, 60, 20), ("Thamas", 75, 170, 30), ("Ramirez", 185, 300, 90)])
    assert grow_over_unsure_words(page, [span(page, "Ramirez", "PERSON")])[0].text == "Thamas Ramirez"
    # a name goes on with a capitalised word, not with the e-mail address after it
    page = page_of([("Ashley", 10, 100, 90), ("Duncan", 115, 220, 90), ("sashleyd", 235, 380, 20)])
    assert grow_over_unsure_words(page, [span(page, "Ashley Duncan", "PERSON")])[0].text == "Ashley Duncan"


def test_confident_words_labels_noise_and_other_spans_stop_the_growth():
    page = page_of([("Fax:", 10, 70, 30), ("555-0134", 85, 200, 90), ("Invoice", 215, 320, 96)])
    assert grow_over_unsure_words(page, [span(page, "555-0134")])[0].text == "555-0134"
    page = page_of([("Mary", 10, 80, 90), ("Bishop", 95, 190, 88), ("a=", 205, 235, 10),
                    ("exirssianm", 250, 400, 5)])
    assert grow_over_unsure_words(page, [span(page, "Mary Bishop", "PERSON")])[0].text == "Mary Bishop"
    page = page_of([("Ann", 10, 70, 90), ("Lee", 85, 140, 90), ("<alee@x.org>", 155, 330, 12)])
    spans = [span(page, "Ann Lee", "PERSON"), span(page, "alee@x.org", "EMAIL")]
    grown = grow_over_unsure_words(page, spans)
    assert [s.text for s in grown] == ["Ann Lee", "alee@x.org"]


def test_only_critical_spans_grow_and_only_on_their_own_line():
    page = page_of([("Acme", 10, 90, 90), ("Corp", 105, 180, 90), ("Lta", 195, 240, 20)])
    assert grow_over_unsure_words(page, [span(page, "Acme Corp", "ORGANIZATION")])[0].text == "Acme Corp"
    page = page_of([("4111", 10, 80, 90), ("1111", 95, 165, 90), ("llll", 10, 80, 20)],
                   line_of={2: 1})
    assert grow_over_unsure_words(page, [span(page, "4111 1111", "CARD_NUMBER")])[0].text == "4111 1111"


def test_unknown_confidence_is_not_unsure_and_empty_page_is_fine():
    page = page_of([("Jo", 10, 50, 90), ("Smyth", 65, 150, -1.0)])
    assert grow_over_unsure_words(page, [span(page, "Jo", "PERSON")])[0].text == "Jo"
    assert grow_over_unsure_words(OcrPage(10, 10, (), "test"), []) == []


def test_a_spaced_out_number_takes_its_garbled_group_at_its_own_spacing():
    """Groups printed 50 px apart (a line is 30 px high): the misread last group lies as far
    from the read ones as they lie from each other; a word twice as far is another field."""
    page = page_of([("981", 10, 70, 77), ("317", 120, 180, 51), ("&947", 230, 300, 0),
                    ("x12", 430, 480, 10)])
    (grown,) = grow_over_unsure_words(page, [span(page, "981 317", "REFERENCE_NUMBER")])
    assert grown.text == "981 317 &947"
    # the same groups close together: the garbled group 50 px off is not known to be theirs
    page = page_of([("981", 10, 70, 77), ("317", 80, 140, 51), ("&947", 190, 260, 0)])
    assert grow_over_unsure_words(page, [span(page, "981 317", "REFERENCE_NUMBER")])[0].text == "981 317"


def test_a_name_does_not_grow_over_a_title_however_ocr_read_it():
    # "Dr." read as "Dx." or run into its caption ("Speaker_Dr." as "Spesker_De."): the
    # honorific stays out of the name's box (real dev funsd-0060262650)
    for title in ("Dx.", "Spesker_De.", "Mrs."):
        page = page_of([(title, 10, 80, 40), ("Patricia", 95, 200, 90), ("Jacobs", 215, 300, 90)])
        assert grow_over_unsure_words(page, [span(page, "Patricia Jacobs", "PERSON")])[0].text == \
            "Patricia Jacobs", title
    # ... but an old letter's abbreviated given name is the name's start
    page = page_of([("Wm.", 10, 60, 40), ("Patterson", 75, 200, 90)])
    assert grow_over_unsure_words(page, [span(page, "Patterson", "PERSON")])[0].text == "Wm. Patterson"


def test_a_name_takes_the_initials_before_it_misread_ones_included():
    # a typed capital read as a symbol breaks the chain of initials a detector follows
    # (real dev: "N. #. Kremer", "$.P, ZOLOT"); sure or not, they are the name's
    page = page_of([("cc:", 10, 50, 66), ("N.", 100, 125, 85), ("#.", 140, 160, 0), ("Kremer", 175, 260, 96)])
    assert grow_over_unsure_words(page, [span(page, "Kremer", "PERSON")])[0].text == "N. #. Kremer"
    page = page_of([("TO:", 10, 50, 56), ("$.P,", 100, 150, 57), ("ZOLOT", 160, 240, 91)])
    assert grow_over_unsure_words(page, [span(page, "ZOLOT", "PERSON")])[0].text == "$.P, ZOLOT"
    # ... a number's are no initials, nor a word before the name
    page = page_of([("No.", 10, 60, 96), ("A.", 75, 95, 96), ("4471", 110, 200, 96)])
    assert grow_over_unsure_words(page, [span(page, "4471", "ACCOUNT_NUMBER")])[0].text == "4471"
    page = page_of([("Owner", 10, 90, 96), ("Kremer", 105, 190, 96)])
    assert grow_over_unsure_words(page, [span(page, "Kremer", "PERSON")])[0].text == "Kremer"


def test_an_address_does_not_grow_back_over_its_misread_caption():
    """An unseen FARA form's "Address" caption read "“4dress." at confidence 0 before the
    town line: the figure in it is no house number; a garbled house number still is one."""
    page = page_of([("“4dress.", 10, 70, 0), ("WASHINGTON,", 85, 250, 96), ("DC", 265, 300, 80),
                    ("20006", 315, 380, 84)])
    grown = grow_over_unsure_words(page, [span(page, "WASHINGTON, DC 20006", "ADDRESS")])
    assert grown[0].text == "WASHINGTON, DC 20006"
    page = page_of([("1Z3O", 10, 70, 20), ("Main", 85, 150, 96), ("Street", 165, 250, 96)])
    assert grow_over_unsure_words(page, [span(page, "Main Street", "ADDRESS")])[0].text == "1Z3O Main Street"
