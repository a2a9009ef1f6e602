"""Fixtures the plugin tests share."""
import pytest


@pytest.fixture(scope="module")
def ocr():
    """Real Tesseract with its default options (the test is skipped where it is not installed)."""
    from redactor_plugins.tesseract_ocr import TesseractOcr
    if TesseractOcr.unavailable_reason():
        pytest.skip("tesseract not installed")
    return TesseractOcr()
