"""Paragraphs of running text (redactor.paragraphs): which line breaks stand for a space,
on hand-built OCR pages."""
from redactor.model import OcrPage, WordBox
from redactor.page_view import page_view
from redactor.paragraphs import flowed_text, paragraph_breaks


def page_of(rows, gap=30, height=20, char=10):
    """rows: list of [(x, text)] cells, one OCR line each row; words ``char`` px a letter."""
    words = []
    for li, row in enumerate(rows):
        y = 20 + gap * li
        for x, text in row:
            for tok in text.split(" "):
                words.append(WordBox(tok, (x, y, x + char * len(tok), y + height), 95.0, line=li))
                x += char * (len(tok) + 1)
    return OcrPage(3000, 3000, tuple(words), "test")


PROSE = [[(20, "This Agreement is made by and between Northstar Biologics Corporation, having its offices at 400")],
         [(20, "Technology Square, Cambridge, Massachusetts 02139, and Peregrine Therapeutics Limited.")]]


def test_a_paragraphs_line_break_reads_as_a_space():
    page = page_of(PROSE)
    view = page_view(page)
    assert paragraph_breaks(view) == [page.text.index("\n")]
    flowed = flowed_text(view)
    assert "at 400 Technology Square" in flowed and len(flowed) == len(page.text)


def test_rows_that_are_no_paragraph_keep_their_breaks():
    cases = [
        # a table's rows of figures
        [[(20, "11 Consulting 40.00 520.00 1,200.00 13,200.00 12/14/00 1 2 3")],
         [(20, "12 Consulting 120.00 120.00 900.00 11,700.00 12/14/00 4 5 6")]],
        # a form's row of two cells (Bill To | Ship To), and a line opening a field
        [[(20, "Mrs. Michelle Silva of the Lopez Broadcasting"), (1200, "Michelle Silva")],
         [(20, "Lopez Broadcasting Company of Dallas and Houston Texas")]],
        [PROSE[0], [(20, "Subject-matter: to present the plan for private investment in Brazil")]],
        # the next line indented further than the line's start: a new item or paragraph
        [PROSE[0], [(200, "Technology Square, Cambridge, Massachusetts 02139, and Peregrine")]],
        # a blank line's space between them
        [PROSE[0], PROSE[1]],
    ]
    for k, rows in enumerate(cases):
        page = page_of(rows, gap=70 if k == 4 else 30)
        assert paragraph_breaks(page_view(page)) == [], k
        assert flowed_text(page_view(page)) == page.text


def test_a_paragraphs_short_last_line_carries_its_sentence_on():
    # the last line holds a phone number: it goes on with a word, as one cell
    page = page_of([[(20, "Further to our call the consignment will now leave on Friday. Please confirm to Gareth")],
                    [(20, "Pembroke on +44 (0)1394 604 211.")]])
    assert "to Gareth Pembroke on" in flowed_text(page_view(page))
    # a line of figures opening with a number carries no sentence on
    page = page_of([PROSE[0][:], [(20, "(0)1394 604 211 40.00 520.00")]])
    assert paragraph_breaks(page_view(page)) == []
