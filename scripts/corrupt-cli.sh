#!/usr/bin/env bash
# The corrupted-model corpus through the command line (issue 20): damaged
# model files of every kind (cart, random-forest, gradtree, grande,
# grande-fast, mlp, multimodal; classification and regression) go through
# the built `gdt show`, `gdt predict`, `gdt serve` (started on the file) and
# a `gdt serve --poll` reload to the file, each under `ulimit -v 4000000`;
# the test counts panics, fatal errors, deaths by a signal, hangs and wrong
# successes and fails on any. Damaged rl checkpoints (SYMPOL on CartPole
# and Pendulum, the MLP actor on CartPole) go through `gdt rl show`,
# `gdt rl eval` and `gdt export` the same way (TestCorruptCheckpointsCLI).
#   scripts/corrupt-cli.sh [FILES_PER_MODEL]   (default 30: 300 model files, 90 checkpoints)
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-30}"
bin="$(mktemp -d)/gdt"
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/gdt
GDT_BIN="$bin" GDT_CORRUPT_CLI="$n" go test -count=1 -timeout 2h -run '^TestCorrupt(Models|Checkpoints)CLI$' -v ./cmd/gdt
