"""Built-in plugins: one module per OCR backend, detector or OCR-free system.

Each registers through an entry point in pyproject.toml, exactly as a third-party package
would; nothing in ``redactor/`` imports these modules directly.
"""
