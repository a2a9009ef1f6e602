# Two set-up commands for a fresh machine: `make demo` and `make test`. Each installs what it
# needs: Debian packages (as root, via apt-get, when missing) and the Python packages into
# .venv (re-installed whenever pyproject.toml changes). `make demo` installs only the core
# (the default pipeline: Tesseract, Presidio, spaCy's small model); `make test` and
# `make bench` add every extra the tests and benchmarks use.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
EXTRAS ?= test,cloud,gliner,peer,ray,rapidocr
HASH := $(shell cat pyproject.toml | sha1sum | cut -c1-12)
STAMP := $(VENV)/.installed-$(HASH)
CORE_STAMP := $(VENV)/.installed-core-$(HASH)
APT_PACKAGES := tesseract-ocr libtesseract5 tesseract-ocr-eng tesseract-ocr-osd poppler-utils \
	fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-freefont-ttf fonts-urw-base35
# Tesseract's OpenMP threads make it ~5x slower on small machines; parallelise over pages.
export OMP_THREAD_LIMIT := 1
# The default pipeline is offline: stop libraries from reaching for model hubs.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: demo test bench bench-data bench-scale real-data freeze-ocr install install-core sysdeps clean

sysdeps:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "missing Debian packages:$$missing (run: sudo apt-get install$$missing)"; exit 1; fi; \
	fi

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[$(EXTRAS)]'
	$(PY) -m pip install -q --no-deps presidio-image-redactor==0.0.62 rapidocr-onnxruntime==1.4.4
	@rm -f $(VENV)/.installed-*; touch $@ $(CORE_STAMP)

# The full install holds the core: only a venv without it installs the core alone.
$(CORE_STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	@rm -f $(VENV)/.installed-core-*; touch $@

install: sysdeps $(STAMP)

install-core: sysdeps $(CORE_STAMP)

demo: install-core
	$(VENV)/bin/redactor redact eval/data/sample/images/*.png --out out/ --overwrite
	@echo "redacted sample pages are in out/ (*.redacted.png, boxes in *.boxes.jsonl)"

test: install
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q

bench: install
	@for m in $$(ls eval/benchmarks/bench_*.py | sort); do \
	  mod=$$(basename $$m .py); echo "== $$mod"; $(PY) -m redactor_eval.benchmarks.$$mod || exit 1; done

bench-data: install
	test -f eval/data/challenge-500/pages.jsonl || \
	  $(VENV)/bin/redactor synth --out eval/data/challenge-500 --n 500 --seed 0 --workers 2

# The real dev set's images are rebuilt from local clones of their sources (not committed:
# FUNSD is for research use); see eval/data/real/PROVENANCE.md. The unseen FARA pages
# (eval/data/fara-unseen/README.md) are rebuilt with them.
real-data: install
	@test -n "$(FUNSD)" -a -n "$(VRDU)" || { echo "usage: make real-data FUNSD=<clone of Doc-LD/funsd-bench> VRDU=<clone of google-research-datasets/vrdu>"; exit 2; }
	$(PY) -m redactor_eval.realdata.materialize --funsd "$(FUNSD)" --vrdu "$(VRDU)"
	$(PY) -m redactor_eval.realdata.materialize --vrdu "$(VRDU)" --data eval/data/fara-unseen

bench-scale: install
	$(PY) -m redactor_eval.benchmarks.bench_scale

clean:
	rm -rf out build *.egg-info

# The quality pins' frozen Tesseract words (tests/quality): re-freeze after an OCR change,
# then re-pin the baseline. OCR_CACHE holds words already read (pages missing are read).
OCR_CACHE ?= $(HOME)/.cache/redactor/ocr
freeze-ocr: install
	$(PY) -m redactor_eval.realdata.freeze_ocr --pages eval/data/real/pages.jsonl --split dev \
	  --cache $(OCR_CACHE) --out eval/data/real/frozen-ocr.dev.jsonl.gz
	$(PY) -m redactor_eval.realdata.freeze_ocr --pages eval/data/challenge/pages.jsonl \
	  --cache $(OCR_CACHE) --out eval/data/challenge/frozen-ocr.jsonl.gz
