package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gdt-ml/gdt/export/onnx"
	"github.com/gdt-ml/gdt/safefile"
)

func init() {
	register(command{name: "export", summary: "export a saved model to ONNX", run: runExport})
}

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export", "(MODEL | POLICY) --format onnx --out FILE",
		"Writes the model as an ONNX graph (ai.onnx 13, ai.onnx.ml 3): GradTree and CART as one\n"+
			"TreeEnsembleRegressor/Classifier, GRANDE as a tree ensemble plus the operators of its\n"+
			"instance-wise softmax weighting. Inputs are the raw columns, one [N, 1] tensor each:\n"+
			"double for numeric columns (NaN = missing), string for categorical ones (\"\" = missing).\n"+
			"Numeric splits are written in raw units, categorical columns are encoded with the\n"+
			"model's fitted pipeline, so predictions equal gdt's.\n"+
			"\n"+
			"POLICY is a run directory (or its checkpoint.gob) of `gdt rl train --method sympol`: the\n"+
			"tree policy, pruned as --prune says, becomes a TreeEnsembleClassifier (discrete actions:\n"+
			"outputs action = the greedy action index, action_name, probabilities and logits) or a\n"+
			"TreeEnsembleRegressor (continuous: action = the mean action per dimension). The input\n"+
			"\"observation\" is the raw observation [N, F] float as the environment returns it.\n"+
			"A run exports its delivered policy (the best on validation; see gdt rl train --help),\n"+
			"or with --final its final one.", stderr)
	format := fs.String("format", "onnx", "export format: onnx")
	out := fs.String("out", "", "file to write (atomically)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	prune := pruneFlag(fs, "policies: ", pruneDefault)
	final := finalFlag(fs)
	arg, err := parseOne(fs, args, "MODEL file")
	if err != nil {
		return err
	}
	if *format != "onnx" {
		return fmt.Errorf("%w: --format %q: the only export format is onnx", errUsage, *format)
	}
	if *out == "" {
		return fmt.Errorf("%w: --out is required", errUsage)
	}
	if isPolicyRun(arg) {
		return exportPolicy(arg, *out, *prune, *final, *asJSON, stdout)
	}
	t, err := loadTabular(arg, "export")
	if err != nil {
		return err
	}
	m, err := onnx.Export(t)
	if err != nil {
		return fmt.Errorf("%s: %w", arg, err)
	}
	b := m.Marshal()
	if err := safefile.WriteBytes(*out, b); err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"path": *out, "kind": t.Spec.Kind, "format": "onnx", "operators": len(m.Graph.Nodes), "bytes": len(b)})
	}
	fmt.Fprintf(stdout, "wrote %s: %s model, %d operators, %d bytes\n", *out, t.Spec.Kind, len(m.Graph.Nodes), len(b))
	return nil
}
