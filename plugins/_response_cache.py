"""A disk cache of raw cloud responses, so a page is never paid for (or sent) twice.

A response is keyed by the vendor, the operation, every request parameter that changes the
answer, and the hash of the content sent (image pixels or text), never by a file name. The
stored value is the vendor's raw response as JSON; parsing happens after the cache, so a
parser fix needs no new call. Responses hold page text and findings, so files are written
owner-only (0600) in an owner-only folder, atomically (temporary name, then rename).
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger(__name__)

CACHE_ENV = "REDACTOR_CACHE_DIR"


def default_cache_dir() -> Path:
    """``$REDACTOR_CACHE_DIR/responses``, else ``$XDG_CACHE_HOME/redactor/responses``, else
    ``~/.cache/redactor/responses``."""
    root = os.environ.get(CACHE_ENV)
    if root:
        return Path(root) / "responses"
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "redactor" / "responses"


def image_content_hash(image) -> str:
    """Hash of a PIL image's pixels (mode, size, raw bytes): the same page gives the same
    key whatever file it came from and however it is re-encoded for upload."""
    h = hashlib.sha256()
    h.update(f"{image.mode}|{image.size[0]}x{image.size[1]}|".encode())
    h.update(image.tobytes())
    return h.hexdigest()


def text_content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def response_key(vendor: str, operation: str, params: dict[str, Any], content_hash: str) -> str:
    canonical = json.dumps({"vendor": vendor, "operation": operation, "params": params,
                            "content": content_hash}, sort_keys=True, separators=(",", ":"),
                           default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ResponseCache:
    """Raw responses on disk under ``<directory>/<vendor>/<key[:2]>/<key>.json``.
    ``directory=None`` uses :func:`default_cache_dir`; ``enabled=False`` makes every lookup a
    miss and stores nothing."""

    def __init__(self, directory: str | Path | None = None, enabled: bool = True):
        self.enabled = bool(enabled)
        self.directory = Path(directory) if directory else default_cache_dir()
        self.hits = 0
        self.misses = 0

    def _path(self, vendor: str, key: str) -> Path:
        return self.directory / vendor / key[:2] / f"{key}.json"

    def get(self, vendor: str, key: str) -> Any | None:
        if not self.enabled:
            return None
        path = self._path(vendor, key)
        try:
            return json.loads(path.read_text(encoding="utf-8"))["response"]
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            # A damaged entry is only a lost saving: ask again and overwrite it.
            log.warning("ignoring unreadable cached response %s: %s", path, exc)
            return None

    def put(self, vendor: str, key: str, response: Any, meta: dict | None = None) -> None:
        if not self.enabled:
            return
        path = self._path(vendor, key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            payload = json.dumps({"meta": meta or {}, "response": response}, ensure_ascii=False)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(payload)
                os.chmod(tmp, 0o600)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except (OSError, TypeError, ValueError) as exc:
            # Not caching costs money, not correctness: warn and go on.
            log.warning("could not cache a %s response in %s: %s", vendor, path.parent, exc)

    def fetch(self, vendor: str, operation: str, params: dict[str, Any], content_hash: str,
              call: Callable[[], Any]) -> Any:
        """The cached response for this request, or ``call()``'s result, stored."""
        key = response_key(vendor, operation, params, content_hash)
        cached = self.get(vendor, key)
        if cached is not None:
            self.hits += 1
            return cached
        self.misses += 1
        response = call()
        self.put(vendor, key, response, {"operation": operation, "params": params})
        return response
