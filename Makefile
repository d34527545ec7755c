# outward: the README's commands. `make test` is what CI runs (.ci/run).
CARGO ?= cargo
DEV := ../shared/data/dev

.PHONY: run test lint bench eval build

build:
	$(CARGO) build --release

## Build release and run on the sample WARC in testdata/, writing out/.
run:
	$(CARGO) run --release --quiet -- run --force --output out testdata/sample.warc.gz

## Format check, lints, and every test (release build: the eval bar test runs real data).
test:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings
	$(CARGO) test --release --workspace

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

## Criterion benches (reader, extraction, whole pipeline).
bench:
	$(CARGO) bench --workspace

## Accuracy on all dev sets (needs ../shared): P/R/F1 per dataset and language.
eval:
	$(CARGO) run --release --quiet -- eval $(DEV)/*.warc.gz
