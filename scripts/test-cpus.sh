#!/usr/bin/env bash
# The kernels on CPUs other than this machine's: strata picks its numeric
# kernels by CPU (gemm: AVX-512, AVX2+FMA or pure Go; the vector loops:
# AVX2 or Go), and a kernel that uses an instruction its CPU check did not
# cover dies with SIGILL only on the CPUs that lack it. This runs the
# kernel packages' tests and a small end-to-end training
#   1. under qemu-user's "-cpu max" (AVX2 and FMA, no AVX-512: what an AMD
#      EPYC before Zen 4 or an Intel client CPU since Alder Lake runs), and
#   2. natively with STRATA_GEMM=go (the pure-Go GEMM that CPUs without
#      AVX2 run), and
#   3. the kernel packages' tests built for arm64 under qemu-aarch64: the
#      pure-Go code every non-x86 machine runs.
# Needs qemu-x86_64 and qemu-aarch64 (Debian: apt-get install qemu-user) on
# x86-64 Linux.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
QEMU=${QEMU:-qemu-x86_64}
pkgs=(./internal/gemm ./internal/vec ./data/index ./models)
if [ "$(uname -m)" != x86_64 ]; then
	echo "test-cpus: not an x86-64 machine; nothing to emulate" >&2
	exit 0
fi
for q in "$QEMU" qemu-aarch64; do
	command -v "$q" >/dev/null || { echo "test-cpus: $q not found (apt-get install qemu-user)" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$GO build -o "$tmp/strata" ./cmd/strata

# The emulated CPU must really lack AVX-512, or the AVX2 kernel goes untested.
ver=$("$QEMU" -cpu max "$tmp/strata" version)
echo "$ver" | sed 's/^/qemu -cpu max: /'
echo "$ver" | grep -q 'gemm avx2,' || { echo "test-cpus: under $QEMU -cpu max strata does not choose the AVX2 GEMM" >&2; exit 1; }

# e2e RUNNER DIR: generate, import, mine plans, train CoR (and the encoder
# it needs) and the planner, and score with the planner's run; every step
# must succeed.
e2e() {
	local runner=$1 dir=$2
	$runner "$tmp/strata" gen --preset prime --nodes 600 --queries 60 --seed 3 --out "$dir/skb" >/dev/null
	rm -f "$dir/skb/plans.jsonl"
	$runner "$tmp/strata" import --in "$dir/skb" --out "$dir/ws" >/dev/null
	$runner "$tmp/strata" mine-plans "$dir/ws" >/dev/null
	$runner "$tmp/strata" train cor "$dir/ws" --epochs 1 --batch 32 | tail -1
	$runner "$tmp/strata" train planner "$dir/ws" --epochs 2 | tail -1
	$runner "$tmp/strata" score "$dir/ws" --pipeline "$dir/ws/runs/planner" --queries "$dir/skb/stark_qa/stark_qa.csv" --out "$dir/run.jsonl" -k 10
}

echo "== kernel tests under $QEMU -cpu max (AVX2+FMA, no AVX-512)"
$GO test -count=1 -exec "$QEMU -cpu max" "${pkgs[@]}"
echo "== end-to-end training under $QEMU -cpu max"
e2e "$QEMU -cpu max" "$tmp/qemu"
echo "== end-to-end training natively ($("$tmp/strata" version | tail -1))"
e2e "" "$tmp/native"
# The AVX-512 and AVX2 GEMM kernels agree bit for bit: the emulated AVX2
# run trains the same CoR model and serves the same rankings as this
# machine's kernel.
cmp "$tmp/qemu/ws/runs/cor/best/model.safetensors" "$tmp/native/ws/runs/cor/best/model.safetensors"
cmp "$tmp/qemu/run.jsonl" "$tmp/native/run.jsonl"
echo "== kernel tests with STRATA_GEMM=go"
STRATA_GEMM=go $GO test -count=1 "${pkgs[@]}"
echo "== end-to-end training with STRATA_GEMM=go"
STRATA_GEMM=go "$tmp/strata" version | tail -1
STRATA_GEMM=go e2e "" "$tmp/go"
echo "== kernel tests on arm64 (qemu-aarch64): the pure-Go kernels"
GOARCH=arm64 CGO_ENABLED=0 $GO test -count=1 -exec qemu-aarch64 "${pkgs[@]}"
echo "test-cpus: ok"
