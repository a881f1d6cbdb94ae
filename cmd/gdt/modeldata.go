package main

import (
	"fmt"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
)

// loadModelData loads the model file at path and reads the data file of df
// with the model's input schema, so columns are matched by name and typed
// as at training time. With withTarget, a classification target column in
// the file is read as categorical (to score predictions against it).
func loadModelData(path string, df *dataFlags, withTarget bool) (*model.Trained, *data.Table, error) {
	if df.path == "" {
		return nil, nil, fmt.Errorf("%w: --data is required", errUsage)
	}
	t, err := model.Load(path)
	if err != nil {
		return nil, nil, err
	}
	opt, err := df.options()
	if err != nil {
		return nil, nil, err
	}
	opt.Schema = t.Schema()
	if withTarget && t.Task != data.Regression && t.Target != "" {
		opt.Schema.Categorical = append(opt.Schema.Categorical, t.Target)
	}
	tab, err := data.ReadFile(df.path, opt)
	if err != nil {
		return nil, nil, err
	}
	return t, tab, nil
}
