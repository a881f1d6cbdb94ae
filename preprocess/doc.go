// Package preprocess turns a data.Table into the dense float32 matrix the
// models train on: categorical encoders, the papers' noised
// quantile-to-normal transform, SMOTE oversampling, and a Pipeline that is
// fitted on training rows only, applied to any rows, saved inside model
// files (encoding/json), and able to express a threshold on a transformed
// column in the raw column's units.
//
// # Using a pipeline
//
//	p := preprocess.GTPaper(preprocess.Options{Task: data.Binary, Seed: 42})
//	Xtrain, ytrain, err := p.FitTransform(train.X, train.Y) // training matrix as the protocol defines it
//	Xtest, err := p.Transform(test.X)                       // any other rows; never uses a target
//	split, err := p.RawThresholdLess(j, tau)                // "x_j < tau" in raw units
//	fmt.Println(split.Text())                               // e.g. `age <= 40.99` or `job in {"a", "b"}`
//
// Output columns follow the raw columns in table order; a one-hot encoded
// column contributes one column per training level ("column=level").
// FeatureNames and Source tell where each output column comes from.
// Transform matches columns by name, ignores extra ones, and rejects a
// column whose kind changed (read inference files with Pipeline.Schema()).
// A fitted Pipeline is read-only and safe for concurrent Transform and
// RawThreshold calls.
//
// # Protocols
//
// Protocol(name) returns a constructor; the names are:
//
//	gt-paper  published GradTree runs (spec §6.1): all categorical columns
//	          leave-one-out encoded, training rows with their own target;
//	          quantile-normal (fit noise 1e-3, random_state 42, 1000
//	          quantiles, subsample 1e5); SMOTE (k = 5, seeded) on the
//	          training rows of classification tasks when
//	          min_c N_c/N ≤ 0.25/(C − 1).
//	gr-paper  published GRANDE runs (spec §6.2): categorical columns with
//	          ≤ 2 levels ordinal (LabelEncoder), 3–9 one-hot, ≥ 10
//	          leave-one-out fitted with y but applied without it (target
//	          mean, singletons → ȳ); quantile-normal as above; no
//	          oversampling.
//	standard  one-hot, numeric columns standardised (training mean and
//	          population standard deviation).
//	none      one-hot, no scaling.
//
// Every protocol is a Config; change fields (encoding rules, per-column
// encodings, scaling, imputation, oversampling) before fitting to build
// other pipelines.
//
// # Missing values
//
// Numeric: the protocols impute the training median (ImputeMedian). The
// GradTree loaders already impute, so GT-paper sees no NaN in practice; the
// reference code would have turned a column with NaN into NaN entirely.
// GR-paper's reference imputed the median of the full data set before
// splitting: call FillMedians on the full table first to reproduce that
// (the pipeline itself only ever looks at training rows). With ImputeNone,
// NaN is kept (the quantile transform maps NaN to NaN, ignoring NaN when
// fitting) and the output contains NaN, which models must reject.
//
// Categorical: a missing value is a category of its own when it occurred in
// the training rows, and is treated like a never-seen level otherwise
// (leave-one-out and target mean: ȳ; one-hot: all zeros; ordinal: −1;
// frequency: 0). This is category_encoders' behaviour for leave-one-out.
//
// # Reproduction notes and deviations
//
//   - The quantile transform follows numpy/scikit-learn operation by
//     operation; tests compare it with scikit-learn 1.2.1 to 1e-12. The fit
//     noise is numpy's legacy randn over the whole N×F encoded training
//     matrix in row-major order after numpy.random.seed(42). Its standard
//     deviation per column is ν_f = 1e-3/max(std_f, 1e-3): an absolute
//     amount that shrinks as the column's spread grows, so it is large
//     relative to columns with a small spread (e.g. a leave-one-out column
//     whose category means lie close together) and can reorder their
//     values. Subsampling (N > Subsample) reproduces scikit-learn < 1.5
//     (subsample 1e5) bit for bit; scikit-learn ≥ 1.5 changed the default
//     to 10 000.
//   - SMOTE follows imblearn's algorithm and draw order, so with a seed it
//     equals imblearn's SMOTE(random_state=seed) except on exact distance
//     ties. The published GradTree runs used an unseeded SMOTE(), so their
//     synthetic rows cannot be reproduced. A class with at most k samples
//     uses k = n_c − 1 neighbours (a single sample is repeated); set
//     SMOTE.ReferenceFallback for the reference's RandomOverSampler
//     fallback, which is reproduced exactly.
//   - GR-paper fitted the medians, the distinct-level counts and the
//     label/one-hot encoders on the full data set; here they are fitted on
//     the training rows (unseen levels are handled as described above).
//   - Ordinal levels are sorted numerically when all parse as numbers, else
//     by their text, as LabelEncoder sorts a numeric or a string column.
//
// # Thresholds in raw units
//
// RawThreshold(j, t) describes "x_j ≤ t" exactly: every transform here is
// monotone non-decreasing, so for a numeric column the left side is
// {v ≤ Threshold}, where Threshold is found by bisection through the fitted
// transform including the final float32 rounding; the spec's
// inverse-transform value Q⁻¹(t) (spec §7.3, approximate because of the fit
// noise and of flat stretches of Q) is reported as Inverse. For categorical
// columns the levels are pushed through the same code path as Transform
// (encodings as for non-training rows), so LeftLevels is exactly the set of
// levels Transform routes left; unseen levels and missing values are
// reported too. The models route "x < τ" left: use RawThresholdLess.
//
// # Cuts that read as the data does
//
// A split learned by gradient descent can land anywhere between two
// neighbouring training values, so its exact raw cut carries the fit noise
// of the quantile transform ("Age <= 38.00001"). Snap, run once after
// training with the model's splits and the raw training rows, moves every
// numeric cut to the decimal with the fewest significant digits between
// the two neighbouring training values (ShortestIn; "Age <= 38") and
// records the cuts (Pipeline.Cuts): Transform then maps every raw value
// to the side of each cut that "value ≤ cut" says. The model's thresholds
// are not changed; training values keep their model-space values bit for
// bit (so do training predictions), RawThreshold reports the short cut
// exactly (RawSplit.Snapped), and a row to predict routes differently
// than before only if a value lies between an old cut and its new one.
package preprocess
