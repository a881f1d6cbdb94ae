// Package hpo is gdt's hyperparameter search: typed search spaces for each
// model kind (the thesis's ranges, spec §8.1–8.2 and sympol-rl §7.2), the
// thesis's search protocols (GradTree: 3-fold CV on train+validation;
// GRANDE: 5×2 nested CV), studies whose trials live in a shared store, and
// workers that pull trials until a study has the requested number of
// evaluated trials.
//
// The search algorithms come from github.com/c-bata/goptuna behind the small
// interface of this package: TPE (default), random search and CMA-ES, with
// early pruning of poor trials (median rule or asynchronous successive
// halving on the running cross-validation score, reported after every fold).
//
// Stores:
//
//   - Journal (the default, no setup): goptuna's Storage on an append-only
//     file of JSON lines; every operation takes an flock, replays what other
//     processes appended, validates, appends and fsyncs. Any number of
//     processes on one machine share a file; reopening the file replays it,
//     so a study survives restarts and can be resumed.
//   - Postgres: goptuna's rdb.v2 storage on PostgreSQL plus a lease table,
//     for workers on many machines sharing one study.
//
// A worker that dies mid-trial leaves the study consistent: every trial
// records its owner (host, PID, process start time) and renews a lease with
// heartbeats; whichever worker or loader notices first marks the trial
// failed — at once when the owner ran on the same host and its process is
// gone, otherwise when its lease expires — and the search goes on. Failed
// trials do not count towards the study's budget, so the study still ends
// with the requested number of evaluated trials; a slot is claimed
// atomically (under the file lock, or the study row's lock in PostgreSQL),
// so concurrent workers never overshoot it.
//
// Policies are tuned the same way (RLObjective, protocol RLProtocol): a
// trial trains a SYMPOL policy per environment seed with the sampled
// hyperparameters (ppo's --set keys) on top of the environment's preset,
// reports the mean validation return after every evaluation to the
// pruner, and scores the mean final validation return (sympol-rl spec
// §7.2).
//
// The command line face is `gdt tune`; `gdt bench --tuned` and
// `gdt rl train --tuned` reuse the best configurations it writes.
package hpo
