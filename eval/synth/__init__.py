"""Synthetic challenge-set generator: realistic document pages (invoices, ad-buy orders,
forms, printed e-mails, letters, filings, fax covers) with exact, ink-tight gold boxes for
every personal value, written in the contract's dataset format (pages.jsonl + images/)."""

from redactor_eval.synth.dataset import PAGE_TYPE_WEIGHTS, SynthOptions, generate_page, write_dataset

__all__ = ["PAGE_TYPE_WEIGHTS", "SynthOptions", "generate_page", "write_dataset"]
