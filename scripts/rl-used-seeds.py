#!/usr/bin/env python3
"""Which training seeds the recorded studies have used: every seed column
of results/*.csv (gdt rl bench rows), so a new study can start on seeds
no one has looked at.

Usage: scripts/rl-used-seeds.py [--check FIRST[,N]] [FILES...]
  no --check: prints the number of seeds used, the highest, and the
  highest first seed of a 10-seed run (S, S+100, …) per thousand above
  100000; --check FIRST[,N]: whether any of FIRST, FIRST+100, …
  (N seeds, default 10) appears, listing the files; exits 1 if one does.
"""
import argparse, csv, glob, sys
from collections import defaultdict


def used(files):
    seen = defaultdict(set)
    for f in files:
        try:
            rows = csv.DictReader(open(f))
            for r in rows:
                s = (r.get("seed") or "").strip()
                if s.isdigit():
                    seen[int(s)].add(f)
        except (OSError, csv.Error, UnicodeDecodeError):
            continue
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", default="")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    seen = used(a.files or sorted(glob.glob("results/*.csv")))
    if a.check:
        first, _, n = a.check.partition(",")
        want = [int(first) + 100 * i for i in range(int(n or 10))]
        hit = [s for s in want if s in seen]
        for s in hit:
            print(f"{s}: {', '.join(sorted(seen[s]))}")
        print(f"{len(hit)} of {len(want)} seeds from {first} already used")
        sys.exit(1 if hit else 0)
    print(f"{len(seen)} seeds used; highest {max(seen)}")
    blocks = sorted({s // 1000 for s in seen if s >= 100000})
    print("thousands above 100000 with a used seed:", " ".join(f"{b}xxx" for b in blocks))


if __name__ == "__main__":
    main()
