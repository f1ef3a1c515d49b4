package stftest

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fairfabric/fairfabric/p4switch/stf"
)

func p4Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "p4")
}

// TestSTF runs every .stf under pipeconfs/p4/tests against the test build
// (tests/fabric_test.p4: fabric.p4 with the test clock).
func TestSTF(t *testing.T) {
	tests, err := filepath.Glob(filepath.Join(p4Dir(), "tests", "*.stf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) == 0 {
		t.Fatal("no STF tests found")
	}
	program := filepath.Join(p4Dir(), "tests", "fabric_test.p4")
	for _, path := range tests {
		path := path
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			if err := stf.RunFile(program, path); err != nil {
				t.Fatal(err)
			}
		})
	}
}
