"""Evaluation: the contract's loaders, matching, metrics, attribution, ink measures,
reports and figures, plus the challenge-set generator and benchmark runners.

Pure: datasets, predictions and OCR words in, numbers and pictures out. It runs no OCR and
no detector itself (bench calls the pipeline through its public API).
"""
