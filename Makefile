# outward: the README's commands. `make test` is what CI runs (.ci/run).
CARGO ?= cargo
DEV := ../shared/data/dev

PYENV := target/pyenv

.PHONY: run test lint bench eval build pyenv

build:
	$(CARGO) build --release

## Build release and run on the sample WARC in testdata/, writing out/.
run:
	$(CARGO) run --release --quiet -- run --force --output out testdata/sample.warc.gz

## Format check, lints, and every test (release build: the eval bar test runs real data).
## Tests that check outward against Python peers (warcio) use the venv below.
test: pyenv
	$(CARGO) fmt --all --check
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings
	OUTWARD_TEST_PYTHON=$(abspath $(PYENV))/bin/python $(CARGO) test --release --workspace

## A Python venv with the test peers of tests/requirements.txt (rebuilt when it changes).
pyenv: $(PYENV)/ready
$(PYENV)/ready: tests/requirements.txt
	python3 -m venv $(PYENV)
	$(PYENV)/bin/python -m pip install --quiet --disable-pip-version-check -r tests/requirements.txt
	touch $@

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

## Criterion benches (reader, extraction, whole pipeline).
bench:
	$(CARGO) bench --workspace

## Accuracy on all dev sets (needs ../shared): P/R/F1 per dataset and language.
eval:
	$(CARGO) run --release --quiet -- eval $(DEV)/*.warc.gz
