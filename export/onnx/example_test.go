package onnx_test

import (
	"fmt"
	"log"

	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/export/onnx"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/rl/methods"
)

// Exporting a saved model to ONNX.
func Example() {
	t, err := model.Load("model.json")
	if err != nil {
		log.Fatal(err)
	}
	m, err := onnx.Export(t)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(m.Graph.Inputs), "inputs,", len(m.Graph.Nodes), "operators")
	if err := onnx.Write(t, "model.onnx"); err != nil {
		log.Fatal(err)
	}
}

// Exporting the tree policy of a `gdt rl train` run to ONNX.
func ExampleBuildPolicy() {
	tr, err := methods.Load("run/checkpoint.gob", nil)
	if err != nil {
		log.Fatal(err)
	}
	p, err := export.PolicyOf(tr.Actor(), tr.Spec(), export.PruneFull)
	if err != nil {
		log.Fatal(err)
	}
	m, err := onnx.BuildPolicy(p)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Doc)
	if err := onnx.WritePolicy(p, "policy.onnx"); err != nil {
		log.Fatal(err)
	}
}
