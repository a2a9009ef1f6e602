"""The default pipeline opens no network connection: run it in a fresh interpreter whose
sockets refuse to connect (and record every attempt), from import to written output."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

GUARD = textwrap.dedent("""
    import os, socket
    _log = os.environ["REDACTOR_NET_LOG"]
    def _refuse(self, address, *a, **k):
        with open(_log, "a") as fh:
            fh.write(repr(address) + "\\n")
        raise OSError("network blocked by test")
    socket.socket.connect = _refuse
    socket.socket.connect_ex = _refuse
    _orig_getaddrinfo = socket.getaddrinfo
    def _no_dns(host, *a, **k):
        if host not in ("localhost", "127.0.0.1", "::1", None):
            with open(_log, "a") as fh:
                fh.write("dns " + repr(host) + "\\n")
            raise socket.gaierror("dns blocked by test")
        return _orig_getaddrinfo(host, *a, **k)
    socket.getaddrinfo = _no_dns
""")


def test_default_pipeline_tries_no_connection(tmp_path):
    guard_dir = tmp_path / "guard"
    guard_dir.mkdir()
    (guard_dir / "sitecustomize.py").write_text(GUARD)
    page = tmp_path / "p.png"
    img = Image.new("RGB", (1100, 300), "white")
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 30)
    ImageDraw.Draw(img).text((40, 40), "Mail maria.lopez@example.org or see https://example.org/x",
                             font=font, fill="black")
    img.save(page)
    log = tmp_path / "net.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_"))}
    env.update(PYTHONPATH=str(guard_dir), REDACTOR_NET_LOG=str(log))
    proc = subprocess.run([sys.executable, "-m", "redactor", "redact", str(page), "--out",
                           str(tmp_path / "out")], env=env, capture_output=True, text=True,
                          timeout=600, cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "p.redacted.png").exists()
    assert '"EMAIL"' in (tmp_path / "out" / "p.boxes.jsonl").read_text()
    attempts = log.read_text() if log.exists() else ""
    assert attempts == "", f"connections attempted:\n{attempts}"


def test_the_guard_itself_sees_connection_attempts(tmp_path):
    # Control: without this, a guard that never fires would make the test above pass.
    guard_dir = tmp_path / "guard"
    guard_dir.mkdir()
    (guard_dir / "sitecustomize.py").write_text(GUARD)
    log = tmp_path / "net.log"
    env = dict(os.environ, PYTHONPATH=str(guard_dir), REDACTOR_NET_LOG=str(log))
    code = ("import socket\ntry:\n    socket.create_connection(('192.0.2.1', 80), timeout=1)\n"
            "except OSError:\n    pass\n")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60)
    assert "192.0.2.1" in log.read_text()
