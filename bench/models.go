package bench

import (
	"github.com/gdt-ml/gdt/model"

	_ "github.com/gdt-ml/gdt/cart"     // registers the "cart" kind
	_ "github.com/gdt-ml/gdt/forest"   // registers the "random-forest" kind
	_ "github.com/gdt-ml/gdt/gradtree" // registers the "gradtree" kind
	"github.com/gdt-ml/gdt/grande"     // registers the "grande" and "grande-fast" kinds
)

// registerKind registers a benchmark model that is a learner kind with
// fixed options.
func registerKind(name, kind, help, thesis string, opts map[string]string) {
	k, err := model.LookupKind(kind)
	if err != nil {
		panic(err) // a programming error: the kind's package is not imported
	}
	Register(Model{Name: name, Help: help, Thesis: thesis, UsesValidation: k.UsesValidation,
		Kind: kind, Options: opts,
		New: func(seed int64) Learner {
			l, err := k.New(opts, seed)
			if err != nil {
				panic(err) // fixed options checked by TestModelOptionsDeclared
			}
			return l
		}})
}

func init() {
	registerKind("cart", "cart", "CART, depth 10, gini (the thesis's default CART: sklearn DecisionTreeClassifier(max_depth=10, random_state=42))", "CART",
		map[string]string{"depth": "10"})
	registerKind("gradtree", "gradtree", "GradTree with the published defaults (depth 10, Adam 0.05/0.01/0.005, sigmoid split, 5 restarts binary / 3 multiclass, patience 200)", "GradTree", nil)
	registerKind("cart-d3", "cart", "CART, depth 3", "", map[string]string{"depth": "3"})
	registerKind("cart-d5", "cart", "CART, depth 5", "", map[string]string{"depth": "5"})
	registerKind("cart-d8", "cart", "CART, depth 8", "", map[string]string{"depth": "8"})
	registerKind("cart-full", "cart", "CART grown until pure (no depth limit)", "", map[string]string{"depth": "none"})
	registerKind("cart-entropy", "cart", "CART, depth 10, entropy", "", map[string]string{"depth": "10", "criterion": "entropy"})
	registerKind("grande", "grande", "GRANDE with the published defaults (2048 trees of depth 6, instance-wise leaf weights, Adam 0.005/0.01/0.01/0.01, softsign, 80 % of the features per tree (10…50), focal loss γ = 2 with balanced class weights, batch 64, patience 25)", "GRANDE", nil)
	registerKind("grande-fast", "grande-fast", "GRANDE with defaults for time to quality on CPUs: "+grande.FastSummary+" (otherwise the published defaults)", "", nil)
	registerKind("grande-estimator-weights", "grande", "GRANDE ablation: one weight per tree instead of instance-wise leaf weights (otherwise the published defaults)", "",
		map[string]string{"estimator_weights": "estimator"})
	registerKind("random-forest", "random-forest", "random forest, scikit-learn's RandomForestClassifier defaults (100 trees, √n features per split, bootstrap, fully grown)", "RandomForest", nil)
}
