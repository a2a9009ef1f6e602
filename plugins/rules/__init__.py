"""Helpers of the layout-aware ``rules`` detector: data loading, checksums, page geometry,
pattern, label, address and name rules. Each module returns candidate spans; the detector
merges them."""
