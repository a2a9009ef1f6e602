"""The one grey image every stage reads: OCR, ink fitting, verification and the visual detectors.

Before there were two conversions (PIL's ``convert("L")`` for ink fitting, OpenCV's for
the OCR backend) that round differently, so a box was fitted to a grey one level off the
grey the words were read from. One function now makes it, from a PIL image of any mode or
a numpy array:

- transparency is composited on white (a PNG screenshot with an alpha channel is black
  where it is transparent in its raw RGB: that black must not read as ink);
- colour pages keep the ink their lightness hides (``colour_contrast.contrast_gray``);
  any other page gets its plain luminance, the same bytes;
- 16-bit and float greys (medical and archival scans) are stretched to 8 bits.
"""
from __future__ import annotations

import cv2
import numpy as np

from redactor.colour_contrast import contrast_gray
from redactor.errors import InputError

_HIGH_DEPTH_MODES = ("I;16", "I;16B", "I;16L", "I", "F")


def to_gray(image) -> np.ndarray:
    """A uint8 2-D grey image of ``image`` (a PIL image or a 2-D/3-D uint8 or bool array)."""
    if hasattr(image, "mode") and hasattr(image, "convert"):
        arr = _pil_gray(image)
    else:
        arr = _array_gray(np.asarray(image))
    if arr.ndim != 2 or arr.size == 0:
        raise InputError(f"expected a 2-D grey or colour image, got an array of shape {arr.shape}")
    return arr


def _pil_gray(image) -> np.ndarray:
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        return _array_gray(np.asarray(image.convert("RGBA")))
    if image.mode == "L":
        return np.asarray(image)
    if image.mode == "1":
        return np.asarray(image.convert("L"))
    if image.mode in _HIGH_DEPTH_MODES:
        arr = np.asarray(image).astype(np.float64)
        span = arr.max() - arr.min() if arr.size else 0.0
        arr = (arr - arr.min()) * (255.0 / span) if span > 0 else np.full_like(arr, 255.0)
        return arr.astype(np.uint8)
    return _array_gray(np.asarray(image.convert("RGB")))


def _array_gray(arr: np.ndarray) -> np.ndarray:
    if arr.dtype == bool:
        arr = arr.astype(np.uint8) * 255
    if arr.dtype != np.uint8:
        raise InputError(f"expected a uint8 image, got {arr.dtype}")
    if arr.ndim == 3 and arr.shape[2] == 1:
        return arr[:, :, 0]
    if arr.ndim == 3 and arr.shape[2] == 4:
        alpha = arr[:, :, 3:4].astype(np.float32) / 255.0
        arr = (arr[:, :, :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
    if arr.ndim == 3 and arr.shape[2] == 3:
        rgb = np.ascontiguousarray(arr)
        return contrast_gray(rgb, cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY))
    return arr
