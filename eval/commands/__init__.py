"""The command-line commands that evaluate (eval, bench, predict, synth, docpp): registered
with ``redactor``'s CLI through the ``redactor.commands`` entry points, so the core never
imports the evaluation (it depends on the core, not the other way round)."""
