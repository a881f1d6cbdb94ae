// Package interpret turns the trained form of tree models (package
// ensemble) into readable decision trees and explanations: the "no
// information loss" half of GradTree and GRANDE (spec/gradtree-grande.md
// §7).
//
// # From the trained form to a display tree
//
// FromEnsemble (one tree of the trained form; FromKernel for a kernel's
// current parameters) gives a display Tree whose nodes test one
// model-space column each, with the models' rule: a row goes left iff
// x[Feature] < Threshold (strict; a value equal to the threshold goes
// right, spec §2.3 and §14 row 1). A Tree is derived data: it does not
// route rows itself. Training counts, paths (Tree.PathOf, LeafOf,
// CountRows) and pruning route through the trained form, whose routing
// (ensemble.Ensemble.Leaf and Path) is the models' only one.
//
// Prune (Tree.Prune for a display tree) removes what the training rows never reach (spec §7.1, the
// published GradTree code, min_samples = 1): in post-order, a node whose
// two children are both reached by fewer than minSamples rows becomes a
// leaf with the mean of their values (and weights); a node with one such
// child is replaced by the other child. On every training row the pruned
// tree's output equals the kernel's bit for bit (the pruning counts rows
// with the model's "<", not the reference plotting code's "≤"); rows
// outside the training data that would enter a removed branch follow the
// surviving sibling, as the reference's test predictions do. Tree.Size
// gives the effective size (internal + leaves).
//
// # Showing a tree
//
// NewView prepares a tree under Options (task and class names, the fitted
// preprocess.Pipeline for raw units, feature descriptions, a leaf
// formatter) and renders it as
//
//   - Text: nested "if income <= 37950:" / "else:" blocks with leaves
//     "→ approved (p = 0.93, n = 120)";
//   - DOT (Graphviz) and a self-contained SVG with its own tidy layout;
//   - JSON: the nested tree with exact raw conditions (preprocess.RawSplit);
//   - GoSource: a Go file with an Input struct of raw values and a
//     Classify (or Predict) function that reproduces the tree's routing
//     on raw values exactly.
//
// Leaves are shown through the output head (spec §2.5): σ(logit) for one
// output, the softmax's arg-max for several, and for regression the value
// mapped back to target units by Options.Denormalize. Numeric conditions
// are shown as "column <= cut": for GradTree and GRANDE the cut is the
// exact one the model routes by, a short decimal between two neighbouring
// training values (preprocess.Pipeline.Snap, after training); otherwise
// (CART, random forests, model files written before snapping) the
// shortest decimal within a relative 1e-6 below the exact cut; categorical ones as
// the sets of training levels on each side ("housing in {rent, mortgage}"
// / "housing in {own}"); JSON and the generated code keep the exact cuts
// and say where unseen levels and missing values go.
//
// # Unseen category levels
//
// One rule, applied identically by prediction, every rendering, the
// generated Go code and the ONNX graph (package export/onnx). A level never
// seen in training — and a missing value of a categorical column whose
// training rows had none — is encoded by the fitted pipeline as its
// encoder's unseen value: one-hot, every indicator column 0; leave-one-out
// and target mean, the training target mean ȳ; ordinal, −1; frequency, 0.
// It is then scaled like any value and routed by the model's one rule
// (left iff x < τ, package ensemble). preprocess.RawThreshold pushes an
// unseen level through that same code path, so every categorical split
// knows the side unseen levels go (RawSplit.UnseenLeft), and:
//
//   - text, DOT, SVG and JSON name the training levels of each side and
//     append "or unseen" to the side unseen levels go ("Gender in {Male}
//     or unseen"); a one-hot split reads "color != red" there (which
//     includes them), a side with no training level "color is an unseen
//     level";
//   - a side that no raw value reaches (no level, not unseen, not missing)
//     reads "color is no level" and Condition.Unreached names it: with an
//     encoding that uses the training rows' own targets (gt-paper's
//     leave-one-out) training rows can reach — and be counted in — a
//     branch no row to predict can reach; text marks it "(no raw value
//     goes here)", DOT and SVG label its edge so;
//   - generated Go lists the levels of the side unseen levels do not go
//     to in a switch case and sends every other string to the default
//     branch, the side unseen levels go; a branch no raw value reaches is
//     left out;
//   - ONNX maps every string that is not a training level to the encoded
//     unseen value with its LabelEncoder's default.
//
// # Ensembles
//
// Explain and ExplainKernel give GRANDE's local explanation of one
// instance (spec §7.4): the trees with the largest instance-wise weights
// a(x), each pruned with the training rows, with their shares.
// FeatureImportance counts splits and the training-row-weighted usage of
// every raw column over one or many trees.
package interpret
