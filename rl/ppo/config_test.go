package ppo

import (
	"strings"
	"testing"
)

func TestPresets(t *testing.T) {
	c, err := Preset("CartPole-v1", MethodSYMPOL)
	if err != nil {
		t.Fatal(err)
	}
	if c.NEnvs != 7 || c.NSteps != 512 || c.Epochs != 7 || c.EntCoef != 0.2 || c.LRSplitIndex != 0.025528 ||
		!c.ReduceLR || c.NormAdv || c.Minibatch != 64 || !c.DynamicBuffer || !c.AdamW || c.ClipCoef != 0.1 || c.MaxGradNorm != 1000 {
		t.Errorf("CartPole SYMPOL preset: %+v", c)
	}
	if c.PlateauReference || c.AccumReference || c.IntActions || c.TruncationReference {
		t.Error("default profile has reference quirks on")
	}
	if err := c.SetProfile(ProfileReference); err != nil || !c.PlateauReference || !c.AccumReference || !c.IntActions || !c.TruncationReference {
		t.Errorf("reference profile: %v %+v", err, c)
	}
	m, _ := Preset("MountainCarContinuous-v0", MethodMLP)
	if m.MLPWidth != 240 || m.MLPLayers != 2 || m.Minibatch != 512 || m.AdamW || m.DynamicBuffer {
		t.Errorf("MC-C MLP preset: %+v", m)
	}
	for id := range envAlias {
		for _, meth := range []string{MethodSYMPOL, MethodMLP} {
			c, err := Preset(id, meth)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Validate(); err != nil {
				t.Errorf("%s %s: %v", id, meth, err)
			}
		}
	}
	// The protocol's defaults everywhere but Empty-Random's and Acrobot's
	// SYMPOL presets (four trainings, 200 validation episodes) and
	// DoorKey's and Pendulum's (later, stricter restart rules; 100
	// validation episodes) and
	// CartPole's (100 validation episodes) and MountainCarContinuous's (100
	// validation episodes and a level, restart_below 80, at 49 %% of the
	// budget) and LunarLander's (a level, restart_below −100, at 40 %% of
	// the budget)
	// and LavaGapS7's (no restarts: restart_after 0; 100 validation
	// episodes) and LavaGapS5's (a level, restart_below 0.5, at the
	// default check).
	for id := range envAlias {
		for _, meth := range []string{MethodSYMPOL, MethodMLP} {
			c, _ := Preset(id, meth)
			got := [5]float64{c.RestartAfter, c.RestartMargin, float64(c.Restarts), float64(c.ValEpisodes), c.RestartBelow}
			want := [5]float64{DefaultRestartAfter, DefaultRestartMargin, DefaultRestarts, DefaultValEpisodes, 0}
			if (id == "MiniGrid-Empty-Random-6x6-v0" || id == "Acrobot-v1") && meth == MethodSYMPOL {
				want = [5]float64{0.2, 1, 4, 200, 0}
			}
			if id == "MiniGrid-DoorKey-5x5-v0" && meth == MethodSYMPOL {
				want = [5]float64{0.4, 0.95, DefaultRestarts, 100, 0}
			}
			if id == "CartPole-v1" && meth == MethodSYMPOL {
				want = [5]float64{DefaultRestartAfter, DefaultRestartMargin, DefaultRestarts, 100, 0}
			}
			if id == "MountainCarContinuous-v0" && meth == MethodSYMPOL {
				want = [5]float64{0.49, DefaultRestartMargin, DefaultRestarts, 100, 80}
			}
			if id == "Pendulum-v1" && meth == MethodSYMPOL {
				want = [5]float64{0.45, 0.75, DefaultRestarts, 100, 0}
			}
			if id == "LunarLander-v2" && meth == MethodSYMPOL {
				want = [5]float64{0.4, 0, DefaultRestarts, DefaultValEpisodes, -100}
			}
			if id == "MiniGrid-LavaGapS7-v0" && meth == MethodSYMPOL {
				want = [5]float64{0, DefaultRestartMargin, DefaultRestarts, 100, 0}
			}
			if id == "MiniGrid-LavaGapS5-v0" && meth == MethodSYMPOL {
				want = [5]float64{DefaultRestartAfter, DefaultRestartMargin, DefaultRestarts, DefaultValEpisodes, 0.5}
			}
			if got != want {
				t.Errorf("%s %s: restart_after, restart_margin, restarts, val_episodes, restart_below = %v, want %v", id, meth, got, want)
			}
		}
	}
	if _, err := Preset("CartPole-v1", "cart"); err == nil {
		t.Error("unknown method accepted")
	}
}

func TestSet(t *testing.T) {
	c, _ := Preset("CartPole-v1", MethodSYMPOL)
	for _, kv := range [][2]string{{"ent_coef", "0.05"}, {"n_envs", "3"}, {"norm_adv", "true"}, {"algorithm", "a2c"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if c.EntCoef != 0.05 || c.NEnvs != 3 || !c.NormAdv || c.Algorithm != AlgoA2C || c.Epochs != 1 {
		t.Errorf("after Set: %+v", c)
	}
	if err := c.Set("n_envs", "three"); err == nil || !strings.Contains(err.Error(), "n_envs") {
		t.Errorf("bad value: %v", err)
	}
	if err := c.Set("nonsense", "1"); err == nil || !strings.Contains(err.Error(), "unknown option") {
		t.Errorf("unknown key: %v", err)
	}
	c.NEnvs = 0
	if err := c.Validate(); err == nil {
		t.Error("n_envs = 0 accepted")
	}
}

// TestPresetPrune checks the SYMPOL presets' pruning and Empty-Random's
// entropy bonus (sympolOverride): visited states and ent_coef 0.3 on
// Empty-Random-6x6 only; every other environment keeps the bounds pruning
// ("", the field's zero value, which old checkpoints hold too).
func TestPresetPrune(t *testing.T) {
	for alias := range sympolBest {
		var id string
		for k, v := range envAlias {
			if v == alias {
				id = k
			}
		}
		c, err := Preset(id, MethodSYMPOL)
		if err != nil {
			t.Fatal(err)
		}
		wantPrune, wantEnt := "", sympolBest[alias].ent
		if id == "MiniGrid-Empty-Random-6x6-v0" {
			wantPrune, wantEnt = PruneVisited, 0.3
		}
		wantDecay := 0.0
		if id == "MountainCarContinuous-v0" {
			wantDecay = 0.5
		}
		if c.Prune != wantPrune || c.EntCoef != wantEnt || c.EntDecay != wantDecay {
			t.Errorf("%s: prune %q, ent_coef %v, ent_decay %v; want %q, %v, %v", id, c.Prune, c.EntCoef, c.EntDecay, wantPrune, wantEnt, wantDecay)
		}
		if err := c.Set("prune", "full"); err != nil || c.Prune != PruneFull {
			t.Errorf("%s: --set prune=full: %v", id, err)
		}
		if err := c.Set("prune", "often"); err == nil {
			t.Errorf("%s: --set prune=often: want an error", id)
		}
	}
}

// TestPresetOverrides checks sympolOverride's critic and split-index
// columns: CartPole's SYMPOL preset trains a 2 × 64 critic, every other
// preset (SYMPOL on the other environments, and every MLP preset, whose
// critic is its actor's shape) keeps its own, and an explicit
// critic_width still wins; LavaGapS7's SYMPOL preset doubles the
// split-index rate, every other keeps the thesis's; rows that do not
// set ent_coef keep the thesis's.
func TestPresetOverrides(t *testing.T) {
	mlpWidth := map[string]int{}
	for id, alias := range envAlias {
		if r, ok := mlpBest[alias]; ok {
			mlpWidth[id] = r.width
		}
	}
	for id := range envAlias {
		for _, meth := range []string{MethodSYMPOL, MethodMLP} {
			c, err := Preset(id, meth)
			if err != nil {
				t.Fatal(err)
			}
			want := 256
			switch {
			case meth == MethodSYMPOL && id == "CartPole-v1":
				want = 64
			case meth == MethodMLP && mlpWidth[id] != 0:
				want = mlpWidth[id]
			}
			if c.CriticWidth != want || c.CriticLayers < 1 {
				t.Errorf("%s %s: critic_width %d, critic_layers %d; want width %d", id, meth, c.CriticWidth, c.CriticLayers, want)
			}
		}
	}
	c, _ := Preset("CartPole-v1", MethodSYMPOL)
	if lg, _ := Preset("MiniGrid-LavaGapS7-v0", MethodSYMPOL); lg.LRSplitIndex != 0.00131764 || lg.LRSplitValues != 0.000291911 || lg.Gamma != 0.95 || !lg.Polish || !lg.PolishSplits || lg.EntCoef != sympolBest["minigrid_lavagaps7"].ent {
		t.Errorf("LavaGapS7's SYMPOL split-index rate %v, split-threshold rate %v, gamma %v, polish %v, polish_splits %v, ent_coef %v; want 0.00131764, 0.000291911, 0.95, true, true and the thesis's %v", lg.LRSplitIndex, lg.LRSplitValues, lg.Gamma, lg.Polish, lg.PolishSplits, lg.EntCoef, sympolBest["minigrid_lavagaps7"].ent)
	}
	if ll, _ := Preset("LunarLander-v2", MethodSYMPOL); ll.Recheck != 5 || ll.RecheckEpisodes != DefaultRecheckEpisodes || !ll.Polish || ll.PolishRule != PolishMean || !ll.PolishThresholds || ll.PolishEpisodes != 120 || ll.PolishBudget != 250 {
		t.Errorf("LunarLander's SYMPOL recheck %d on %d episodes, polish %v (rule %q, thresholds %v, %d episodes, budget %d); want 5 on %d, true (mean, true, 120, 250)", ll.Recheck, ll.RecheckEpisodes, ll.Polish, ll.PolishRule, ll.PolishThresholds, ll.PolishEpisodes, ll.PolishBudget, DefaultRecheckEpisodes)
	}
	if ab, _ := Preset("Acrobot-v1", MethodSYMPOL); !ab.Polish || ab.PolishRule != PolishMean || !ab.PolishThresholds || ab.PolishEpisodes != 0 {
		t.Errorf("Acrobot's SYMPOL polish %v, polish_rule %q, polish_thresholds %v, polish_episodes %d; want true, mean, true, 0", ab.Polish, ab.PolishRule, ab.PolishThresholds, ab.PolishEpisodes)
	}
	if pd, _ := Preset("Pendulum-v1", MethodSYMPOL); !pd.Polish || pd.PolishRule != PolishPaired || pd.PolishSplits || !pd.PolishThresholds {
		t.Errorf("Pendulum's SYMPOL polish %v, polish_rule %q, polish_splits %v, polish_thresholds %v; want true, paired, false, true", pd.Polish, pd.PolishRule, pd.PolishSplits, pd.PolishThresholds)
	}
	if mc, _ := Preset("MountainCarContinuous-v0", MethodSYMPOL); mc.LRSplitIndex != 0.000406212 || mc.LRSplitValues != sympolBest["mountaincarcontinuous"].lrSV || mc.EntDecay != 0.5 || !mc.Polish || mc.PolishRule != PolishPaired {
		t.Errorf("MountainCarContinuous's SYMPOL split-index rate %v, split-threshold rate %v, ent_decay %v, polish %v, polish_rule %q; want 0.000406212, the thesis's %v, 0.5, true and paired", mc.LRSplitIndex, mc.LRSplitValues, mc.EntDecay, mc.Polish, mc.PolishRule, sympolBest["mountaincarcontinuous"].lrSV)
	}
	for id, alias := range envAlias {
		if c, _ := Preset(id, MethodSYMPOL); alias != "minigrid_lavagaps7" && alias != "mountaincarcontinuous" && sympolBest[alias].lrSI != 0 && c.LRSplitIndex != sympolBest[alias].lrSI {
			t.Errorf("%s: split-index rate %v, want the thesis's %v", id, c.LRSplitIndex, sympolBest[alias].lrSI)
		}
	}
	if c.EntCoef != sympolBest["cartpole"].ent {
		t.Errorf("CartPole's SYMPOL ent_coef %v, want the thesis's %v", c.EntCoef, sympolBest["cartpole"].ent)
	}
	if err := c.Set("critic_width", "256"); err != nil || c.CriticWidth != 256 {
		t.Errorf("--set critic_width=256 on CartPole: %v, width %d", err, c.CriticWidth)
	}
}

// TestSympolNote checks that the help of a protocol option lists the
// SYMPOL presets that change its default, read from the tables, and is
// empty for an option no preset changes.
func TestSympolNote(t *testing.T) {
	tests := []struct {
		name  string
		field func(c *Config) any
		want  string
	}{
		{"val_episodes", func(c *Config) any { return &c.ValEpisodes },
			"100 in the SYMPOL presets of CartPole-v1, MiniGrid-DoorKey-5x5-v0, MiniGrid-LavaGapS7-v0, MountainCarContinuous-v0, Pendulum-v1; 200 in the SYMPOL presets of Acrobot-v1, MiniGrid-Empty-Random-6x6-v0"},
		{"restart_below", func(c *Config) any { return &c.RestartBelow },
			"-100 in the SYMPOL preset of LunarLander-v2; 0.5 in the SYMPOL preset of MiniGrid-LavaGapS5-v0; 80 in the SYMPOL preset of MountainCarContinuous-v0"},
		{"n_eval_episodes", func(c *Config) any { return &c.EvalEpisodes }, ""},
	}
	for _, tt := range tests {
		if got := sympolNote(tt.field); got != tt.want {
			t.Errorf("%s: note %q, want %q", tt.name, got, tt.want)
		}
	}
}
