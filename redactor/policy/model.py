"""User-defined non-disclosure policies and their YAML/JSON loader.

A policy names a target ("the Middle East revenue"), the protected value(s) ("$5 million")
and, optionally, derivations: how the value follows from other facts a document discloses
(a 5 % share times a $100 million total). A file holds one policy or a list::

    policies:
      - id: me-revenue
        target: Middle East revenue
        values: ["$5 million"]
        type: OTHER            # fine type the policy detector emits (default OTHER)
        tolerance: 0.0         # extra relative tolerance beyond the shown precision
        derivations:
          - op: product        # product | sum | difference | ratio
            operands: ["5%", "$100 million"]
        rates: {EUR: 1.08}     # optional: value of one unit in a common currency
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Iterable, Iterator

import yaml

from redactor.errors import InputError
from redactor.policy.values import Quantity, parse_value

OPERATIONS = ("product", "sum", "difference", "ratio")
_OP_ALIASES = {"share_of_total": "product", "share x total": "product", "multiply": "product",
               "times": "product", "add": "sum", "plus": "sum", "subtract": "difference",
               "minus": "difference", "divide": "ratio", "quotient": "ratio"}
DEFAULT_TYPE = "OTHER"
# How far a declared derivation may miss its value before the file is rejected: operands
# are usually rounded ("5 %" of "$100 million"), so allow their rounding, not more.
_DERIVATION_SLACK = Decimal("0.05")


@dataclass(frozen=True)
class ProtectedValue:
    """A value as the user wrote it, and what it states (None: matched as text)."""
    raw: str
    quantity: Quantity | None

    @classmethod
    def of(cls, raw) -> "ProtectedValue":
        raw = str(raw).strip()
        if not raw:
            raise InputError("a policy value is empty")
        return cls(raw, parse_value(raw))


@dataclass(frozen=True)
class Derivation:
    op: str
    operands: tuple[ProtectedValue, ...]


@dataclass(frozen=True)
class Policy:
    id: str
    target: str
    values: tuple[ProtectedValue, ...]
    derivations: tuple[Derivation, ...] = ()
    type: str = DEFAULT_TYPE
    tolerance: float = 0.0
    rates: dict = field(default_factory=dict, hash=False, compare=False)
    statement: str = ""

    @property
    def text(self) -> str:
        """The policy as said to a model."""
        return self.statement or f"Do not disclose the {self.target}."


@dataclass(frozen=True)
class PolicySet:
    policies: tuple[Policy, ...]

    def __iter__(self) -> Iterator[Policy]:
        return iter(self.policies)

    def __len__(self) -> int:
        return len(self.policies)


def allowed_types() -> frozenset[str]:
    """The fine types a policy may name: those of mappings/policy.yaml."""
    from redactor.plugin_api import load_label_mapping
    return frozenset(load_label_mapping("policy.yaml").values())


def _numeric(pv: ProtectedValue, where: str) -> Decimal:
    q = pv.quantity
    if q is None or q.kind not in ("amount", "ratio") or q.value is None:
        raise InputError(f"{where}: operand {pv.raw!r} is not a number, amount or percentage")
    return q.value


def derive(op: str, values: list[Decimal]) -> Decimal:
    if op == "product":
        out = Decimal(1)
        for v in values:
            out *= v
        return out
    if op == "sum":
        return sum(values, Decimal(0))
    if op == "difference":
        return values[0] - sum(values[1:], Decimal(0))
    if op == "ratio":
        if any(v == 0 for v in values[1:]):
            raise InputError("a ratio derivation divides by zero")
        out = values[0]
        for v in values[1:]:
            out /= v
        return out
    raise InputError(f"unknown derivation op {op!r} (known: {', '.join(OPERATIONS)})")


def _check_derivation(d: Derivation, values: tuple[ProtectedValue, ...], where: str) -> None:
    operands = [_numeric(o, where) for o in d.operands]
    got = derive(d.op, operands)
    targets = [v.quantity.value for v in values
               if v.quantity is not None and v.quantity.value is not None]
    if not targets:
        return
    for t in targets:
        # a ratio of two amounts is a fraction; a protected percentage is stored as one too
        if abs(got - t) <= abs(t) * _DERIVATION_SLACK + Decimal("1e-9"):
            return
    raise InputError(f"{where}: {d.op} of {[o.raw for o in d.operands]} gives {got:g}, "
                     f"not the protected value {values[0].raw!r}")


def _as_list(v, where: str, name: str) -> list:
    if v is None:
        return []
    if isinstance(v, (str, int, float)):
        return [v]
    if isinstance(v, list):
        return v
    raise InputError(f"{where}: {name} must be a value or a list")


def policy_from_dict(d: dict, index: int = 0, types: frozenset[str] | None = None) -> Policy:
    if not isinstance(d, dict):
        raise InputError(f"policy #{index + 1} must be a mapping, not {type(d).__name__}")
    pid = str(d.get("id") or f"policy-{index + 1}")
    where = f"policy {pid!r}"
    target = str(d.get("target") or "").strip()
    raw_values = _as_list(d.get("values", d.get("value")), where, "values")
    if not target:
        raise InputError(f"{where}: 'target' is missing")
    if not raw_values:
        raise InputError(f"{where}: no protected 'values'")
    values = tuple(ProtectedValue.of(v) for v in raw_values)
    ptype = str(d.get("type") or DEFAULT_TYPE).upper()
    types = allowed_types() if types is None else types
    if ptype not in types:
        raise InputError(f"{where}: type {ptype!r} is not one a policy may use "
                         f"(known: {', '.join(sorted(types))})")
    try:
        tolerance = float(d.get("tolerance", 0.0))
    except (TypeError, ValueError):
        raise InputError(f"{where}: tolerance must be a number") from None
    if not 0 <= tolerance < 1:
        raise InputError(f"{where}: tolerance must be in [0, 1), got {tolerance}")
    derivations = []
    for j, dd in enumerate(_as_list(d.get("derivations"), where, "derivations")):
        if not isinstance(dd, dict):
            raise InputError(f"{where}: derivation #{j + 1} must be a mapping")
        op = str(dd.get("op", "")).strip().lower()
        op = _OP_ALIASES.get(op, op)
        if op not in OPERATIONS:
            raise InputError(f"{where}: unknown derivation op {dd.get('op')!r} "
                             f"(known: {', '.join(OPERATIONS)})")
        operands = tuple(ProtectedValue.of(o) for o in _as_list(dd.get("operands"), where, "operands"))
        if len(operands) < 2:
            raise InputError(f"{where}: a derivation needs at least two operands")
        der = Derivation(op, operands)
        _check_derivation(der, values, where)
        derivations.append(der)
    rates = d.get("rates") or {}
    if not isinstance(rates, dict):
        raise InputError(f"{where}: rates must be a mapping of currency code to number")
    try:
        rates = {str(k).upper(): Decimal(str(v)) for k, v in rates.items()}
    except Exception:
        raise InputError(f"{where}: rates must map currency codes to numbers") from None
    return Policy(pid, target, values, tuple(derivations), ptype, tolerance, rates,
                  str(d.get("statement") or d.get("policy") or ""))


def policies_from_data(data) -> PolicySet:
    if isinstance(data, dict) and "policies" in data:
        items = data["policies"]
    elif isinstance(data, dict):
        items = [data]
    else:
        items = data
    if not isinstance(items, list) or not items:
        raise InputError("a policy file must hold a policy or a non-empty list 'policies'")
    types = allowed_types()
    pols = tuple(policy_from_dict(d, i, types) for i, d in enumerate(items))
    ids = [p.id for p in pols]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise InputError(f"duplicate policy ids: {', '.join(sorted(dup))}")
    return PolicySet(pols)


def load_policies(path: str | Path) -> PolicySet:
    """Read a policy file (.yaml/.yml/.json); every problem is one InputError line."""
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read policy file {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw) if path.suffix.lower() == ".json" else yaml.safe_load(raw)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        kind = path.suffix.lstrip(".").upper() or "YAML"
        raise InputError(f"policy file {path} is not valid {kind}: {first}") from None
    try:
        return policies_from_data(data)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None


def as_policy_set(policy: "Policy | PolicySet | Iterable[Policy]") -> PolicySet:
    if isinstance(policy, PolicySet):
        return policy
    if isinstance(policy, Policy):
        return PolicySet((policy,))
    return PolicySet(tuple(policy))
