package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/modelfile"
	"github.com/gdt-ml/gdt/safefile"
)

func init() {
	register(command{name: "show", summary: "print a saved model (the plain tree, in raw units)", run: runShow})
}

func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if multimodalModelArg(args) != "" {
		return runShowMultimodal(ctx, args, stdout, stderr)
	}
	fs := newFlags("show", "MODEL [--format text|dot|svg|json|go] [--out FILE] [--json]",
		"Prints the model a saved file holds: the plain tree with thresholds in the raw\n"+
			"feature units, and the training facts. For a multimodal model: its architecture, parameter\n"+
			"counts and training facts.", stderr)
	format := fs.String("format", "text", "text (indented rules), dot (Graphviz), svg, json, go (generated source), or params (the raw parameters as JSON)")
	out := fs.String("out", "", "write the rendering to this file instead of standard output")
	asJSON := jsonFlag(fs)
	arg, err := parseOne(fs, args, "MODEL file")
	if err != nil {
		return err
	}
	f, err := modelfile.Load(arg)
	if err != nil {
		return err
	}
	t, err := model.FromFile(f, arg)
	if err != nil {
		return err
	}
	var body []byte
	switch *format {
	case "text":
		var b strings.Builder
		fmt.Fprintf(&b, "%s model (%s, %d nodes), preprocessing %s\n", t.Spec.Kind, t.Task, t.Learner.NumNodes(), t.Spec.Protocol)
		if t.Target != "" {
			fmt.Fprintf(&b, "target: %s", t.Target)
			if len(t.Classes) > 0 {
				fmt.Fprintf(&b, " (classes: %s)", strings.Join(t.Classes, ", "))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n" + t.Describe() + "\n")
		body = []byte(b.String())
	case "params":
		if body, err = json.MarshalIndent(t.Learner, "", "  "); err != nil {
			return err
		}
		body = append(body, '\n')
	default:
		if body, err = t.Render(*format); err != nil {
			return err
		}
	}
	if *out != "" {
		if err := safefile.WriteBytes(*out, body); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(stdout, showJSON(arg, f, t, *format, *out, body))
	}
	if *out != "" {
		return nil
	}
	_, err = stdout.Write(body)
	return err
}

// showJSON is the document of `gdt show --json`: the model's facts and its
// rendering — embedded as JSON for --format json and params, as text
// otherwise, or only named when --out received it.
func showJSON(path string, f *modelfile.File, t *model.Trained, format, out string, body []byte) map[string]any {
	doc := map[string]any{
		"file": path, "format_version": f.Version, "created": f.Created, "kind": t.Spec.Kind, "task": t.Task.String(),
		"target": t.Target, "classes": t.Classes, "inputs": t.Inputs, "protocol": t.Spec.Protocol,
		"options": t.Spec.Options, "nodes": t.Learner.NumNodes(), "info": t.Info, "rendering_format": format,
	}
	switch {
	case out != "":
		doc["rendering_file"] = out
	case (format == "json" || format == "params") && json.Valid(body):
		doc["rendering"] = json.RawMessage(body)
	default:
		doc["rendering"] = string(body)
	}
	return doc
}
