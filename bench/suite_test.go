package bench

import (
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/datasets"
	"github.com/google/go-cmp/cmp"
)

func TestSuiteSelect(t *testing.T) {
	s := &Suite{Name: "grande", Entries: []datasets.SuiteEntry{
		{Dataset: "grande/wdbc"}, {Dataset: "grande/PhishingWebsites"}, {Dataset: "grande/adult"},
		{Dataset: "other/adult"},
	}}
	tests := []struct {
		only    []string
		want    []string
		wantErr string
	}{
		{only: nil, want: []string{"grande/wdbc", "grande/PhishingWebsites", "grande/adult", "other/adult"}},
		{only: []string{"grande/adult", "grande/wdbc"}, want: []string{"grande/wdbc", "grande/adult"}},
		{only: []string{"PhishingWebsites"}, want: []string{"grande/PhishingWebsites"}},
		{only: []string{"phishingwebsites", "wdbc"}, want: []string{"grande/wdbc", "grande/PhishingWebsites"}},
		{only: []string{"GRANDE/WDBC"}, want: []string{"grande/wdbc"}},
		{only: []string{"adult"}, wantErr: `dataset "adult" is ambiguous (matches grande/adult, other/adult)`},
		{only: []string{"iris"}, wantErr: `suite grande has no dataset "iris" (it has: grande/wdbc,`},
	}
	for _, tc := range tests {
		got, err := s.Select(tc.only)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Select(%q): error %v, want one containing %q", tc.only, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Select(%q): %v", tc.only, err)
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("Select(%q) (-want +got):\n%s", tc.only, d)
		}
	}
}
