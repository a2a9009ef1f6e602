"""The real-document dev set: per-page specs written and checked by a person, the gold
``pages.jsonl`` derived from them, the images rebuilt from the public sources they come
from (checked by SHA-256), overlays for checking, and draft specs proposed from the
sources' own annotations.

Layout (``eval/data/real/``): ``spec/<source>/<page_id>.yaml`` (the human-readable truth),
``pages.jsonl`` (derived, never edited by hand), ``PROVENANCE.md``, ``images/`` (not
committed; ``python -m redactor_eval.realdata.materialize`` rebuilds it).
"""
