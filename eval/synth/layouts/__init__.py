"""Page layouts, one module per page type; each exposes ``draw(page)`` that fills a
canvas with a document and its annotated values."""
