package main

import (
	"fmt"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/multimodal"
)

// loadTabular loads a tabular model file for command cmd; a multimodal
// model file gets an error that says which commands take it.
func loadTabular(path, cmd string) (*model.Trained, error) {
	if multimodal.IsTrainedFile(path) {
		return nil, fmt.Errorf("%s: a multimodal model file; gdt %s supports tabular models only (multimodal models work with gdt predict, eval and show)", path, cmd)
	}
	return model.Load(path)
}

// loadModelData loads the model file at path and reads the data file of df
// with the model's input schema, so columns are matched by name and typed
// as at training time. With withTarget, a classification target column in
// the file is read as categorical (to score predictions against it).
func loadModelData(cmd, path string, df *dataFlags, withTarget bool) (*model.Trained, *data.Table, error) {
	if df.path == "" {
		return nil, nil, fmt.Errorf("%w: --data is required", errUsage)
	}
	t, err := loadTabular(path, cmd)
	if err != nil {
		return nil, nil, err
	}
	opt, err := df.options()
	if err != nil {
		return nil, nil, err
	}
	opt = t.ReadOptions(opt)
	if withTarget && t.Task != data.Regression && t.Target != "" {
		opt.Schema.Categorical = append(opt.Schema.Categorical, t.Target)
	}
	tab, err := data.ReadFile(df.path, opt)
	if err != nil {
		return nil, nil, err
	}
	return t, tab, nil
}
