"""Benchmark scripts run by ``make bench``: each prints its figures, none is a test."""
