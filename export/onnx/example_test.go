package onnx_test

import (
	"fmt"
	"log"

	"github.com/gdt-ml/gdt/export/onnx"
	"github.com/gdt-ml/gdt/model"
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
