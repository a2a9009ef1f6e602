"""Finding a model's weights on this machine for the local model detectors.

The detector option ``model`` (``--detector-option gliner.model=DIR``; config
``[detector_options.gliner] model = "DIR"``) takes a folder or a Hugging Face id. A folder is
used as it is; an id is looked up in the local Hugging Face cache only (never downloaded
unless the user allows it and ``HF_HUB_OFFLINE`` is not set). A missing model is a
``PluginUnavailable`` that says what to download and where to put it; a folder without the
expected files is an ``InputError``.
"""
from __future__ import annotations

import os
from pathlib import Path

from redactor.plugin_api import InputError, PluginUnavailable


def hub_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


def hf_cache_dir() -> str:
    try:
        from huggingface_hub import constants
        return str(constants.HF_HUB_CACHE)
    except ImportError:
        return str(Path(os.environ.get("HF_HOME", Path.home() / ".cache" / "huggingface")) / "hub")


def _looks_like_repo_id(name: str) -> bool:
    parts = name.split("/")
    return len(parts) == 2 and all(p and not p.startswith(".") for p in parts)


def resolve_model_dir(model: str, *, plugin: str, required: tuple[str, ...],
                      allow_download: bool = False) -> Path:
    """The folder holding ``model``'s files. ``required``: file names that must all exist in
    it (relative paths allowed)."""
    path = Path(model).expanduser()
    if path.is_dir():
        missing = [f for f in required if not (path / f).exists()]
        if missing:
            raise InputError(f"{plugin}: {path} is not a model folder for this plugin "
                             f"(missing {', '.join(missing)})")
        return path
    if not _looks_like_repo_id(model):
        raise PluginUnavailable(f"{plugin}: model folder {model} does not exist")
    folder = _cached_snapshot(model, allow_download=allow_download and not hub_offline())
    if folder is None:
        raise PluginUnavailable(f"{plugin}: no weights for {model} on this machine "
                                f"({where_to_put(plugin, model)})")
    missing = [f for f in required if not (folder / f).exists()]
    if missing:
        raise PluginUnavailable(f"{plugin}: cached copy of {model!r} at {folder} is incomplete "
                                f"(missing {', '.join(missing)}); download the repo again")
    return folder


def where_to_put(plugin: str, model: str) -> str:
    """How to give a plugin its weights, in flags and config keys that exist."""
    return (f"pass --detector-option {plugin}.model=DIR or, in a config file, "
            f"[detector_options.{plugin}] model = \"DIR\", DIR holding the Hugging Face repo "
            f"{model}, e.g. from `hf download {model} --local-dir DIR` where the hub is "
            f"reachable; or put the repo in the Hugging Face cache at {hf_cache_dir()}")


def weights_reason(plugin: str, model: str, required: tuple[str, ...]) -> str | None:
    """Why ``model``'s weights cannot be used now (``None`` when they can): the cheap check
    behind ``redactor plugins``, which must not call a plugin available that then fails
    for want of its weights. Looks on disk only; imports no model library."""
    path = Path(model).expanduser()
    if path.is_dir():
        missing = [f for f in required if not (path / f).exists()]
        return f"{path} is not a model folder for {plugin} (missing {', '.join(missing)})" \
            if missing else None
    if not _looks_like_repo_id(model):
        return f"model folder {model} does not exist"
    folder = _cached_snapshot(model, allow_download=False)
    if folder is None or any(not (folder / f).exists() for f in required):
        return f"no weights for {model} ({where_to_put(plugin, model)})"
    return None


def _cached_snapshot(repo_id: str, allow_download: bool) -> Path | None:
    try:
        from huggingface_hub import snapshot_download
    except ImportError:
        return None
    try:
        return Path(snapshot_download(repo_id=repo_id, local_files_only=not allow_download))
    except Exception:   # not cached (LocalEntryNotFoundError) or the hub unreachable
        return None
