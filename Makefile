# Everything a newcomer runs. `make test` works on a fresh machine: it creates
# .venv with the Python build and test tools (maturin, pytest, torch, numpy,
# transformers for the third-party tests) and .venv-oldest with the oldest
# supported torch, on which the hook tests run again; last it builds the
# release wheel and installs it into a fresh venv (test-wheel).

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
DEPS := $(VENV)/.deps-installed
# torch from PyPI brings ~4 GB of CUDA wheels per venv; pip's cache would keep
# a second copy of each download, which has filled a CI machine's disk.
PIP_INSTALL = -m pip install --quiet --disable-pip-version-check --no-cache-dir

# The oldest torch the hooks are tested on (seen in use; Dynamo there cannot
# trace some of what newer torch can); python/guardscope/_torch_range.py
# refuses older ones.
OLDEST_TORCH := 2.11.0
OLDEST_VENV := .venv-oldest
OLDEST_PY := $(OLDEST_VENV)/bin/python
OLDEST_DEPS := $(OLDEST_VENV)/.deps-installed
# The hook tests that must pass on every supported torch.
HOOK_TESTS := tests/python/test_activation_trace.py tests/python/test_compiled_records.py \
	tests/python/test_hooks_third_party.py tests/python/test_hooks_hard_cases.py \
	tests/python/test_hooks_cost.py tests/python/test_torch_range.py

# Each stage's recipe starts and ends with $(STAGE), which times it; `make
# test` prints the table at the end, also when a stage fails.
STAGE := tests/stages.sh

# Cases of each fuzzing proptest (tests/fuzz_parser.rs, fuzz_records.rs) in
# `make test`; `make test-long` runs them at their full count (256).
FUZZ_CASES := 64

# `pip install .` (install) and `make wheel` give maturin the same build
# flags, so cargo builds the release extension once and the second only
# packages it: with the zig linker the wheel builds for an explicit target,
# into target/x86_64-unknown-linux-gnu, and a plain `pip install .` built
# every crate a second time into target/release.
WHEEL_FLAGS := --strip --compatibility manylinux2014 --zig

.PHONY: test test-stages test-long test-rust test-python test-python-oldest test-wheel wheel lint browser groff samples install clean

test:
	@$(STAGE) reset
	@status=0; $(MAKE) --no-print-directory test-stages || status=$$?; $(STAGE) table; exit $$status

test-stages: lint test-rust test-python test-python-oldest test-wheel

$(DEPS): requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) $(PIP_INSTALL) -r requirements-dev.txt
	touch $(DEPS)

lint:
	@$(STAGE) start $@
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	@$(STAGE) end $@

# The `guardscope run` tests (tests/run_command.rs) start .venv/bin/python with torch.
test-rust: browser groff $(DEPS)
	@$(STAGE) start $@
	GUARDSCOPE_FUZZ_CASES=$(FUZZ_CASES) cargo test
	@$(STAGE) end $@

# The fuzzing proptests at their full case count, which `make test` cuts
# to $(FUZZ_CASES) for time; CI does not run this. Run it after changing the
# parser, the readers or the step-record reader (longer:
# PROPTEST_CASES=200000 cargo test --release --test fuzz_parser).
test-long:
	cargo test --test fuzz_parser --test fuzz_records

# The report's browser test (tests/report_browser.rs) opens the page in
# headless Chromium; install Debian's package when no browser is there.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
	  || [ -n "$$GUARDSCOPE_CHROMIUM" ] || { \
	    echo "installing chromium (apt) for the report's browser test"; \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO apt-get install -y -qq chromium >/dev/null \
	      || { $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }; }

# The man-page test (tests/completions_man.rs) renders the pages with groff.
groff:
	@command -v groff >/dev/null 2>&1 || { \
	    echo "installing groff-base (apt) for the man-page test"; \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO apt-get install -y -qq groff-base >/dev/null \
	      || { $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq groff-base >/dev/null; }; }

# Builds the wheel as `pip install .` does (maturin's PEP 517 backend; the
# build flags of `make wheel` added) and tests the installed package.
install: $(DEPS)
	@$(STAGE) start $@
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" MATURIN_PEP517_ARGS="$(WHEEL_FLAGS)" \
	  $(PY) $(PIP_INSTALL) --no-build-isolation --force-reinstall --no-deps .
	@$(STAGE) end $@

# test_rehearse.py runs in a pytest process of its own: a rehearsal forks,
# and torch's autograd cannot run in a child forked after the parent ran a
# backward (which other test files do); docs/rehearse.md says so to users.
# The callbacks' rehearse=True forks too, but its plans run forwards only,
# so the integration tests that use it stay in the main process (their
# Lightning test rehearses after a fit in the same process has trained).
test-python: install
	@$(STAGE) start $@
	$(PY) -m pytest -q tests/python --ignore=tests/python/test_rehearse.py
	$(PY) -m pytest -q tests/python/test_rehearse.py
	@$(STAGE) end $@

$(OLDEST_DEPS): Makefile
	test -x $(OLDEST_PY) || $(PYTHON) -m venv $(OLDEST_VENV)
	$(OLDEST_PY) $(PIP_INSTALL) pytest numpy transformers accelerate tensorboard lightning torch==$(OLDEST_TORCH)
	touch $(OLDEST_DEPS)

# The hook tests again on the oldest torch, with the package just built for
# .venv (pure Python plus an abi3 extension) put on the path alone, so that
# the oldest venv's own torch is the one imported.
# Then the callbacks' rehearse=True tests (5, about 2 min on 2 cores): the
# Trainer's (it needs accelerate, and its test reports to tensorboard) and
# Lightning's, which $(OLDEST_DEPS) installs; a venv made before they were
# added gets them (the stamp depends on this Makefile); one that still does
# not import them fails the stage, naming the file it could not run.
OLDEST_REHEARSE := accelerate,tensorboard:tests/python/test_integration_transformers.py lightning:tests/python/test_integration_lightning.py
test-python-oldest: install $(OLDEST_DEPS)
	@$(STAGE) start $@
	mkdir -p target/oldest-path
	ln -sfn "$$($(PY) -c 'import guardscope, os; print(os.path.dirname(guardscope.__file__))')" target/oldest-path/guardscope
	PYTHONPATH=$(CURDIR)/target/oldest-path $(OLDEST_PY) -m pytest -q -p no:cacheprovider $(HOOK_TESTS)
	@files=; for pair in $(OLDEST_REHEARSE); do \
	  if $(OLDEST_PY) -c "import $${pair%%:*}" 2>/dev/null; then files="$$files $${pair#*:}"; \
	  else echo "cannot run $${pair#*:}'s rehearse tests on torch $(OLDEST_TORCH): $${pair%%:*} does not import in $(OLDEST_VENV)"; exit 1; fi; \
	done; \
	if [ -n "$$files" ]; then \
	  echo "PYTHONPATH=$(CURDIR)/target/oldest-path $(OLDEST_PY) -m pytest -q -p no:cacheprovider$$files -k 'rehearse or on_problem'"; \
	  PYTHONPATH=$(CURDIR)/target/oldest-path $(OLDEST_PY) -m pytest -q -p no:cacheprovider $$files -k 'rehearse or on_problem'; \
	fi
	@$(STAGE) end $@

# The wheel a user installs, in dist/: a release build with the extension
# stripped, abi3 (one wheel for every CPython >= 3.9), linked with zig (the
# ziglang package, no docker) against glibc 2.17 so pip accepts it on any
# manylinux2014 Linux; auditwheel confirms that tag from what it links to.
wheel: $(DEPS)
	@$(STAGE) start $@
	rm -rf dist
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(PY) -m maturin build --quiet --release $(WHEEL_FLAGS) \
	  --interpreter $(CURDIR)/$(PY) --out dist
	@show="$$($(PY) -m auditwheel show dist/guardscope-*.whl)"; echo "$$show"; \
	  echo "$$show" | tr -s ' \n' ' ' | grep -q 'consistent with the following platform tag: "manylinux_2_17_' \
	  || { echo "auditwheel: the wheel is not manylinux2014"; exit 1; }
	@$(STAGE) end $@

# Installs that wheel into a fresh venv with plain pip (no Rust on PATH) and
# runs the CLI and `import guardscope` from outside the checkout.
test-wheel: wheel
	@$(STAGE) start $@
	tests/wheel/install_check.sh $(PYTHON)
	@$(STAGE) end $@

# Regenerates samples/traces/ from samples/scripts/ with real torch.
samples: install
	$(PY) samples/generate.py
	$(PY) samples/steps/generate.py

clean:
	cargo clean
	rm -rf $(VENV) $(OLDEST_VENV) guardscope-report
