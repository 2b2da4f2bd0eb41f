# haifu: see README.md. Every target builds with the release profile so that tests, runs and
# benchmarks share one polars build.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/haifu-target
CARGO ?= cargo
HAIFU = $(CARGO_TARGET_DIR)/release/haifu
OUT ?= out
CORPUS ?= ../shared/corpus

.PHONY: build run test lint fmt bench clean

build:
	$(CARGO) build --release --locked

## The main job on the embedded fixtures: ingest, every report, the parameter file.
run: build
	$(HAIFU) run fixtures --room any --out $(OUT)/fixtures

## Unit tests, fixture tests and (when ../shared/corpus is present) corpus tests.
test:
	$(CARGO) test --release --locked

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --release --locked --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

clean:
	rm -rf $(OUT)
