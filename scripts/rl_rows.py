"""Reading `gdt rl bench` CSV files: shared by the rl-*.py scripts beside
it (they import it as a module)."""
import csv, math


def num(s):
    """The float in s, or NaN for an empty or missing field."""
    try:
        return float(s)
    except (TypeError, ValueError):
        return math.nan


def sympol_rows(path):
    """The rows of SYMPOL trainings under the default variant that finished
    without an error."""
    for r in csv.DictReader(open(path)):
        if r["method"] != "sympol" or r.get("variant") or r.get("error"):
            continue
        yield r


def latest_rows(paths):
    """sympol_rows over several files, where a later file's row replaces an
    earlier file's for the same environment and seed (a rerun of some
    environments after their preset changed), in first-seen order."""
    rows = {}
    for path in paths:
        for r in sympol_rows(path):
            rows[(r["env"], r["seed"])] = r
    return list(rows.values())


def curve_points(r):
    """A row's curve: per evaluation, its numbers (as strings) in the order
    `gdt rl bench` writes them (step, train, trained, applied, selection,
    test, sd; older files have fewer)."""
    return [p.split() for p in r["curve"].split(";") if p]


def delivered(r):
    """The delivered policy's test return of a row (files from before the
    delivered policy hold only test_return)."""
    b = num(r.get("best_test_return"))
    return b if not math.isnan(b) else num(r["test_return"])
