"""Batch redaction of whole archives: walk a folder tree of images and PDFs, redact each
input on a pool of workers (local processes or Ray actors, each with one loaded pipeline),
write the outputs into a mirrored tree and keep a SQLite manifest so that a re-run skips
what is done, retries what failed and redoes what changed.

Modules: ``walk`` (inputs and output names), ``manifest`` (the record of what is done),
``work`` (the per-document function every worker runs), ``executors`` (process pool, Ray),
``run`` (the orchestration: plan, dispatch, write, record).
"""
