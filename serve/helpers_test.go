package serve

import (
	"os"
	"testing"
)

var tempDirs []string

func osMkdirTemp() (string, error) {
	d, err := os.MkdirTemp("", "gdt-serve-test-")
	if err == nil {
		tempDirs = append(tempDirs, d)
	}
	return d, err
}

func writeFile(path string, b []byte) error { return os.WriteFile(path, b, 0o644) }

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}
