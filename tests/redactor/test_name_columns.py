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
