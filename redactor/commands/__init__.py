"""Subcommands of the ``redactor`` CLI, one module each, discovered by ``redactor.cli``."""
