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


def first_rows(paths, env, keep=lambda r: True):
    """sympol_rows of one environment over several files, by seed, where
    the first file listing a seed wins (a baseline's files in priority
    order); keep filters the rows."""
    rows = {}
    for path in paths:
        for r in sympol_rows(path):
            if r["env"] == env and keep(r):
                rows.setdefault(int(r["seed"]), r)
    return rows


def curve_points(r):
    """A row's curve: per evaluation, its numbers (as strings) in the order
    `gdt rl bench` writes them (step, train, trained, applied, selection,
    test, sd, nodes: the evaluated tree's pruned size; older files have
    fewer)."""
    return [p.split() for p in r["curve"].split(";") if p]


def delivered_index(pts):
    """Index of the evaluation a training delivers under today's rule
    (rl/ppo trackBest, since session 15): the last one whose selection
    (the curve's fifth number) is at least every earlier one's."""
    b = 0
    for i, p in enumerate(pts):
        if num(p[4]) >= num(pts[b][4]):
            b = i
    return b


def restart_check(pts, after, margin, best_train=None, total=1_000_000, below=0):
    """Replays rl/ppo's restart rule (Trainer.restartDue, learned) on a
    training's first attempt, from its curve (curve_points): at the first
    evaluation at least after·total steps in, the training has learned if
    its best validation so far rose above the first by more than margin
    times the gain shown possible, from the first validation to the best
    of any validation or training return. The validation is the curve's
    fifth number (the val_episodes mean) where present, else its third.
    best_train is the best training episode's return where known; None
    uses the best recent-training mean on the curve up to the check, an
    underestimate (so the scale, too, is at least as large in the real
    rule). below, where not 0, is restart_below: a best validation under
    it has not learned either. As in rl/ppo (Trainer.mayRestart), a check
    with fewer than after·total steps left cannot restart: past half the
    budget no rule fires. Returns None when the curve ends before the
    check, else (step, fires, gain, possible)."""
    if not pts:
        return None

    def val(p):
        x = num(p[4]) if len(p) > 4 else math.nan
        return num(p[2]) if math.isnan(x) else x

    first = best = val(pts[0])
    train = -math.inf if best_train is None else best_train
    for p in pts:
        best = max(best, val(p))
        if best_train is None and not math.isnan(num(p[1])):
            train = max(train, num(p[1]))
        if int(p[0]) >= after * total:
            possible = max(best, train) - first
            low = below != 0 and best < below
            room = total - int(p[0]) >= math.ceil(after * total)
            return int(p[0]), room and (low or not best - first > margin * possible), best - first, possible
    return None


def delivered(r):
    """The delivered policy's test return of a row (files from before the
    delivered policy hold only test_return)."""
    b = num(r.get("best_test_return"))
    return b if not math.isnan(b) else num(r["test_return"])


def attempts(pts, gap, restarts):
    """The curve split into its 1 + restarts attempts: lists of (step,
    selection, test). The first restarts points that follow the previous
    one within gap steps start the attempts after the first (the last
    evaluations of a run may also fall close together)."""
    out = []
    last = None
    for p in pts:
        step, sel, test = int(p[0]), float(p[4]), float(p[5])
        if last is None or (step - last < gap and len(out) <= restarts):
            out.append([])
        out[-1].append((step, sel, test))
        last = step
    return out


def run_attempts(r, gap):
    """attempts of a row's curve, its restarts read from the row."""
    return attempts(curve_points(r), gap, int(r.get("restarts") or 0))


def plateau_improves(v, best, rtol=1e-4):
    """rl/ppo's plateau test (optim.Plateau.improves, maximising, absolute
    tolerance 0): whether v improves on the best value so far (None: none
    yet)."""
    return best is None or v > (1 + rtol) * best


def halvings(pts, patience=5, rtol=1e-4):
    """The steps at which rl/ppo's plateau halves the actor's rates, replayed
    on the 5-episode validation of one attempt's curve points (every
    halving, not only the first; see first_halving for restarts)."""
    best, count, out = None, 0, []
    for p in pts:
        v = num(p[2])
        if plateau_improves(v, best, rtol):
            best, count = v, 0
            continue
        count += 1
        if count == patience:
            out.append(int(p[0]))
            count = 0
    return out


def first_halving(pts, patience=5, rtol=1e-4):
    """The step of the first evaluation at which rl/ppo's plateau (optax
    rule, maximise, on the curve's 5-episode validation) halves the actor's
    rates for the training that follows, or "none". A restart gives the
    new attempt a fresh plateau (a halving at the restarting evaluation
    itself acts on nothing); the new attempt's first evaluation follows the
    restarting one by one first iteration (the curve's first step)."""
    first = int(pts[0][0]) if pts else 0
    # the indices where an attempt starts: one first iteration after the
    # evaluation before it
    cuts = [0] + [i for i in range(1, len(pts)) if int(pts[i][0]) - int(pts[i - 1][0]) == first] + [len(pts)]
    for a, b in zip(cuts, cuts[1:]):
        last_restarts = b < len(pts)
        for step in halvings(pts[a:b], patience, rtol):
            if not (last_restarts and step == int(pts[b - 1][0])):
                return str(step)
    return "none"
