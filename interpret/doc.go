// Package interpret turns trained dense tree parameters into plain,
// readable decision trees and explanations: the "no information loss"
// half of GradTree and GRANDE (spec/gradtree-grande.md §7).
//
// # From parameters to a plain tree
//
// FromEnsemble (one tree of the trained form, package ensemble; FromKernel
// for a kernel's current parameters) gives a Tree whose nodes
// test one model-space column each, with the models' rule: a row goes left
// iff x[Feature] < Threshold (strict; a value equal to the threshold goes
// right, spec §2.3 and §14 row 1). It routes every row exactly as the
// kernel does.
//
// Tree.Prune removes what the training rows never reach (spec §7.1, the
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
// are shown as "column <= cut" with the cut rounded to the shortest
// decimal within a relative 1e-6 below the exact cut; categorical ones as
// the sets of training levels on each side ("housing in {rent, mortgage}"
// / "housing in {own}"); JSON and the generated code keep the exact cuts
// and say where unseen levels and missing values go.
//
// # Ensembles
//
// Explain and ExplainKernel give GRANDE's local explanation of one
// instance (spec §7.4): the trees with the largest instance-wise weights
// a(x), each pruned with the training rows, with their shares.
// FeatureImportance counts splits and the training-row-weighted usage of
// every raw column over one or many trees.
package interpret
