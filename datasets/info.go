package datasets

// Info says which files and columns a registered dataset is built from:
// what a user needs to know to read the data the way Load does.
type Info struct {
	// Name is the dataset name as Load accepts it.
	Name string `json:"name"`
	// Target is the label column (for headerless GradTree files, the
	// name the loader gives it, e.g. "col15").
	Target string `json:"target"`
	// Files are the data files, as file system paths.
	Files []string `json:"files"`
	// Dropped are the file's columns that are not features (besides the
	// target); nil for GradTree datasets, whose features are listed instead.
	Dropped []string `json:"dropped,omitempty"`
	// Features are the feature columns when the dataset selects them
	// (GradTree datasets); nil when every other column is a feature.
	Features []string `json:"features,omitempty"`
	// Categorical are the columns read as categorical.
	Categorical []string `json:"categorical,omitempty"`
	// Task is the manifest's task (binary, multiclass or regression).
	Task string `json:"task"`
}

// Describe returns the files and columns of dataset name under the data
// root (see Root), without reading the data.
func Describe(root, name string) (*Info, error) {
	bench, base, err := resolveName(name)
	if err != nil {
		return nil, err
	}
	m, err := LoadManifest(root)
	if err != nil {
		return nil, err
	}
	e, err := m.Entry(name)
	if err != nil {
		return nil, err
	}
	info := &Info{Name: name, Target: e.Target, Task: e.Task, Dropped: e.DropColumns, Categorical: e.CategoricalColumns}
	files := make([]string, 0, len(e.Files))
	for _, f := range e.Files {
		files = append(files, f.Path)
	}
	if bench == BenchGradTree {
		r := recipeByName[base]
		info.Target, info.Features, info.Categorical, info.Dropped = r.target, r.features, r.categorical, nil
		files = e.FilesUsedByGradTree
	}
	for _, f := range files {
		info.Files = append(info.Files, m.Path(f))
	}
	return info, nil
}
