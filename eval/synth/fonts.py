"""Font families installed from Debian packages (DejaVu, Liberation, FreeFont, URW base35),
looked up by family and style, loaded once per pixel size."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from redactor.errors import InputError

_TT = Path("/usr/share/fonts/truetype")
_URW = Path("/usr/share/fonts/opentype/urw-base35")

# family -> (regular, bold, italic, bold italic)
FAMILIES: dict[str, tuple[Path, Path, Path, Path]] = {
    "liberation-sans": tuple(
        _TT / "liberation" / f"LiberationSans-{s}.ttf" for s in ("Regular", "Bold", "Italic", "BoldItalic")
    ),
    "liberation-serif": tuple(
        _TT / "liberation" / f"LiberationSerif-{s}.ttf" for s in ("Regular", "Bold", "Italic", "BoldItalic")
    ),
    "liberation-mono": tuple(
        _TT / "liberation" / f"LiberationMono-{s}.ttf" for s in ("Regular", "Bold", "Italic", "BoldItalic")
    ),
    "liberation-narrow": tuple(
        _TT / "liberation" / f"LiberationSansNarrow-{s}.ttf"
        for s in ("Regular", "Bold", "Italic", "BoldItalic")
    ),
    "dejavu-sans": tuple(
        _TT / "dejavu" / f
        for f in (
            "DejaVuSans.ttf",
            "DejaVuSans-Bold.ttf",
            "DejaVuSans-Oblique.ttf",
            "DejaVuSans-BoldOblique.ttf",
        )
    ),
    "dejavu-serif": tuple(
        _TT / "dejavu" / f
        for f in (
            "DejaVuSerif.ttf",
            "DejaVuSerif-Bold.ttf",
            "DejaVuSerif-Italic.ttf",
            "DejaVuSerif-BoldItalic.ttf",
        )
    ),
    "dejavu-mono": tuple(
        _TT / "dejavu" / f
        for f in (
            "DejaVuSansMono.ttf",
            "DejaVuSansMono-Bold.ttf",
            "DejaVuSansMono-Oblique.ttf",
            "DejaVuSansMono-BoldOblique.ttf",
        )
    ),
    "free-sans": tuple(
        _TT / "freefont" / f
        for f in ("FreeSans.ttf", "FreeSansBold.ttf", "FreeSansOblique.ttf", "FreeSansBoldOblique.ttf")
    ),
    "free-serif": tuple(
        _TT / "freefont" / f
        for f in ("FreeSerif.ttf", "FreeSerifBold.ttf", "FreeSerifItalic.ttf", "FreeSerifBoldItalic.ttf")
    ),
    "free-mono": tuple(
        _TT / "freefont" / f
        for f in ("FreeMono.ttf", "FreeMonoBold.ttf", "FreeMonoOblique.ttf", "FreeMonoBoldOblique.ttf")
    ),
    "nimbus-sans": tuple(_URW / f"NimbusSans-{s}.otf" for s in ("Regular", "Bold", "Italic", "BoldItalic")),
    "nimbus-roman": tuple(_URW / f"NimbusRoman-{s}.otf" for s in ("Regular", "Bold", "Italic", "BoldItalic")),
    "nimbus-mono": tuple(_URW / f"NimbusMonoPS-{s}.otf" for s in ("Regular", "Bold", "Italic", "BoldItalic")),
    "century": tuple(_URW / f"C059-{s}.otf" for s in ("Roman", "Bold", "Italic", "BdIta")),
    "palatino": tuple(_URW / f"P052-{s}.otf" for s in ("Roman", "Bold", "Italic", "BoldItalic")),
    "bookman": tuple(_URW / f"URWBookman-{s}.otf" for s in ("Light", "Demi", "LightItalic", "DemiItalic")),
    "gothic": tuple(_URW / f"URWGothic-{s}.otf" for s in ("Book", "Demi", "BookOblique", "DemiOblique")),
    "chancery": tuple([_URW / "Z003-MediumItalic.otf"] * 4),
}

SANS = ("liberation-sans", "dejavu-sans", "free-sans", "nimbus-sans", "liberation-narrow", "gothic")
SERIF = ("liberation-serif", "nimbus-roman", "dejavu-serif", "free-serif", "century", "palatino", "bookman")
# typewriters and line printers: Courier clones
MONO = ("nimbus-mono", "free-mono", "liberation-mono", "dejavu-mono")
STYLES = {"regular": 0, "bold": 1, "italic": 2, "bolditalic": 3}


@dataclass(frozen=True)
class Font:
    """A family, a style and a size in points; becomes a Pillow font at a page's dpi."""

    family: str
    size: float
    style: str = "regular"

    def with_(self, size: float | None = None, style: str | None = None) -> "Font":
        return Font(self.family, self.size if size is None else size, self.style if style is None else style)

    def bold(self) -> "Font":
        return self.with_(style="bold")

    def italic(self) -> "Font":
        return self.with_(style="italic")


def font_path(family: str, style: str = "regular") -> Path:
    try:
        return FAMILIES[family][STYLES[style]]
    except KeyError:
        raise InputError(f"unknown font {family!r}/{style!r}") from None


@lru_cache(maxsize=512)
def load(family: str, style: str, pixel_size: int) -> ImageFont.FreeTypeFont:
    path = font_path(family, style)
    if not path.is_file():
        raise InputError(
            f"font file {path} is missing (install fonts-dejavu-core, fonts-liberation, "
            f"fonts-freefont-ttf, fonts-urw-base35)"
        )
    return ImageFont.truetype(str(path), size=max(4, pixel_size))


def missing_fonts() -> list[str]:
    """Font files the generator needs that are not installed (empty when all are present)."""
    return sorted({str(p) for paths in FAMILIES.values() for p in paths if not p.is_file()})
