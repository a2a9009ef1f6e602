"""Hostile PDFs in, image-only PDFs out.

The inputs are built here with pikepdf and carry everything a PDF can hide besides its page
pixels: a visible and an invisible text layer, a filled-in form field, JavaScript (document,
open action, page and field actions), attachments (name tree and annotation), notes, links,
document info and XMP metadata, and (one variant) owner-password encryption with compressed
object streams. The redacted output must hold nothing but page images, the PII drawn on
the page (the form field's value included) must be read by real Tesseract and burned out,
and the CLI must say in one line what was dropped.
"""
import json
import logging
import re

import numpy as np
import pytest
from PIL import Image

from redactor.cli import main
from redactor.errors import InputError
from redactor.imageio import read_pages

pikepdf = pytest.importorskip("pikepdf")
pypdf = pytest.importorskip("pypdf")
from pikepdf import Array, Dictionary, Name, String  # noqa: E402

PAGE_W, PAGE_H = 612, 360               # points; small page keeps OCR quick
DPI = 200
FIELD_EMAIL = "jose.garcia@example.com"
FIELD_RECT = (72, 150, 520, 190)        # PDF user space, origin bottom-left
VISIBLE_EMAIL = "maria.lopez@example.org"
# None of these may survive into the output in any form.
SECRETS = [FIELD_EMAIL, VISIBLE_EMAIL, "078-05-1120", "anna.kowalski@example.net",
           "Maria Lopez", "evil.example", "secret.txt", "app.alert", "Hidden layer"]


def _js(pdf, code: str):
    return pdf.make_indirect(Dictionary(S=Name.JavaScript, JS=String(code)))


def build_hostile_pdf(path, variant: str = "plain"):
    pdf = pikepdf.new()
    font = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica))
    page = pdf.add_blank_page(page_size=(PAGE_W, PAGE_H))
    page.obj.Resources = Dictionary(Font=Dictionary(F1=font))
    content = (
        "BT /F1 22 Tf 72 300 Td (Annual budget review) Tj ET\n"
        f"BT /F1 22 Tf 72 250 Td (Contact {VISIBLE_EMAIL}) Tj ET\n"
        # text render mode 3: an invisible text layer, as OCR'd scans carry
        "BT 3 Tr /F1 22 Tf 72 80 Td (Hidden layer SSN 078-05-1120) Tj ET\n"
    )
    page.obj.Contents = pdf.make_stream(content.encode())

    x0, y0, x1, y1 = FIELD_RECT
    appearance = pdf.make_stream(f"/Tx BMC BT /Helv 22 Tf 0 g 2 12 Td ({FIELD_EMAIL}) Tj ET EMC".encode())
    appearance.Type, appearance.Subtype = Name.XObject, Name.Form
    appearance.BBox = Array([0, 0, x1 - x0, y1 - y0])
    appearance.Resources = Dictionary(Font=Dictionary(Helv=font))
    field = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Tx, T=String("email"), V=String(FIELD_EMAIL),
        Rect=Array(list(FIELD_RECT)), F=4, P=page.obj, DA=String("/Helv 22 Tf 0 g"),
        AP=Dictionary(N=appearance),
        AA=Dictionary(K=_js(pdf, "app.alert('keystroke ' + event.value);"))))
    note = Dictionary(Type=Name.Annot, Subtype=Name.Text, Rect=Array([540, 300, 560, 320]),
                      Contents=String("Call anna.kowalski@example.net about SSN 078-05-1120"))
    link = Dictionary(Type=Name.Annot, Subtype=Name.Link, Rect=Array([72, 20, 300, 40]),
                      A=Dictionary(S=Name.URI, URI=String("https://evil.example/track?u=Maria+Lopez")))
    secret = pdf.make_stream(b"SSN 078-05-1120 of Maria Lopez")
    secret.Type = Name.EmbeddedFile
    filespec = pdf.make_indirect(Dictionary(Type=Name.Filespec, F=String("secret.txt"),
                                            UF=String("secret.txt"), EF=Dictionary(F=secret)))
    attachment = Dictionary(Type=Name.Annot, Subtype=Name.FileAttachment, FS=filespec,
                            Rect=Array([540, 20, 560, 40]), Contents=String("secret.txt"))
    page.obj.Annots = pdf.make_indirect(Array([field, pdf.make_indirect(note), pdf.make_indirect(link),
                                               pdf.make_indirect(attachment)]))
    page.obj.AA = Dictionary(O=_js(pdf, "app.alert('page opened');"))
    pdf.Root.AcroForm = Dictionary(Fields=Array([field]), DA=String("/Helv 0 Tf 0 g"),
                                   DR=Dictionary(Font=Dictionary(Helv=font)))
    pdf.Root.OpenAction = _js(pdf, "app.alert('opened by Maria Lopez');")
    pdf.Root.Names = Dictionary(
        JavaScript=Dictionary(Names=Array([String("init"), _js(pdf, "app.alert('doc js');")])),
        EmbeddedFiles=Dictionary(Names=Array([String("secret.txt"), filespec])))
    pdf.docinfo["/Author"] = "Maria Lopez"
    pdf.docinfo["/Title"] = "Payroll of Maria Lopez, SSN 078-05-1120"
    with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
        meta["dc:creator"] = ["Maria Lopez"]
    if variant == "encrypted":
        # Empty user password: opens without one, as such files do in every viewer; object
        # streams hide most names from a byte scan.
        pdf.save(path, encryption=pikepdf.Encryption(owner="owner-secret", user=""),
                 object_stream_mode=pikepdf.ObjectStreamMode.generate)
    else:
        pdf.save(path)
    return path


def _field_rect_pixels():
    s = DPI / 72
    x0, y0, x1, y1 = FIELD_RECT
    return (x0 * s, (PAGE_H - y1) * s, x1 * s, (PAGE_H - y0) * s)


def _norm(text):
    return re.sub(r"[^0-9a-z]", "", text.lower())


FORBIDDEN_KEYS = {"/AcroForm", "/OpenAction", "/AA", "/Names", "/JavaScript", "/JS",
                  "/EmbeddedFiles", "/EF", "/Annots", "/Metadata", "/URI", "/Launch", "/Font",
                  "/XFA", "/Outlines", "/StructTreeRoot", "/Info", "/Encrypt"}


def assert_image_only_pdf(path, n_pages):
    """Every object of the file is a page-tree node, a page drawing one image, or an image."""
    raw = path.read_bytes()
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == n_pages
    assert all((p.extract_text() or "").strip() == "" for p in reader.pages)
    assert not reader.metadata and reader.xmp_metadata is None
    assert not reader.attachments
    assert reader.get_fields() in (None, {})
    with pikepdf.open(path) as pdf:
        assert "/Info" not in pdf.trailer and "/Encrypt" not in pdf.trailer
        for name in ("/AcroForm", "/OpenAction", "/AA", "/Names", "/Metadata", "/Outlines"):
            assert name not in pdf.Root
        for obj in pdf.objects:
            if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
                assert not set(obj.keys()) & FORBIDDEN_KEYS, set(obj.keys()) & FORBIDDEN_KEYS
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") != "/Image":
                # the only other streams are page contents; they hold no text and no secret
                data = obj.read_bytes()
                assert b"BT" not in data and b"Tj" not in data
                for s in SECRETS:
                    assert s.encode() not in data
        for page in pdf.pages:
            assert "/Annots" not in page.obj and "/AA" not in page.obj
            assert set(page.Resources.keys()) <= {"/XObject", "/ProcSet"}
            for xobj in page.Resources.XObject.values():
                assert xobj.Subtype == "/Image"
            ops = {str(op) for _, op in pikepdf.parse_content_stream(page)}
            assert ops <= {"q", "Q", "cm", "Do"}, ops
    for s in SECRETS:
        assert s.encode() not in raw


def test_the_hostile_input_really_carries_what_it_claims(tmp_path):
    # Control: the checks below only mean something if the input has all of this.
    src = build_hostile_pdf(tmp_path / "hostile.pdf")
    reader = pypdf.PdfReader(src)
    text = reader.pages[0].extract_text()
    assert VISIBLE_EMAIL in text and "078-05-1120" in text            # both text layers
    assert reader.get_fields()["email"]["/V"] == FIELD_EMAIL
    assert "secret.txt" in reader.attachments
    assert reader.metadata["/Author"] == "Maria Lopez" and reader.xmp_metadata is not None
    with pikepdf.open(src) as pdf:
        assert "/OpenAction" in pdf.Root and "/JavaScript" in pdf.Root.Names
        assert len(pdf.pages[0].obj.Annots) == 4
    with pytest.raises(AssertionError):
        assert_image_only_pdf(src, 1)


def test_form_field_values_are_drawn_into_the_page(tmp_path):
    import pytesseract
    src = build_hostile_pdf(tmp_path / "form.pdf")
    (page,) = list(read_pages(src, pdf_dpi=DPI))
    x0, y0, x1, y1 = (int(round(v)) for v in _field_rect_pixels())
    crop = page.image.crop((x0, y0, x1, y1))
    assert (np.asarray(crop.convert("L")) < 100).mean() > 0.02     # ink where the field is
    assert _norm(FIELD_EMAIL) in _norm(pytesseract.image_to_string(page.image))
    # invisible text stays invisible: only what a reader sees is rendered
    assert "0780" not in _norm(pytesseract.image_to_string(page.image))


@pytest.mark.parametrize("variant", ["plain", "encrypted"])
def test_hostile_pdf_gives_image_only_output_with_field_value_redacted(tmp_path, caplog, variant):
    import pytesseract
    src = build_hostile_pdf(tmp_path / f"hostile-{variant}.pdf", variant)
    out = tmp_path / "out"
    audit = tmp_path / "audit.jsonl"
    with caplog.at_level(logging.WARNING, logger="redactor.imageio"):
        assert main(["redact", str(src), "--out", str(out), "--verify", "--audit", str(audit)]) == 0
    result = out / f"hostile-{variant}.redacted.pdf"
    assert_image_only_pdf(result, 1)

    (line,) = audit.read_text().splitlines()
    record = json.loads(line)
    assert record["error"] is None and record["verification"]["ok"] is True
    emails = [p for p in record["predictions"] if p["type"] == "EMAIL"]
    field = _field_rect_pixels()
    in_field = [p for p in emails if _norm(p["value"]) == _norm(FIELD_EMAIL)]
    assert in_field, emails
    for p in in_field:   # the box sits where the field is drawn
        bx0, by0, bx1, by1 = p["bbox"]
        assert field[0] - 5 <= bx0 < bx1 <= field[2] + 5 and field[1] - 5 <= by0 < by1 <= field[3] + 5
    assert any(_norm(p["value"]) == _norm(VISIBLE_EMAIL) for p in emails)

    (page,) = list(read_pages(result, pdf_dpi=DPI))
    after = _norm(pytesseract.image_to_string(page.image))
    assert _norm(FIELD_EMAIL) not in after and _norm(VISIBLE_EMAIL) not in after
    assert "budgetreview" in after                                      # bystander text survives
    x0, y0, x1, y1 = (int(round(v)) for v in in_field[0]["bbox"])
    assert (np.asarray(page.image.convert("L"))[y0:y1, x0:x1] < 60).mean() > 0.97

    notices = [r.getMessage() for r in caplog.records if r.name == "redactor.imageio"]
    assert len(notices) == 1 and "\n" not in notices[0], notices
    notice = notices[0]
    assert notice.startswith(src.name) and "only the rendered page pixels are kept" in notice
    for needle in ("1 attachment(s)", "form fields", "4 annotation(s)"):
        assert needle in notice, notice
    if variant == "plain":   # names in compressed object streams escape the byte scan
        for needle in ("JavaScript", "an open action", "automatic actions", "document metadata"):
            assert needle in notice, notice


def test_plain_pdf_gets_no_notice(tmp_path, caplog):
    import img2pdf
    import io
    buf = io.BytesIO()
    Image.new("RGB", (300, 200), "white").save(buf, format="PNG")
    src = tmp_path / "plain.pdf"
    src.write_bytes(img2pdf.convert([buf.getvalue()], nodate=True))
    with caplog.at_level(logging.WARNING, logger="redactor.imageio"):
        assert len(list(read_pages(src))) == 1
    assert not [r for r in caplog.records if r.name == "redactor.imageio"]


def test_pdfium_build_runs_no_javascript():
    # The documented guarantee that JavaScript in an input never runs rests on this build
    # having no V8; a V8/XFA build of pypdfium2 would need the decision revisited.
    import pypdfium2
    assert "V8" not in pypdfium2.PDFIUM_INFO.flags and "XFA" not in pypdfium2.PDFIUM_INFO.flags


def test_dynamic_xfa_form_is_refused(tmp_path):
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(300, 300))
    pdf.Root.AcroForm = Dictionary(Fields=Array([]),
                                   XFA=Array([String("template"), pdf.make_stream(b"<template/>")]))
    pdf.Root.NeedsRendering = True
    src = tmp_path / "xfa.pdf"
    pdf.save(src)
    with pytest.raises(InputError, match="XFA") as exc:
        list(read_pages(src))
    assert "\n" not in str(exc.value)


def test_owner_password_only_pdf_is_read(tmp_path):
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(144, 72))
    src = tmp_path / "owner.pdf"
    pdf.save(src, encryption=pikepdf.Encryption(owner="o", user=""))
    (page,) = list(read_pages(src, pdf_dpi=72))
    assert page.image.size == (144, 72)
