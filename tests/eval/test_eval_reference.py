"""The evaluator against an independent brute-force reading of the contract.

The reference below is written from ../shared/leakage-format.md alone: plain Python loops
over the raw JSON records, no code shared with ``eval/`` (OpenCV is used only where the
contract names it: grayscale and Otsu's threshold). Random datasets with integer and
half-integer boxes on small pages make ties, conflicts, invalid boxes, error and missing
pages frequent; every number must agree to 1e-9.
"""
from __future__ import annotations

import json
import math
import random

import cv2
import numpy as np
import pytest
from PIL import Image

from redactor_eval.api import evaluate
from redactor_eval.dataset import load_dataset
from redactor_eval.predictions import load_ocr_words, load_predictions

GROUP = {"PERSON": "direct", "ADDRESS": "direct", "EMAIL": "direct", "PHONE": "direct",
         "ACCOUNT_NUMBER": "linkage", "ID_NUMBER": "linkage", "CARD_NUMBER": "linkage",
         "REFERENCE_NUMBER": "linkage", "ONLINE_ID": "linkage", "DATE": "contextual",
         "LOCATION": "contextual", "ORGANIZATION": "contextual", "BUSINESS_ID": "contextual",
         "SIGNATURE": "other", "OTHER": "other"}
CRITICAL = {t for t, g in GROUP.items() if g in ("direct", "linkage")}


# ---------------------------------------------------------------- the reference ----------

def ref_iou(a, b):
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union


def ref_inter(a, b):
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def ref_valid(p, w, h):
    box = p.get("bbox")
    if not isinstance(box, list) or len(box) != 4:
        return False
    for v in box:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v in (math.inf, -math.inf):
            return False
    if not (box[0] < box[2] and box[1] < box[3]):
        return False
    if p.get("type") not in GROUP:
        return False
    return box[0] >= 0 and box[1] >= 0 and box[2] <= w and box[3] <= h


def ref_greedy(golds, preds, valid, tau, typed):
    pairs = []
    for gi, g in enumerate(golds):
        for pi, p in enumerate(preds):
            if not valid[pi]:
                continue
            if typed and g["type"] != p["type"]:
                continue
            v = ref_iou(g["bbox"], p["bbox"])
            if v >= tau - 1e-9:
                pairs.append((-v, gi, pi))
    pairs.sort()
    gold_to = {}
    used = set()
    for _, gi, pi in pairs:
        if gi in gold_to or pi in used:
            continue
        gold_to[gi] = pi
        used.add(pi)
    return gold_to


def ref_f1(tp, fp, fn):
    if tp + fp + fn == 0:
        return 1.0
    return 2 * tp / (2 * tp + fp + fn)


def ref_norm(s):
    out = ""
    for ch in s.lower():
        if ch.isalnum():
            out += ch
    return out


def ref_percentile(values, q):
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def ref_page_state(page, pline):
    """(error?, predictions, validity) of a page as the contract scores it."""
    if pline is None or pline.get("error") is not None:
        return True, [], []
    preds = pline["predictions"]
    return False, preds, [ref_valid(p, page["width"], page["height"]) for p in preds]


def ref_scores(pages, pred_lines, tau):
    f1s, f1s_gold = [], []
    tp_t, fp_t, fn_t = {}, {}, {}
    leak_all = [0, 0]
    leak_crit = [0, 0]
    groups = {g: [0, 0] for g in ("direct", "linkage", "contextual", "other")}
    n_valid = 0
    for page in pages:
        error, preds, valid = ref_page_state(page, pred_lines.get(page["page_id"]))
        golds = page["annotations"]
        if not error:
            n_valid += 1
        loc = ref_greedy(golds, preds, valid, tau, typed=False)
        typed = ref_greedy(golds, preds, valid, tau, typed=True)
        tp = len(loc)
        f = ref_f1(tp, len(preds) - tp, len(golds) - tp)
        f1s.append(f)
        if golds:
            f1s_gold.append(f)
        for gi, g in enumerate(golds):
            t = g["type"]
            if gi in typed:
                tp_t[t] = tp_t.get(t, 0) + 1
            else:
                fn_t[t] = fn_t.get(t, 0) + 1
        matched_preds = set(typed.values())
        for pi, p in enumerate(preds):
            if pi not in matched_preds:
                t = p.get("type")
                fp_t[t] = fp_t.get(t, 0) + 1
        missed = [gi for gi in range(len(golds)) if gi not in typed]
        if golds:
            leak_all[1] += 1
            leak_all[0] += bool(missed)
        if any(g["type"] in CRITICAL for g in golds):
            leak_crit[1] += 1
            leak_crit[0] += any(golds[gi]["type"] in CRITICAL for gi in missed)
        for grp in groups:
            if any(GROUP[g["type"]] == grp for g in golds):
                groups[grp][1] += 1
                groups[grp][0] += any(GROUP[golds[gi]["type"]] == grp for gi in missed)
    gold_types = set(tp_t) | set(fn_t)
    per_type = [ref_f1(tp_t.get(t, 0), fp_t.get(t, 0), fn_t.get(t, 0)) for t in gold_types]

    def div(a, b):
        return a / b if b else None

    return {"f1_loc": sum(f1s) / len(f1s),
            "f1_loc_gold_pages": div(sum(f1s_gold), len(f1s_gold)),
            "f1_type": div(sum(per_type), len(per_type)),
            "docleak_all": div(*leak_all), "docleak_crit": div(*leak_crit),
            "valid": n_valid / len(pages),
            "per_group": {g: div(*v) for g, v in groups.items()}}


def ref_attribution(pages, pred_lines, tau, words_by_page):
    causes = []
    recover = [0, 0]
    missed_counts, shares = [], []
    for page in pages:
        error, preds, valid = ref_page_state(page, pred_lines.get(page["page_id"]))
        golds = page["annotations"]
        typed = ref_greedy(golds, preds, valid, tau, typed=True)
        owner = {pi: gi for gi, pi in typed.items()}
        words = words_by_page.get(page["page_id"], []) if words_by_page is not None else None
        n_crit = sum(g["type"] in CRITICAL for g in golds)
        n_missed_crit = 0
        for gi, g in enumerate(golds):
            in_ocr = None
            if words is not None and "value" in g:
                text = ""
                for w in words:
                    wb = w["bbox"]
                    area = (wb[2] - wb[0]) * (wb[3] - wb[1])
                    if area > 0 and ref_inter(wb, g["bbox"]) / area >= 0.5 - 1e-9:
                        text += ref_norm(w["text"])
                in_ocr = ref_norm(g["value"]) in text
                if g["type"] in CRITICAL:
                    recover[0] += 1
                    recover[1] += not in_ocr
            if gi in typed or g["type"] not in CRITICAL:
                continue
            n_missed_crit += 1
            near = [(pi, p) for pi, p in enumerate(preds) if valid[pi]]
            if words is not None and in_ocr is False:
                cause = "ocr_miss"
            elif words is None and error:
                cause = "interface_failure"
            elif not any(ref_inter(p["bbox"], g["bbox"]) > 0 for _, p in near):
                cause = "detector_miss"
            elif any(p["type"] == g["type"] and ref_iou(p["bbox"], g["bbox"]) >= tau - 1e-9
                     and owner.get(pi, gi) != gi for pi, p in near):
                cause = "conflict"
            elif any(p["type"] != g["type"] and ref_iou(p["bbox"], g["bbox"]) >= tau - 1e-9
                     for _, p in near):
                cause = "type_mismatch"
            else:
                cause = "box_alignment"
            causes.append(cause)
        if n_missed_crit:
            missed_counts.append(n_missed_crit)
            shares.append(n_missed_crit / n_crit)
    counts = {}
    for c in causes:
        counts[c] = counts.get(c, 0) + 1
    missed = {"leaking_pages": len(missed_counts)}
    if missed_counts:
        s = sorted(missed_counts)
        n = len(s)
        missed.update(mean=sum(s) / n, p90=ref_percentile(s, 90), share=sum(shares) / n,
                      median=(s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2))
    return counts, recover, missed


def ref_pixels(box, w, h):
    c0, c1 = max(0, math.floor(box[0])), min(w, math.ceil(box[2]))
    r0, r1 = max(0, math.floor(box[1])), min(h, math.ceil(box[3]))
    return {(r, c) for r in range(r0, r1) for c in range(c0, c1)}


def ref_ink(pages, pred_lines, folder):
    leak_all = [0, 0]
    leak_crit = [0, 0]
    crit_ink = crit_hidden = other_ink = other_hidden = 0
    for page in pages:
        w, h = page["width"], page["height"]
        gray = cv2.imread(str(folder / page["image"]), cv2.IMREAD_GRAYSCALE)
        levels = {int(v) for v in gray.flatten().tolist()}
        if len(levels) == 1:
            ink = set()
        else:
            t = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
            ink = {(r, c) for r in range(h) for c in range(w) if gray[r, c] <= t}
        error, preds, valid = ref_page_state(page, pred_lines.get(page["page_id"]))
        hidden = set()
        for p, ok in zip(preds, valid):
            if ok:
                hidden |= ref_pixels(p["bbox"], w, h)
        golds = page["annotations"]
        uncovered = []
        gold_pixels, crit_pixels = set(), set()
        for g in golds:
            px = ref_pixels(g["bbox"], w, h)
            gold_pixels |= px
            if g["type"] in CRITICAL:
                crit_pixels |= px
            ink_px = px & ink
            if not px:
                ok = True
            elif len(ink_px) >= 10:
                ok = len(ink_px & hidden) / len(ink_px) >= 0.98
            else:
                ok = len(px & hidden) / len(px) >= 0.90
            uncovered.append(not ok)
        if golds:
            leak_all[1] += 1
            leak_all[0] += any(uncovered)
        crit_flags = [u for u, g in zip(uncovered, golds) if g["type"] in CRITICAL]
        if crit_flags:
            leak_crit[1] += 1
            leak_crit[0] += any(crit_flags)
        crit_ink += len(crit_pixels & ink)
        crit_hidden += len(crit_pixels & ink & hidden)
        rest = ink - gold_pixels
        other_ink += len(rest)
        other_hidden += len(rest & hidden)

    def div(a, b):
        return a / b if b else None

    return {"docleak_ink_all": div(*leak_all), "docleak_ink_crit": div(*leak_crit),
            "ink_recall_crit": div(crit_hidden, crit_ink), "collateral": div(other_hidden, other_ink)}


# ---------------------------------------------------------------- random datasets --------

TYPES = ["PERSON", "PHONE", "ACCOUNT_NUMBER", "DATE", "SIGNATURE", "EMAIL"]


def random_box(rng, w, h):
    x0 = rng.randint(0, w - 2) + rng.choice([0, 0, 0.5])
    y0 = rng.randint(0, h - 2) + rng.choice([0, 0, 0.5])
    return [x0, y0, min(w, x0 + rng.randint(1, 14)), min(h, y0 + rng.randint(1, 8))]


def random_dataset(seed, folder, with_images):
    rng = random.Random(seed)
    pages, preds, words = [], [], []
    for i in range(rng.randint(1, 12)):
        w, h = rng.randint(20, 40), rng.randint(15, 30)
        golds = []
        for _ in range(rng.choice([0, 0, 1, 2, 3, 5, 8])):
            g = {"bbox": random_box(rng, w, h), "type": rng.choice(TYPES)}
            if rng.random() < 0.8:
                g["value"] = "".join(rng.choice("ab1 -") for _ in range(rng.randint(0, 4)))
            if rng.random() < 0.5 and golds:          # duplicates and near-duplicates: ties
                g["bbox"] = list(rng.choice(golds)["bbox"])
            golds.append(g)
        pid = f"pg{i}"
        page = {"page_id": pid, "width": w, "height": h, "annotations": golds,
                "image": f"img/{pid}.png"}
        pages.append(page)
        if with_images:
            arr = np.full((h, w), rng.choice([255, 230]), dtype=np.uint8)
            for _ in range(rng.randint(0, 6)):
                b = random_box(rng, w, h)
                arr[int(b[1]):int(math.ceil(b[3])), int(b[0]):int(math.ceil(b[2]))] = rng.choice([0, 40, 120])
            Image.fromarray(arr).save(folder / page["image"])
        else:
            Image.new("L", (w, h), 255).save(folder / page["image"])
        pl = []
        for g in golds:
            r = rng.random()
            if r < 0.4:
                fine = g["type"] if rng.random() < 0.8 else rng.choice(TYPES)
                pl.append({"bbox": list(g["bbox"]), "type": fine})
            elif r < 0.7:
                b = [v + rng.choice([-1, 0, 0, 1]) for v in g["bbox"]]
                pl.append({"bbox": b, "type": g["type"]})
        for _ in range(rng.randint(0, 3)):
            pl.append({"bbox": random_box(rng, w, h), "type": rng.choice(TYPES)})
        if rng.random() < 0.1:
            pl.append({"bbox": [0, 0, w + 1, h], "type": "PERSON"})
        if rng.random() < 0.1:
            pl.append({"bbox": [5, 5, 2, 9], "type": "PHONE"})
        if rng.random() < 0.1:
            pl.append({"bbox": [0, 0, 3, 3], "type": "NOT_A_TYPE"})
        if rng.random() < 0.1:
            pl.append({"bbox": "nonsense", "type": "DATE"})
        rng.shuffle(pl)
        r = rng.random()
        if r < 0.1:
            continue                                   # missing from the prediction file
        preds.append({"page_id": pid, "system": "rand", "predictions": pl,
                      "error": "crash" if r < 0.2 else None})
        wl = []
        for g in golds:
            if "value" in g and rng.random() < 0.8:
                text = g["value"] if rng.random() < 0.8 else "zz"
                b = g["bbox"]
                wide = b[2] + rng.choice([0, 0, 6])
                wl.append({"text": text, "bbox": [b[0], b[1], wide, b[3]], "conf": 90})
        if rng.random() < 0.9:
            words.append({"page_id": pid, "engine": "fake", "words": wl})
    return pages, preds, words


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9


@pytest.mark.parametrize("seed", range(40))
def test_eval_agrees_with_the_brute_force_reference(tmp_path, seed):
    (tmp_path / "img").mkdir()
    pages, preds, words = random_dataset(seed, tmp_path, with_images=seed % 4 == 0)
    write_jsonl(tmp_path / "pages.jsonl", pages)
    write_jsonl(tmp_path / "preds.jsonl", preds)
    write_jsonl(tmp_path / "words.jsonl", words)
    gold = load_dataset(tmp_path / "pages.jsonl")
    loaded = load_predictions(tmp_path / "preds.jsonl")
    ocr = load_ocr_words(tmp_path / "words.jsonl")
    tau = [0.75, 0.5, 0.6, 0.95][seed % 4]
    result = evaluate(gold, loaded, tau=tau, ocr_words=ocr, ink=seed % 4 == 0)
    got = result.to_json()
    pred_lines = {p["page_id"]: p for p in preds}

    for key, t in (("0.5", 0.5), ("0.75", 0.75), ("0.95", 0.95)):
        ref = ref_scores(pages, pred_lines, t)
        for metric in ("f1_loc", "f1_loc_gold_pages", "f1_type", "docleak_all", "docleak_crit", "valid"):
            assert close(got["per_tau"][key][metric], ref[metric]), (key, metric)
    ref = ref_scores(pages, pred_lines, tau)
    for metric in ("f1_loc", "f1_loc_gold_pages", "f1_type", "docleak_all", "docleak_crit", "valid"):
        assert close(got[metric], ref[metric]), metric
    for group, value in ref["per_group"].items():
        assert close(got["per_group"][group]["docleak"], value), group

    words_by_page = {w["page_id"]: w["words"] for w in words}
    counts, recover, missed = ref_attribution(pages, pred_lines, tau, words_by_page)
    assert {k: v for k, v in got["attribution"]["counts"].items() if v} == counts
    assert got["ocr_recoverability"]["critical_with_value"] == recover[0]
    assert got["ocr_recoverability"]["not_in_ocr"] == recover[1]
    assert got["missed_crit"]["leaking_pages"] == missed["leaking_pages"]
    for k in ("mean", "median", "p90", "share"):
        assert close(got["missed_crit"][k], missed.get(k)), k

    free = evaluate(gold, loaded, tau=tau).to_json()["attribution"]["counts"]
    counts_free, _, _ = ref_attribution(pages, pred_lines, tau, None)
    assert {k: v for k, v in free.items() if v} == counts_free

    if seed % 4 == 0:
        ref_ink_numbers = ref_ink(pages, pred_lines, tmp_path)
        for k, v in ref_ink_numbers.items():
            assert close(got[k], v), k


@pytest.mark.parametrize("seed", range(8))
def test_eval_restricted_leakage_agrees_with_filtering_the_gold(tmp_path, seed):
    (tmp_path / "img").mkdir()
    pages, preds, _ = random_dataset(100 + seed, tmp_path, with_images=False)
    write_jsonl(tmp_path / "pages.jsonl", pages)
    write_jsonl(tmp_path / "preds.jsonl", preds)
    emits = {"PERSON", "DATE"}
    got = evaluate(load_dataset(tmp_path / "pages.jsonl"), load_predictions(tmp_path / "preds.jsonl"),
                   emits=emits).to_json()["coverage"]
    restricted = [dict(p, annotations=[a for a in p["annotations"] if a["type"] in emits]) for p in pages]
    ref = ref_scores(restricted, {p["page_id"]: p for p in preds}, 0.75)
    assert close(got["restricted"]["docleak_all"], ref["docleak_all"])
    assert close(got["restricted"]["docleak_crit"], ref["docleak_crit"])
    direct = [a for p in pages for a in p["annotations"] if GROUP[a["type"]] == "direct"]
    share = sum(a["type"] in emits for a in direct) / len(direct) if direct else None
    assert close(got["type_coverage"]["direct"]["annotation_share"], share)
    assert got["type_coverage"]["direct"]["types"] == 0.25
