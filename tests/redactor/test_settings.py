"""Settings that would do nothing are refused: an option for a detector that does not run
(a typo such as "presido") and an unknown config key exit 2 naming the close match. Checked
before any page is read, so no OCR runs here."""
from __future__ import annotations

from PIL import Image

from redactor.cli import main


def _page(tmp_path):
    path = tmp_path / "p.png"
    Image.new("RGB", (200, 100), "white").save(path)
    return path


def test_an_option_for_a_detector_that_does_not_run_is_refused(tmp_path, capsys):
    page = _page(tmp_path)
    assert main(["redact", str(page), "--out", str(tmp_path / "o"),
                 "--detector-option", "presido.min_score=0.9"]) == 2
    err = capsys.readouterr().err
    assert "'presido'" in err and "did you mean 'presidio'" in err
    assert main(["redact", str(page), "--out", str(tmp_path / "o"), "--detector", "presidio",
                 "--detector-option", "rules.disable=[]"]) == 2
    assert "not a detector of this run" in capsys.readouterr().err
    assert not (tmp_path / "o" / "p.redacted.png").exists()


def test_a_config_file_with_an_unknown_key_names_the_close_one(tmp_path, capsys):
    config = tmp_path / "run.toml"
    config.write_text('detectorz = ["rules"]\n[detector_options.presido]\nmin_score = 0.9\n')
    assert main(["redact", str(_page(tmp_path)), "--out", str(tmp_path / "o"), "--config", str(config)]) == 2
    assert "did you mean 'detectors'" in capsys.readouterr().err
    config.write_text('[detector_options.presido]\nmin_score = 0.9\n')
    assert main(["redact", str(_page(tmp_path)), "--out", str(tmp_path / "o"), "--config", str(config)]) == 2
    assert "did you mean 'presidio'" in capsys.readouterr().err
