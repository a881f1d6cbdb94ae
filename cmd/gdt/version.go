package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// buildVersion is what `gdt --version` prints: the module version, the
// VCS commit the binary was built from (when the build recorded it) and
// the Go version.
type buildVersion struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Time     string `json:"commit_time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
}

func readVersion() buildVersion {
	v := buildVersion{Module: "github.com/gdt-ml/gdt", Version: "(unknown)", Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Path != "" {
		v.Module = bi.Main.Path
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

func printVersion(w io.Writer, asJSON bool) int {
	v := readVersion()
	if asJSON {
		if err := writeJSON(w, v); err != nil {
			return 1
		}
		return 0
	}
	fmt.Fprintf(w, "gdt %s %s", v.Module, v.Version)
	if v.Commit != "" {
		fmt.Fprintf(w, " commit %s", v.Commit)
		if v.Time != "" {
			fmt.Fprintf(w, " (%s)", v.Time)
		}
		if v.Modified {
			fmt.Fprint(w, " with local changes")
		}
	}
	fmt.Fprintf(w, " %s %s/%s\n", v.Go, runtime.GOOS, runtime.GOARCH)
	return 0
}
