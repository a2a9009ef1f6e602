"""The ``policy`` detector: finds the values a user's non-disclosure policy protects (and,
with ``include_operands``, the operands of their declared derivations) in a page's OCR text,
so the pipeline redacts them like personal data.

Matching runs on ``page.text`` with offsets, so a value split over OCR words ("$5"
"million") is one span covering both words. Each span takes the fine type the policy names
(OTHER when it names none).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pydantic

from redactor_plugins._options import as_bool
from redactor.plugin_api import Detector, InputError, load_label_mapping, OcrPage, Span


class PolicyDetector(Detector):
    name = "policy"
    mapping_file = "policy.yaml"

    class Options(pydantic.BaseModel):
        # declared: ``policy_file`` and ``policies``, older spellings of ``policy``, reach
        # ``__init__`` through ``**options``
        model_config = pydantic.ConfigDict(extra="forbid", arbitrary_types_allowed=True)
        policy: Any = None   # a YAML/JSON policy file, or a loaded PolicySet/Policy
        include_operands: bool = False
        policy_file: Any = None
        policies: Any = None

    def __init__(self, policy=None, include_operands: bool = False, **options):
        # options: policy = path of a YAML/JSON policy file (or a loaded PolicySet/Policy)
        from redactor.plugin_api import Policy, PolicySet, as_policy_set, load_policies
        if unknown := set(options) - {"policy_file", "policies"}:
            raise InputError(f"policy detector: unknown option(s) {', '.join(sorted(unknown))}")
        policy = policy or options.get("policy_file") or options.get("policies")
        if policy is None:
            raise InputError("policy detector needs a policy file (option policy=PATH)")
        if isinstance(policy, (str, Path)):
            self.policies = load_policies(policy)
        elif isinstance(policy, (Policy, PolicySet, list, tuple)):
            self.policies = as_policy_set(policy)
        else:
            raise InputError(f"policy detector: policy must be a file path, not {type(policy).__name__}")
        self.include_operands = as_bool("include_operands", include_operands)
        self._types = load_label_mapping(self.mapping_file)

    def describe(self) -> str:
        ops = " +operands" if self.include_operands else ""
        return f"policy ({len(self.policies)} policies{ops})"

    def detect(self, page: OcrPage) -> list[Span]:
        from redactor.plugin_api import check_policies
        result = check_policies(self.policies, page.text)
        types = {p.id: self._types.get(p.type, "OTHER") for p in self.policies}
        spans = {}
        for s in result.spans:
            if s.role == "operand" and not self.include_operands:
                continue
            key = (s.start, s.end)
            # a value beats an operand on the same characters: it is the reason to hide them
            if key in spans and spans[key].score >= (1.0 if s.role == "value" else 0.9):
                continue
            spans[key] = Span(s.start, s.end, types[s.policy_id],
                              score=1.0 if s.role == "value" else 0.9,
                              detector=self.name, text=page.text[s.start:s.end])
        return sorted(spans.values(), key=lambda sp: (sp.start, sp.end))


