# outward: the README's commands. `make test` is what CI runs (.ci/run).
CARGO ?= cargo
DEV := ../shared/data/dev

PYENV := target/pyenv
PIP_QUIET := --quiet --disable-pip-version-check

.PHONY: run test check lint bench profile eval build test-build pyenv python-test filters-tables fuzz fuzz-smoke fuzz-build stress soak soak-long browser-test

build:
	$(CARGO) build --release

## Build release and run on the sample WARC in testdata/, writing out/.
run:
	$(CARGO) run --release --quiet -- run --force --output out testdata/sample.warc.gz

## Tests build the release profile without its thin LTO: the same code and outputs, half the
## cold build (test binaries: 4m35s against 9m14s on the 2-core VM). `build`, `run`, `bench`
## and `profile` run on their own keep it, so measured speeds are the shipped binary's.
check test test-build python-test stress soak browser-test: export CARGO_PROFILE_RELEASE_LTO = off

## What CI runs: `make check`, the Python package's tests (python-test), a short run of every
## fuzz target (fuzz-smoke), the stress table (about a minute), then the report page in a
## real browser (browser-test). The Python tests and the fuzz smoke run side by side: the
## fuzz build is a workspace of its own (fuzz/target) and keeps the cores busy while pip
## waits on downloads and pytest on Spark and Ray (run one after the other on the 2-core VM
## they took 650 s and 730 s); each one's output is printed whole when it ends (-Orecurse).
test: check
	$(MAKE) -j2 -Orecurse python-test fuzz-smoke
	$(MAKE) stress
	$(MAKE) browser-test

## Format check, lints and every Rust test (release build: the eval bars run real data).
## Tests that check outward against Python peers (warcio, moto) use the venv below. The
## tests on the dev data of ../shared skip when it is absent, unless OUTWARD_REQUIRE_DEV=1
## (CI sets it), where they fail.
check: pyenv
	$(CARGO) fmt --all --check
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings
	OUTWARD_TEST_PYTHON=$(abspath $(PYENV))/bin/python $(CARGO) test --release --workspace

## A Python venv with the test peers of tests/requirements.txt (rebuilt when it changes).
pyenv: $(PYENV)/ready
$(PYENV)/ready: tests/requirements.txt
	python3 -m venv $(PYENV)
	$(PYENV)/bin/python -m pip install $(PIP_QUIET) -r tests/requirements.txt
	touch $@

## The Python package's tests (python/tests, pytest; they compare with the CLI's output), in a
## fresh venv where the package is installed as the README says (`pip install
## "./python[datatrove]"`: maturin comes from PyPI, the build shares target/ with cargo), so
## the recipe's list of packages is tested too. Spark and Ray are installed when pip can (the
## leading `-`); their tests skip without them.
## Dolma's toolkit has a venv of its own (its pins clash with DataTrove's), wheels only.
## The CLI the tests compare with is built as `make check`'s tests build it (test-build): the
## same features (dev-dependencies such as criterion widen serde's and others'), so after
## `make check` nothing is compiled again (`cargo build --release` recompiled 70 s of crates).
PYPKG_ENV := target/pyvenv
DOLMA_ENV := target/dolmavenv
test-build:
	$(CARGO) test --release --workspace --no-run

python-test: test-build
	rm -rf $(PYPKG_ENV) $(DOLMA_ENV)
	python3 -m venv $(PYPKG_ENV)
	$(PYPKG_ENV)/bin/python -m pip install $(PIP_QUIET) "./python[datatrove,test]"
	$(PYPKG_ENV)/bin/python -m pip install $(PIP_QUIET) -r python/tests/requirements-filters.txt -r python/tests/requirements-parquet.txt
	-$(PYPKG_ENV)/bin/python -m pip install $(PIP_QUIET) -r python/tests/requirements-engines.txt
	python3 -m venv $(DOLMA_ENV)
	$(DOLMA_ENV)/bin/python -m pip install $(PIP_QUIET) --only-binary :all: -r python/tests/requirements-dolma.txt
	OUTWARD_DOLMA=$(abspath $(DOLMA_ENV))/bin/dolma $(PYPKG_ENV)/bin/python -m pytest -q python/tests

## Regenerate crates/outward-filters/src/words/tables.rs from spaCy and DataTrove (in the
## venv `make python-test` builds; the output is committed, so builds never need them).
filters-tables:
	cd crates/outward-filters && ../../$(PYPKG_ENV)/bin/python gen/spacy_en.py src/words/tables.rs

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

## Criterion benches (reader, extraction, whole pipeline).
bench:
	$(CARGO) bench --workspace

## Instruction counts (valgrind callgrind) of extraction alone, per function, on a fixed page
## set: repeatable on a shared machine where seconds are not. PROFILE_WARC, PROFILE_METHOD.
PROFILE_WARC ?= $(DEV)/dragnet.warc.gz
PROFILE_METHOD ?= reverse
profile: build
	python3 benches/profile.py --method $(PROFILE_METHOD) $(PROFILE_WARC)

## Accuracy on all dev sets (needs ../shared): P/R/F1 per dataset and language.
eval:
	$(CARGO) run --release --quiet -- eval $(DEV)/*.warc.gz

## Fuzzing (fuzz/, its own workspace; see fuzz/README.md): every target for FUZZ_SECONDS each,
## one at a time. cargo-fuzz is installed into target/tools on first use; the targets build
## with the nightly toolchain (FUZZ_TOOLCHAIN). Seeds are made from testdata/ and
## ../shared/samples (when present) into fuzz/gen-seeds; corpora grow in fuzz/corpus.
## A crash or failed property fails the target (its input is kept in fuzz/artifacts/).
FUZZ_SECONDS ?= 60
FUZZ_TOOLCHAIN ?= nightly
CARGO_FUZZ_VERSION := 0.13.2
FUZZ_TOOLS := $(abspath target/tools)

$(FUZZ_TOOLS)/bin/cargo-fuzz:
	$(CARGO) install cargo-fuzz --version $(CARGO_FUZZ_VERSION) --locked --root $(FUZZ_TOOLS)

fuzz-build: $(FUZZ_TOOLS)/bin/cargo-fuzz
	cd fuzz && PATH=$(FUZZ_TOOLS)/bin:$$PATH $(CARGO) +$(FUZZ_TOOLCHAIN) fuzz build -a

fuzz: fuzz-build
	python3 fuzz/make_seeds.py
	PATH=$(FUZZ_TOOLS)/bin:$$PATH FUZZ_TOOLCHAIN=$(FUZZ_TOOLCHAIN) FUZZ_SEED=$(FUZZ_SEED) fuzz/run.sh $(FUZZ_SECONDS)

## About 10 s of every fuzz target (part of `make test`), from a fixed libFuzzer seed so that a
## finding in CI replays on any machine (`make fuzz` explores with random seeds).
fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECONDS=10 FUZZ_SEED=1

## Hostile inputs at two sizes each (tests/cli/stress.rs; minutes, gigabytes of generated input):
## exit codes, nothing lost, peak RSS under 1 GiB, and the table of times. STRESS_ONLY=name picks cases.
stress:
	$(CARGO) test --release --workspace --test cli stress:: -- --ignored --nocapture

## The nightly flow under fire (tests/cli/soak.rs): 200 SIGKILLs, 30 SIGTERMs, 24 runs two at
## once, 24 full disks under shards and 10 under a store (a tmpfs: root), 40 killed store
## builds and merges, 40 killed nightly `--sites-update` runs, over 44 inputs of mixed
## formats and 13 over HTTP and S3 (moto, behind a proxy that answers 503, cuts connections
## and stalls; an object replaced mid-read), each night in Dolma, Parquet or WET; the
## directory and the store must converge to one clean run's bytes. About 15 minutes (moto
## answers in Python; without it, about 7).
## SOAK_SEED=N replays a seed. `make check` runs the short form (half a minute).
soak: pyenv
	OUTWARD_TEST_PYTHON=$(abspath $(PYENV))/bin/python $(CARGO) test --release --workspace --test cli soak::soak_full -- --ignored --nocapture

## The long run of #42: one `run --threads 2` over 10 GB of WARC (the dev sets repeated with
## rewritten record ids): peak RSS and MB/s at every tenth of the input, and the documents
## checked against one run over the dev sets, copy by copy. About 3 minutes; needs ../shared.
soak-long: build pyenv
	$(PYENV)/bin/python benches/soak_long.py --gb 10

## `outward report`'s page opened by a headless Chromium: no console error, no request leaving
## the file, a screenshot of the drawn page. Installs Debian's chromium first when it is
## missing (apt-get: root, or sudo without a password). `make check` runs the same test and
## skips it where no chromium is found; here it must run. `--workspace`, as `make check` builds the
## tests: the same features, so nothing is compiled again.
browser-test:
	command -v chromium >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo -n ); \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium; }
	OUTWARD_REQUIRE_BROWSER=1 $(CARGO) test --release --workspace --test cli report_page::the_page_opens_in_a_browser
