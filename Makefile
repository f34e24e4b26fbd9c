# Everything a newcomer runs. `make test` works on a fresh machine: it creates
# .venv with the Python build and test tools (maturin, pytest, torch, numpy).

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
DEPS := $(VENV)/.deps-installed

.PHONY: test test-rust test-python lint browser samples install clean

test: lint test-rust test-python

$(DEPS): requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(DEPS)

lint:
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings

test-rust: browser
	cargo test

# The report's browser test (tests/report_browser.rs) opens the page in
# headless Chromium; install Debian's package when no browser is there.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
	  || [ -n "$$GUARDSCOPE_CHROMIUM" ] || { \
	    echo "installing chromium (apt) for the report's browser test"; \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO apt-get install -y -qq chromium >/dev/null \
	      || { $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }; }

# Builds the wheel exactly as `pip install .` does and tests the installed package.
install: $(DEPS)
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(PY) -m pip install --quiet --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps .

test-python: install
	$(PY) -m pytest -q tests/python

# Regenerates samples/traces/ from samples/scripts/ with real torch.
samples: install
	$(PY) samples/generate.py
	$(PY) samples/steps/generate.py

clean:
	cargo clean
	rm -rf $(VENV) guardscope-report
