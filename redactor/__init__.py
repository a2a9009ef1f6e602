"""redactor: find personal data on document page images and burn it out.

The core package holds the data model, the taxonomy, the plugin registry, the pipeline
(OCR -> detectors -> aligner -> renderer) and the command line. Vendor SDKs live in
``plugins``; evaluation lives in ``eval``.
"""
from redactor.model import WordBox, OcrPage, Span, Redaction, PageResult

__version__ = "0.1.0"

__all__ = ["WordBox", "OcrPage", "Span", "Redaction", "PageResult", "Redactor", "__version__"]


def __getattr__(name):
    # The pipeline pulls in Pillow/numpy; keep `import redactor` light for plugins.
    if name == "Redactor":
        from redactor.pipeline import Redactor
        return Redactor
    raise AttributeError(name)
