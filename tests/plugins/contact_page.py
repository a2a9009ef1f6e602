"""The contact page several end-to-end tests redact: three values (a name, an e-mail, a phone
number) behind their labels and a bystander line, drawn with a real font."""
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LINES = [
    ("Contact: John Smith", "John Smith"),
    ("Email: john.smith@example.com", "john.smith@example.com"),
    ("Phone: (415) 555-0132", "(415) 555-0132"),
    ("The meeting covers the budget review and staffing.", None),
]


def render_page(path, lines=LINES, size=(1400, 520), font_px=30):
    """Draw ``lines`` ((text, value or None), one every 110 px) and save the page to ``path``;
    returns each value's pixel box."""
    font = ImageFont.truetype(FONT, font_px)
    img = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(img)
    boxes = {}
    for i, (text, value) in enumerate(lines):
        y = 40 + i * 110
        d.text((50, y), text, font=font, fill="black")
        if value:
            x = 50 + d.textlength(text[: text.index(value)], font=font)
            boxes[value] = tuple(int(round(v)) for v in d.textbbox((x, y), value, font=font))
    img.save(path)
    return boxes
