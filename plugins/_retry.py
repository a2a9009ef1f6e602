"""Retrying a cloud call with exponential backoff and full jitter, for throttling and
transient server errors. The caller says which exceptions are worth another try."""
from __future__ import annotations

import logging
import random
import time
from typing import Callable, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


def backoff_delays(max_retries: int, base_delay: float, max_delay: float = 30.0,
                   rng: random.Random | None = None) -> list[float]:
    """Full-jitter delays: attempt i waits uniform(0, min(max_delay, base * 2**i))."""
    rng = rng or random.Random()
    return [rng.uniform(0, min(max_delay, base_delay * (2 ** i))) for i in range(max_retries)]


def call_with_retries(call: Callable[[], T], is_retryable: Callable[[BaseException], bool],
                      max_retries: int = 5, base_delay: float = 0.5, max_delay: float = 30.0,
                      what: str = "call", sleep: Callable[[float], None] = time.sleep) -> T:
    """``call()``, retried up to ``max_retries`` times while it raises a retryable error.
    The last error is re-raised when the retries are spent."""
    delays = backoff_delays(max_retries, base_delay, max_delay)
    for attempt in range(max_retries + 1):
        try:
            return call()
        except Exception as exc:
            if attempt >= max_retries or not is_retryable(exc):
                raise
            log.info("%s: %s; retry %d of %d in %.2f s", what, exc, attempt + 1, max_retries,
                     delays[attempt])
            sleep(delays[attempt])
    raise AssertionError("unreachable")
