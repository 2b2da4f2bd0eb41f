# haifu: see README.md. Every target builds with the release profile so that tests, runs and
# benchmarks share one polars build.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/haifu-target
CARGO ?= cargo
HAIFU = $(CARGO_TARGET_DIR)/release/haifu
OUT ?= out
CORPUS ?= ../shared/corpus

PREFIX ?= $(HOME)/.cargo

.PHONY: build run test lint fmt bench clean install

build:
	$(CARGO) build --release --locked

## Puts `haifu` on the PATH: `cargo install` into $(PREFIX)/bin (~/.cargo/bin, which rustup puts
## on the PATH), from the same cached build.
install:
	$(CARGO) install --path . --locked --root $(PREFIX)

## The main job on the embedded fixtures: ingest, every report, the parameter file.
run: build
	$(HAIFU) run fixtures --room any --out $(OUT)/fixtures

## Unit, fixture and (when ../shared/corpus is present) corpus tests, then the notebooks
## executed on the fixtures, every report on DuckDB, then about a minute of fuzzing per fuzz
## target.
test:
	$(CARGO) test --release --locked
	$(MAKE) notebooks-check
	$(MAKE) duckdb-check
	$(MAKE) fuzz-smoke

## Every bundled report on DuckDB (the notebooks' environment pins it) over the fixtures' frames,
## three- and four-player, from `haifu query --print`: haifu's numbers (docs/scale.md); then over
## the same games appended in two steps (every frame in parts, read by one glob each).
.PHONY: duckdb-check spark-check
duckdb-check: build notebooks-venv
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && \
	  $(HAIFU) run fixtures fixtures-sanma --room any --all --out $$tmp/frames --quiet > /dev/null && \
	  $(NB_VENV)/bin/python tests/engines/check_engines.py $(HAIFU) $$tmp/frames && \
	  $(NB_VENV)/bin/python tests/engines/check_engines.py $(HAIFU) $$tmp/frames --players 3 && \
	  $(HAIFU) ingest fixtures --room any --all --append --out $$tmp/parts --quiet 2> /dev/null && \
	  $(HAIFU) ingest fixtures-sanma --room any --all --append --out $$tmp/parts --quiet 2> /dev/null && \
	  $(NB_VENV)/bin/python tests/engines/check_engines.py $(HAIFU) $$tmp/parts

## Every bundled report on Spark SQL (pyspark in local mode; Java 17) over the Phoenix corpus's
## frames. Its environment (tests/engines/requirements-spark.txt) lives in $(SPARK_VENV).
SPARK_VENV ?= $(HOME)/.cache/haifu-spark-venv
spark-check: build
	@cmp -s tests/engines/requirements-spark.txt $(SPARK_VENV)/haifu-requirements.txt 2>/dev/null || { \
	  $(NB_PYTHON) -m venv $(SPARK_VENV) && \
	  $(SPARK_VENV)/bin/python -m pip install --quiet --disable-pip-version-check \
	    -r tests/engines/requirements-spark.txt && \
	  cp tests/engines/requirements-spark.txt $(SPARK_VENV)/haifu-requirements.txt; }
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && \
	  $(HAIFU) run $(CORPUS)/phoenix --room any --all --out $$tmp/frames --quiet > /dev/null && \
	  PYSPARK_PYTHON=$(SPARK_VENV)/bin/python $(SPARK_VENV)/bin/python \
	    tests/engines/check_engines.py $(HAIFU) $$tmp/frames --engines spark

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --release --locked --all-targets --features mutants -- -D warnings

fmt:
	$(CARGO) fmt

## Decode floor against the full run, and memory at 8x input (BENCHMARKS.md). BASE=PATH also
## times the full run of another haifu binary (the one before a change) in the same run.
bench: build
	$(CARGO) build --release --locked --example max_ukeire_engine --example hand_reading_engine \
	  --example tsumogiri_bot
	BENCH_BASE=$(BASE) BENCH_ENGINE=$(dir $(HAIFU))examples/max_ukeire_engine \
	  BENCH_READER=$(dir $(HAIFU))examples/hand_reading_engine \
	  BENCH_BOT=$(dir $(HAIFU))examples/tsumogiri_bot \
	  python3 bench/bench.py $(HAIFU) $(CORPUS)/phoenix
	python3 bench/groups.py $(HAIFU) $(CORPUS)/phoenix $(CORPUS)/sanma

clean:
	rm -rf $(OUT)

## Fuzzing (fuzz/README.md): libFuzzer via cargo-fuzz on the stable toolchain, one target after
## another under nice; corpora and the fuzz build live in ~/.cache, crashes in fuzz/artifacts/.
FUZZ_SECONDS ?= 600
FUZZ_SMOKE_SECONDS ?= 60
FUZZ_TARGET_DIR ?= $(HOME)/.cache/haifu-fuzz-target
.PHONY: fuzz fuzz-smoke mutants

## FUZZ_SECONDS per target (decode, replay, mutate).
fuzz:
	HAIFU_FUZZ_TARGET=$(FUZZ_TARGET_DIR) fuzz/run.sh $(FUZZ_SECONDS)

## About a minute per target, after the seed round trip and the fuzz/regressions/ files.
fuzz-smoke:
	CARGO_TARGET_DIR=$(FUZZ_TARGET_DIR) $(CARGO) test --manifest-path fuzz/Cargo.toml --lib
	HAIFU_FUZZ_TARGET=$(FUZZ_TARGET_DIR) fuzz/run.sh $(FUZZ_SMOKE_SECONDS)

## Jupyter notebooks (notebooks/README.md). `make notebooks` runs haifu on fixtures/ (or on
## CORPUS when given: `make notebooks CORPUS=../shared/corpus/phoenix`) into $(NB_FRAMES) and
## executes every notebook there, writing notebooks/img/*.png and executed copies in
## $(OUT)/notebooks/. `make notebooks-check` does the same on fixtures/ into a temporary
## directory, leaving the committed PNGs alone. The venv lives outside the clone and is
## (re)installed only when notebooks/requirements.txt differs from what it was built from.
NB_VENV ?= $(HOME)/.cache/haifu-venv
NB_PYTHON ?= python3
NB_CORPUS_GIVEN := $(filter command line environment,$(origin CORPUS))
## The fixtures: the four-player games of fixtures/ and the three-player ones of fixtures-sanma/
## (§24), ingested together: frames that hold both tables, as the notebooks must read them.
NB_FIXTURES = fixtures $(wildcard fixtures-sanma)
NB_INPUT ?= $(if $(NB_CORPUS_GIVEN),$(CORPUS),$(NB_FIXTURES))
NB_ROOM ?= $(if $(NB_CORPUS_GIVEN),phoenix,any)
NB_FRAMES ?= $(OUT)/notebooks-frames

.PHONY: notebooks notebooks-check notebooks-venv

## The notebooks read the four-player games of $(NB_FRAMES) (with the fixtures it holds
## three-player games too). notebooks/agreement.ipynb reads their agreement: `haifu agree` does
## not restrict itself to one table yet (it scores every game's decisions whatever --players
## says), so the slice picks them.
NB_AGREE_FOUR = --players 4 --where "players = 4"

## notebooks/sanma.ipynb puts the three-player games beside the four-player ones: with CORPUS,
## those of NB_SANMA (default the three-player corpus beside it, ../shared/corpus/sanma for
## ../shared/corpus/phoenix), ingested into NB_SANMA_FRAMES; without CORPUS (or without that
## folder), the three-player games of $(NB_FRAMES) itself.
NB_SANMA ?= $(CORPUS)/../sanma
NB_SANMA_FRAMES ?= $(NB_FRAMES)-sanma
NB_SANMA_INPUT = $(if $(NB_CORPUS_GIVEN),$(wildcard $(NB_SANMA)))

notebooks-venv:
	@cmp -s notebooks/requirements.txt $(NB_VENV)/haifu-requirements.txt 2>/dev/null || { \
	  echo "installing notebooks/requirements.txt into $(NB_VENV)" && \
	  rm -f $(NB_VENV)/haifu-requirements.txt && \
	  $(NB_PYTHON) -m venv $(NB_VENV) && \
	  $(NB_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r notebooks/requirements.txt && \
	  cp notebooks/requirements.txt $(NB_VENV)/haifu-requirements.txt; }

## notebooks/compare.ipynb compares two corpora: with CORPUS, it against NB_COMPARE (default
## the other rooms, ingested with --room any); without, the fixtures' two folds.
NB_COMPARE ?= $(CORPUS)/../other
NB_FOLDS = --where-a "fold = 0" --where-b "fold = 1" --name A=fold-0 --name B=fold-1

## notebooks/engine_tables.ipynb reads haifu's §22 scores (`params validate --table`), with
## akochan's and mjai-manue's files when NB_ENGINES (default ../shared/engines, as the tests)
## holds them; without them the engines' models are left out and the notebook says so.
NB_ENGINES ?= ../shared/engines
NB_AKOCHAN = $(if $(wildcard $(NB_ENGINES)/akochan),--akochan $(NB_ENGINES)/akochan)
NB_MANUE = $(if $(wildcard $(NB_ENGINES)/mjai-manue/game_stats.json),--manue $(NB_ENGINES)/mjai-manue/game_stats.json)
nb_validate = $(HAIFU) params validate --table tenpai-rate --players 4 --frames $(1) $(NB_AKOCHAN) $(NB_MANUE) --format json \
	  > $(1)/reports/validate-tenpai-rate.json && \
	  $(HAIFU) params validate --table placement --players 4 --frames $(1) $(NB_AKOCHAN) --format json \
	  > $(1)/reports/validate-placement.json

notebooks: build notebooks-venv
	@mkdir -p $(OUT)
	$(HAIFU) run $(NB_INPUT) --room $(NB_ROOM) --out $(NB_FRAMES) --with decisions,development,danger-moments,hand-reading,tables --quiet > $(NB_FRAMES).txt
	$(HAIFU) agree --frames $(NB_FRAMES) $(NB_AGREE_FOUR) --format csv > $(NB_FRAMES)/reports/agreement.csv
	$(call nb_validate,$(NB_FRAMES))
	$(if $(NB_CORPUS_GIVEN),$(HAIFU) ingest $(NB_COMPARE) --room any --out $(NB_FRAMES)-b --quiet > /dev/null)
	$(HAIFU) compare riichi-response --frames $(abspath $(NB_FRAMES)) --format json \
	  $(if $(NB_CORPUS_GIVEN),--frames $(abspath $(NB_FRAMES))-b --name A=phoenix --name B=other-rooms,$(NB_FOLDS)) \
	  > $(NB_FRAMES)/reports/compare.json
	$(if $(NB_SANMA_INPUT),$(HAIFU) run $(NB_SANMA_INPUT) --room $(NB_ROOM) --out $(NB_SANMA_FRAMES) --quiet > $(NB_SANMA_FRAMES).txt,\
	  $(if $(NB_CORPUS_GIVEN),@echo "no three-player corpus at $(NB_SANMA): sanma.ipynb reads the three-player games of $(NB_FRAMES)"))
	HAIFU_FRAMES=$(abspath $(NB_FRAMES)) HAIFU_IMG=$(abspath notebooks/img) HAIFU_ENGINES=$(abspath $(NB_ENGINES)) \
	  HAIFU_SANMA_FRAMES=$(abspath $(if $(NB_SANMA_INPUT),$(NB_SANMA_FRAMES),$(NB_FRAMES))) \
	  $(NB_VENV)/bin/python notebooks/run.py --out $(OUT)/notebooks notebooks/*.ipynb

notebooks-check: build notebooks-venv
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  $(HAIFU) run $(NB_FIXTURES) --room any --out "$$tmp/frames" --with decisions,development,danger-moments,hand-reading,tables --quiet > "$$tmp/run.txt" && \
	  $(HAIFU) agree --frames "$$tmp/frames" $(NB_AGREE_FOUR) --format csv > "$$tmp/frames/reports/agreement.csv" && \
	  $(call nb_validate,"$$tmp/frames") && \
	  $(HAIFU) compare riichi-response --frames "$$tmp/frames" $(NB_FOLDS) --format json \
	    > "$$tmp/frames/reports/compare.json" && \
	  HAIFU_FRAMES="$$tmp/frames" HAIFU_SANMA_FRAMES="$$tmp/frames" HAIFU_IMG="$$tmp/img" \
	    HAIFU_ENGINES=$(abspath $(NB_ENGINES)) $(NB_VENV)/bin/python notebooks/run.py notebooks/*.ipynb

## Mutation testing (TESTING.md): cargo-mutants over the modules that decide numbers
## (.cargo/mutants.toml), with the unit, fixture and corpus tests. Its own target directory
## (the `mutants` profile builds polars once, about 16 minutes). FILES='src/stats/*.rs' limits
## it to some files, SHARD=k/n runs the k-th of n parts (the whole takes many hours on 2
## cores: TESTING.md), MUTANTS_ARGS='--re decompose' passes more options to cargo-mutants.
## Results in $(OUT)/mutants/mutants.out/ (caught.txt, missed.txt, ...).
MUTANTS_TARGET_DIR ?= $(HOME)/.cache/haifu-mutants-target
MUTANTS_FILES = src/rules.rs src/hand/*.rs src/score/*.rs src/replay/*.rs src/stats/*.rs src/danger/*.rs src/agree/*.rs \
  src/frames/*.rs src/wall/*.rs src/compare/*.rs src/formats/*.rs src/formats/*/*.rs
FILES ?= $(MUTANTS_FILES)
mutants:
	@command -v cargo-mutants >/dev/null || $(CARGO) install cargo-mutants --version 27.1.0 --locked
	@mkdir -p $(OUT)/mutants
	@# tests/agree.rs and tests/hand_reading.rs run the example engines from the binary's
	@# directory; a mutant's build names only the unit tests and tests/mutants.rs, so the
	@# examples are built here, once.
	CARGO_TARGET_DIR=$(MUTANTS_TARGET_DIR) $(CARGO) build --profile mutants --locked \
	  --features mutants --example max_ukeire_engine --example hand_reading_engine \
	  --example every_decision_engine --example tsumogiri_bot
	HAIFU_CORPUS=$(abspath $(CORPUS)) CARGO_TARGET_DIR=$(MUTANTS_TARGET_DIR) \
	  $(CARGO) mutants --no-shuffle -o $(OUT)/mutants \
	  $(foreach f,$(FILES),-f '$(f)') $(if $(SHARD),--shard $(SHARD)) $(MUTANTS_ARGS)
