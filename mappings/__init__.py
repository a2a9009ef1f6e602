"""Vendor label -> fine type maps (one YAML file per vendor), the taxonomy, and the rule
tables and name lists of the `rules` detector: data, installed as package data so a wheel
finds them (``redactor.paths.mappings_dir``)."""
