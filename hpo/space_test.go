package hpo

import (
	"strings"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/gdt-ml/gdt/model"

	_ "github.com/gdt-ml/gdt/cart"
	_ "github.com/gdt-ml/gdt/forest"
	_ "github.com/gdt-ml/gdt/gradtree"
	_ "github.com/gdt-ml/gdt/grande"
)

// TestSpacesMatchSpec checks every declared dimension against the ranges of
// the spec (gradtree-grande.md §8.1–8.2, sympol-rl.md §7.2).
func TestSpacesMatchSpec(t *testing.T) {
	want := map[string][]string{
		"gradtree": {
			"depth int [7, 10]",
			"lr_index {0.005, 0.01, 0.05, 0.1, 0.2, 0.25}",
			"lr_values {0.005, 0.01, 0.05, 0.1, 0.2, 0.25}",
			"lr_leaf {0.005, 0.01, 0.05, 0.1, 0.2, 0.25}",
			"loss {crossentropy, focal}",
			"poly_loss {false, true}",
			"poly_epsilon {2, 5}",
		},
		"gradtree-pkg": {
			"depth int [3, 10]", "lr_index U(0.0001, 0.25)", "lr_values U(0.0001, 0.25)", "lr_leaf U(0.0001, 0.25)",
			"cosine_decay_steps {0, 100, 1000}", "loss {crossentropy, focal}",
		},
		"grande": {
			"depth {4, 6}",
			"n_estimators {512, 1024, 2048}",
			"lr_weights log-U[0.0001, 0.1]",
			"lr_index log-U[0.005, 0.2]",
			"lr_values log-U[0.005, 0.2]",
			"lr_leaf log-U[0.005, 0.2]",
			"cosine_decay_steps {0, 0.1, 100, 1000}",
			"focal_factor {0, 3}",
			"dropout {0, 0.25, 0.5}",
			"selected_variables U(0.5, 1)",
			"data_subset_fraction U(0.8, 1)",
		},
		"grande-reduced": {
			"learning_rate log-U[0.005, 0.2]", "focal_factor {0, 3}", "cosine_decay_steps {0, 0.1, 100, 1000}", "dropout {0, 0.25, 0.5}",
		},
		"sympol": {
			"learning_rate_actor_split_values log-U[0.0001, 0.05]",
			"learning_rate_actor_split_idx_array log-U[0.0001, 0.1]",
			"learning_rate_actor_leaf_array log-U[0.0001, 0.05]",
			"learning_rate_actor_log_std log-U[0.0001, 0.1]",
			"learning_rate_critic log-U[0.0001, 0.01]",
			"n_update_epochs int [1, 10]",
			"reduce_lr {true, false}",
			"n_steps {128, 512}",
			"n_envs int [4, 16]",
			"norm_adv {true, false}",
			"ent_coef {0.0, 0.1, 0.2, 0.5}",
			"gae_lambda {0.8, 0.9, 0.95, 0.99}",
			"gamma {0.9, 0.95, 0.99, 0.999}",
			"vf_coef {0.25, 0.5, 0.75}",
		},
	}
	for name, dims := range want {
		t.Run(name, func(t *testing.T) {
			s, err := LookupSpace(name)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range s.Params {
				got = append(got, p.String())
			}
			if strings.Join(got, "\n") != strings.Join(dims, "\n") {
				t.Errorf("space %s:\n got %q\nwant %q", name, got, dims)
			}
		})
	}
	if n := len(mustSpace(t, "grande").Params); n != 11 {
		t.Errorf("GRANDE space has %d dimensions, the thesis tunes 11", n)
	}
	g := mustSpace(t, "gradtree")
	for k, v := range map[string]string{"restarts": "3", "patience": "200", "split": "sigmoid"} {
		if g.Fixed[k] != v {
			t.Errorf("gradtree fixed %s = %q, want %q (spec §8.1)", k, g.Fixed[k], v)
		}
	}
}

func mustSpace(t *testing.T, name string) *Space {
	t.Helper()
	s, err := LookupSpace(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSpacesAreValidOptions draws configurations from every space of a
// registered kind and checks the kind accepts them.
func TestSpacesAreValidOptions(t *testing.T) {
	for _, name := range SpaceNames() {
		s := mustSpace(t, name)
		k, err := model.LookupKind(s.Kind)
		if err != nil {
			t.Logf("space %s: kind %s not registered here (%v); skipped", name, s.Kind, err)
			continue
		}
		study, err := goptuna.CreateStudy(name, goptuna.StudyOptionSampler(goptuna.NewRandomSampler(goptuna.RandomSamplerOptionSeed(1))),
			goptuna.StudyOptionLogger(nil))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 20; i++ {
			id, err := study.Storage.CreateNewTrial(study.ID)
			if err != nil {
				t.Fatal(err)
			}
			opts, err := s.Suggest(goptuna.Trial{Study: study, ID: id})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := k.New(opts, 42); err != nil {
				t.Errorf("space %s: kind %s rejects %v: %v", name, s.Kind, opts, err)
			}
		}
	}
}

func TestLookupErrors(t *testing.T) {
	if _, err := LookupSpace("nope"); err == nil || !strings.Contains(err.Error(), "grande") {
		t.Errorf("LookupSpace(nope) = %v, want an error listing the spaces", err)
	}
	if _, err := LookupProtocol("nope"); err == nil || !strings.Contains(err.Error(), "gradtree-cv3") {
		t.Errorf("LookupProtocol(nope) = %v, want an error listing the protocols", err)
	}
}
