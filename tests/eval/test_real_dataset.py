"""The real-document dev set: the committed gold is what its checked specs derive, it is
valid under the contract, large and split as the issue asks, names no reserved source, and
its images are rebuilt exactly from a source repository (a local git repository made here)."""
from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from redactor_eval.dataset import load_dataset
from redactor_eval.realdata import derive, funsd
from redactor_eval.realdata.materialize import materialize
from redactor_eval.realdata.sources import RESERVED_PREFIXES, check_not_reserved, pixel_sha256
from redactor_eval.realdata.spec import assign_split, load_spec, load_specs, spec_files
from redactor.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "eval/data/real"
FARA_UNSEEN = ROOT / "eval/data/fara-unseen"


def test_committed_gold_is_what_the_specs_derive():
    assert derive.main(["--data", str(REAL), "--check"]) == 0


def test_real_set_is_valid_large_enough_and_split():
    pages = load_dataset(REAL / "pages.jsonl", check_images=False)
    by_source = Counter(p.source for p in pages)
    assert len(pages) >= 100
    assert by_source["real:funsd"] >= 60 and by_source["real:vrdu"] >= 30
    splits = Counter(p.extra["split"] for p in pages)
    assert set(splits) == {"dev", "heldout"}
    assert 0.2 <= splits["heldout"] / len(pages) <= 0.45
    for p in pages:
        assert p.extra["split"] == assign_split(p.page_id)
    types = Counter(a.type for p in pages for a in p.annotations)
    for fine in ("PERSON", "ORGANIZATION", "ADDRESS", "PHONE", "DATE", "SIGNATURE"):
        assert types[fine] >= 10, (fine, types)


def test_every_spec_is_checked_and_names_no_reserved_source():
    specs = load_specs(REAL / "spec")           # raises on an unchecked spec
    assert len(specs) == len(spec_files(REAL / "spec"))
    for s in specs:
        check_not_reserved(s.source, s.source_path)
        assert s.checked.strip()


def test_unseen_fara_set_derives_its_gold_and_shares_no_page_with_the_real_set():
    """The second yardstick (eval/data/fara-unseen/README.md): checked specs, no reserved
    source, the committed gold derived from them, every page dev, and no page or source file
    of the real set (its held-out pages stay unseen)."""
    assert derive.main(["--data", str(FARA_UNSEEN), "--check"]) == 0
    specs = load_specs(FARA_UNSEEN / "spec")
    real = load_specs(REAL / "spec")
    assert len(specs) >= 30
    for s in specs:
        check_not_reserved(s.source, s.source_path)
        assert s.checked.strip() and s.split == "dev"
    assert not {s.page_id for s in specs} & {s.page_id for s in real}
    assert not {s.source_path for s in specs} & {s.source_path for s in real}


@pytest.mark.parametrize("source,path", [("funsd", "testing_data/images/x.png"),
                                         ("vrdu", "ad-buy-form/main/pdfs/x.pdf")])
def test_reserved_sources_are_refused(source, path):
    assert any(path.startswith(p) for p in RESERVED_PREFIXES[source])
    with pytest.raises(InputError, match="reserved"):
        check_not_reserved(source, path)


def test_materialized_images_have_the_recorded_pixels():
    specs = [s for s in load_specs(REAL / "spec") if (REAL / s.image).is_file()]
    if not specs:
        pytest.skip("real images not materialized (make real-data)")
    for s in specs:
        with Image.open(REAL / s.image) as im:
            assert (im.width, im.height) == (s.width, s.height)
            assert pixel_sha256(im) == s.sha256, s.page_id


def test_funsd_draft_types_answers_by_their_question():
    form = [
        {"id": 0, "label": "question", "text": "FAX NO.:", "box": [10, 10, 60, 20], "linking": [[0, 1]]},
        {"id": 1, "label": "answer", "text": "(212) 555-0199", "box": [70, 10, 160, 20], "linking": [[0, 1]]},
        {"id": 2, "label": "question", "text": "TO:", "box": [10, 30, 30, 40], "linking": [[2, 3]]},
        {"id": 3, "label": "answer", "text": "J. S. Wigand", "box": [40, 30, 120, 40], "linking": [[2, 3]]},
        {"id": 4, "label": "question", "text": "Filter length", "box": [10, 50, 80, 60], "linking": [[4, 5]]},
        {"id": 5, "label": "answer", "text": "20 mm", "box": [90, 50, 120, 60], "linking": [[4, 5]]},
        {"id": 6, "label": "other", "text": "Tel 919 741 5000", "box": [10, 70, 120, 80], "linking": []},
    ]
    got = {(a["entity"], a["type"]) for a in funsd.propose(form)}
    assert got == {(1, "PHONE"), (3, "PERSON"), (6, "PHONE")}


def _git_repo(tmp_path: Path, files: dict[str, bytes]) -> tuple[Path, str]:
    repo = tmp_path / "src"
    repo.mkdir()
    for rel, data in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_bytes(data)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x", "HOME": str(tmp_path)}
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-C", str(repo), *cmd], check=True, env=env)
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    return repo, head


def _page_png() -> tuple[bytes, Image.Image]:
    import io
    img = Image.new("L", (120, 80), 255)
    ImageDraw.Draw(img).text((10, 30), "Maria Lopez", fill=0)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue(), img


def _write_spec(data_dir: Path, sha: str, source_path: str = "training_data/images/f1.png") -> None:
    spec_dir = data_dir / "spec" / "funsd"
    spec_dir.mkdir(parents=True)
    spec = {"page_id": "funsd-f1", "source": "funsd", "source_path": source_path, "sha256": sha,
            "width": 120, "height": 80, "page_type": "form", "split": "dev",
            "checked": "overlay checked", "annotations": [
                {"type": "PERSON", "bbox": [10, 30, 80, 42], "value": "Maria Lopez"}]}
    import yaml
    (spec_dir / "funsd-f1.yaml").write_text(yaml.safe_dump(spec))


def test_materialize_rebuilds_the_exact_image_and_refuses_other_pixels(tmp_path):
    png, img = _page_png()
    repo, head = _git_repo(tmp_path, {"training_data/images/f1.png": png})
    data = tmp_path / "real"
    _write_spec(data, pixel_sha256(img))
    assert materialize({"funsd": repo}, data, commits={"funsd": head}) == (1, 0)
    with Image.open(data / "images/funsd-f1.png") as out:
        assert pixel_sha256(out) == pixel_sha256(img)
    assert materialize({"funsd": repo}, data, commits={"funsd": head}) == (0, 1)
    # a spec recording other pixels: refused, and nothing half-written
    other = tmp_path / "other"
    _write_spec(other, "0" * 64)
    with pytest.raises(InputError, match="other pixels"):
        materialize({"funsd": repo}, other, commits={"funsd": head})
    assert not list((other / "images").iterdir())


def test_materialize_without_the_source_repository_says_which(tmp_path):
    _write_spec(tmp_path / "real", "0" * 64)
    with pytest.raises(InputError, match="--funsd"):
        materialize({}, tmp_path / "real")


def test_spec_errors_name_the_file(tmp_path):
    path = tmp_path / "funsd-x.yaml"
    path.write_text("page_id: funsd-x\nsource: funsd\n")
    with pytest.raises(InputError, match="funsd-x.yaml: missing"):
        load_spec(path)
    _write_spec(tmp_path / "d", "0" * 64)
    spec_path = tmp_path / "d/spec/funsd/funsd-f1.yaml"
    spec_path.write_text(spec_path.read_text().replace("PERSON", "NICKNAME"))
    with pytest.raises(InputError, match="unknown type 'NICKNAME'"):
        load_spec(spec_path)


def test_derive_writes_the_contract_lines(tmp_path):
    _write_spec(tmp_path, "0" * 64)
    assert derive.main(["--data", str(tmp_path)]) == 0
    line = json.loads((tmp_path / "pages.jsonl").read_text())
    assert line["image"] == "images/funsd-f1.png" and line["split"] == "dev"
    assert line["annotations"] == [{"bbox": [10.0, 30.0, 80.0, 42.0], "type": "PERSON",
                                    "value": "Maria Lopez"}]
    assert derive.main(["--data", str(tmp_path), "--check"]) == 0
    (tmp_path / "pages.jsonl").write_text("")
    assert derive.main(["--data", str(tmp_path), "--check"]) == 1


def test_tighten_shrinks_a_loose_box_to_its_ink_and_never_grows():
    import numpy as np
    from redactor_eval.ink import ink_mask as page_ink
    from redactor_eval.realdata.tighten import ink_box

    gray = np.full((40, 100), 255, dtype=np.uint8)
    gray[10:20, 30:60] = 0                      # the value's ink
    ink = page_ink(gray)
    assert ink_box(ink, [25.0, 5.0, 70.0, 25.0]) == [30.0, 10.0, 60.0, 20.0]
    assert ink_box(ink, [35.0, 12.0, 50.5, 18.0]) == [35.0, 12.0, 50.5, 18.0]   # all ink: kept
    assert ink_box(ink, [70.0, 0.0, 100.0, 40.0]) is None                         # no ink
    assert not page_ink(np.full((5, 5), 128, dtype=np.uint8)).any()


def test_tighten_leaves_out_the_underline_and_cell_wall_of_a_value():
    import numpy as np
    from redactor_eval.ink import ink_mask as page_ink
    from redactor_eval.realdata.tighten import ink_box

    gray = np.full((40, 100), 255, dtype=np.uint8)
    gray[10:20, 30:60] = 0                      # the value
    gray[22:24, 20:80] = 0                      # the underline it is typed on
    gray[5:30, 20:22] = 0                       # the cell's left wall
    ink = page_ink(gray)
    assert ink_box(ink, [20.0, 8.0, 80.0, 25.0]) == [30.0, 10.0, 60.0, 20.0]
    # a value that is itself a thick bar stays
    assert ink_box(ink, [30.0, 10.0, 60.0, 20.0]) == [30.0, 10.0, 60.0, 20.0]


def test_vrdu_page_ids_metadata_and_reserved_targets():
    from redactor_eval.realdata import vrdu

    path = "registration-form/main/pdfs/19861126_Arnold _ Porter_Amendment_Amendment.pdf"
    assert vrdu.page_id_of(path, 2) == "vrdu-19861126-arnold-porter-p2"
    fields, end = vrdu.split_metadata("Document Metadata\nREGISTRATION NUMBER=1619\n"
                                      "REGISTRANT NAME=KOREA TRADE CENTER\n\nVisible text")
    assert fields["REGISTRATION NUMBER"] == "1619" and fields["REGISTRANT NAME"] == "KOREA TRADE CENTER"
    assert end == len("Document Metadata\nREGISTRATION NUMBER=1619\nREGISTRANT NAME=KOREA TRADE CENTER\n")
    assert vrdu.split_metadata("Visible text") == ({}, 0)
    assert vrdu.parse_target(path + ":3") == (path, 3)
    with pytest.raises(InputError, match="reserved"):
        vrdu.parse_target("ad-buy-form/main/pdfs/x.pdf:1")
