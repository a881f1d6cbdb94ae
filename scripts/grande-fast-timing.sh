#!/bin/sh
# Wall and CPU seconds of grande-fast fits, one fit at a time (--workers 1),
# fold 0 of the GRANDE datasets, for issue 18's time targets (PhishingWebsites
# ≤ 15 s, adult ≤ 30 s, mean ≤ 10 s per fold on 2 cores). Run it on an
# otherwise idle machine:
#
#   scripts/grande-fast-timing.sh [DATASETS] [TRIALS]
#
# DATASETS: comma-separated (default: all 15; PhishingWebsites,adult for the
# two named targets alone, ≈ 1 min); TRIALS: folds per dataset (default 1:
# fold 0; 5 is the full protocol, ≈ 5× as long). Builds gdt from this
# checkout, writes the CSV to $OUT (default /tmp/grande-fast-timing.csv)
# and prints fit seconds (wall, CPU) and macro F1 per fold, then the means.
set -eu
datasets=${1:-}
trials=${2:-1}
out=${OUT:-/tmp/grande-fast-timing.csv}
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp /tmp/gdt-timing.XXXXXX)
trap 'rm -f "$bin"' EXIT
(cd "$top" && go build -o "$bin" ./cmd/gdt)
set -- bench grande --models grande-fast --workers 1 --trials "$trials" --quiet --out "$out"
if [ -n "$datasets" ]; then
	set -- "$@" --datasets "$datasets"
fi
(cd "$top" && "$bin" "$@" >/dev/null)
awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
	{sub("^grande/", "", $col["dataset"])
	 printf "%-28s fold %d  fit %7.2f s  (CPU %7.2f s)  macro F1 %.4f\n", $col["dataset"], $col["trial"], $col["fit_seconds"], $col["fit_cpu_seconds"], $col["f1_macro"]
	 n++; w += $col["fit_seconds"]; c += $col["fit_cpu_seconds"]; f += $col["f1_macro"]}
	END {printf "mean over %d fits: fit %.2f s (CPU %.2f s), macro F1 %.4f\n", n, w / n, c / n, f / n}' "$out"
