"""Names stacked in a table column with a found person (redactor.name_columns), on
hand-built OCR pages laid out like a memo's responsibility table (funsd-00093726) and a
program's staff list typed in capitals."""
from redactor.model import Span
from memo_pages import page_of, person
from redactor.name_columns import propagate_name_columns


def added(page, found):
    return [page.text[s.start:s.end] for s in propagate_name_columns(page, found)[len(found):]]


def test_a_name_ocr_ran_into_its_rows_caption_cell_is_taken_from_the_column_edge():
    lines = [[("Filter", 400, 520), ("Production.", 540, 980), ("Wicker", 1000, 1140)],
             [("Shipping", 400, 560), ("Routh", 1000, 1110)]]
    page = page_of(lines)
    routh = page.text.index("Routh")
    assert added(page, [Span(routh, routh + 5, "PERSON", 0.9, "rules", "Routh")]) == ["Wicker"]


def test_the_names_of_a_column_are_added_from_the_found_one_up_and_down():
    lines = [[("Labels", 400, 540), ("Ammons", 1000, 1150)],
             [("Closures", 400, 560), ("Wicker", 1005, 1140)],
             [("Shipping", 400, 560), ("Routh", 1000, 1110)],
             [("Markings", 400, 580), ("Dobbins", 998, 1160)]]
    page = page_of(lines)
    routh = page.text.index("Routh")
    found = [Span(routh, routh + 5, "PERSON", 0.9, "rules", "Routh")]
    assert sorted(added(page, found)) == ["Ammons", "Dobbins", "Wicker"]


def test_a_name_joined_to_its_rows_caption_is_passed_over():
    lines = [[("Blend", 400, 540), ("Ammons", 1000, 1150)],
             [("Making", 400, 540), ("Packing__Brown/Routh", 600, 1200)],
             [("Shipping", 400, 560), ("Routh", 1000, 1110)]]
    page = page_of(lines)
    routh = page.text.rindex("Routh")
    found = [Span(routh, routh + 5, "PERSON", 0.9, "rules", "Routh"), person(page, "Brown/Routh")]
    assert added(page, found) == ["Ammons"]


def test_a_staff_list_in_capitals_gives_its_other_names():
    lines = [[("MURIEL", 40, 180), ("KAMNIT", 200, 330)],
             [("ROPE", 42, 120), ("MARTINEZ", 140, 320)],     # OCR's "HOPE"
             [("GEN'L", 40, 140), ("ACCT.", 160, 260), ("DEPT.", 280, 380)]]
    page = page_of(lines)
    assert added(page, [person(page, "MURIEL KAMNIT")]) == ["ROPE MARTINEZ"]


def test_the_column_ends_at_the_first_cell_that_is_no_name():
    lines = [[("Shipping", 400, 560), ("Routh", 1000, 1110)],
             [("Markings", 400, 580), ("Project", 1000, 1160), ("File", 1180, 1260)],  # "File": a surname, rank 19,702
             [("Overwrap", 400, 580), ("Ammons", 1000, 1150)]]
    page = page_of(lines)
    routh = page.text.index("Routh")
    assert added(page, [Span(routh, routh + 5, "PERSON", 0.9, "rules", "Routh")]) == []


def test_names_in_another_case_or_far_below_are_not_the_columns():
    title_case = [[("MURIEL", 40, 180), ("KAMNIT", 200, 330)], [("Hope", 40, 120), ("Martinez", 140, 320)]]
    page = page_of(title_case)
    assert added(page, [person(page, "MURIEL KAMNIT")]) == []
    far = page_of([[("Routh", 1000, 1110)], [("Ammons", 1000, 1150)]], gap=200)
    routh = far.text.index("Routh")
    assert added(far, [Span(routh, routh + 5, "PERSON", 0.9, "rules", "Routh")]) == []


def test_a_cell_found_as_something_else_keeps_its_type():
    lines = [[("Shipping", 400, 560), ("Routh", 1000, 1110)],
             [("Supplier", 400, 580), ("Wicker", 1000, 1140), ("Inc.", 1160, 1240)]]
    page = page_of(lines)
    routh = page.text.index("Routh")
    firm = page.text.index("Wicker Inc.")
    found = [Span(routh, routh + 5, "PERSON", 0.9, "rules", "Routh"),
             Span(firm, firm + len("Wicker Inc."), "ORGANIZATION", 0.9, "rules")]
    assert added(page, found) == []


def test_a_roster_of_surnames_first_grows_the_name_found_in_part_and_its_column():
    # a Senate office's expenditure report (pdfplumber's test PDFs): the payee column lists
    # "SURNAME, GIVEN I" (OCR read the comma as a stop); the model found "ROBERT CLINTON"
    # only, the rest of the column nothing
    rows = [("BAIN.", "J", "MATTHEW"), ("KISHI.", "DANIEL", "M"), ("LAVALLEY.", "ROBERT", "CLINTON"),
            ("GRUENDER.", "BENJAMIN", "L")]
    lines = []
    for r in rows:
        x, line = 400, []
        for w in r:
            line.append((w, x, x + 30 * len(w)))
            x += 30 * len(w) + 20
        lines.append(line)
    lines.append([("CITIBANK", 400, 640), ("-", 660, 680), ("TRAVEL", 700, 880), ("CARD", 900, 1020)])
    page = page_of(lines)
    found = [person(page, "ROBERT CLINTON")]
    out = {page.text[s.start:s.end] for s in propagate_name_columns(page, found)}
    assert out == {"BAIN. J MATTHEW", "KISHI. DANIEL M", "LAVALLEY. ROBERT CLINTON", "GRUENDER. BENJAMIN L"}


def test_a_title_or_a_caption_before_a_found_name_does_not_grow_it():
    for first in ("Dr.", "FROM:", "Cardholder:"):
        page = page_of([[(first, 400, 520), ("Connie", 600, 760), ("Stone", 780, 900)]])
        found = [person(page, "Connie Stone")]
        assert [page.text[s.start:s.end] for s in propagate_name_columns(page, found)] == ["Connie Stone"]
