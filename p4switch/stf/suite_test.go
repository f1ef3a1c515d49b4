package stf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSuite runs every testdata/NAME.stf against testdata/NAME.p4.
func TestSuite(t *testing.T) {
	files, err := filepath.Glob("../testdata/*.stf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no STF files: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".stf")
		t.Run(name, func(t *testing.T) {
			prog := strings.TrimSuffix(f, ".stf") + ".p4"
			if _, err := os.Stat(prog); err != nil {
				t.Fatalf("no program for %s: %v", f, err)
			}
			if err := RunFile(prog, f); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestMismatchIsReported makes sure a wrong expectation fails with a diff.
func TestMismatchIsReported(t *testing.T) {
	text, err := os.ReadFile("../testdata/l3.stf")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(text), "expect 3 aabbccddeeff", "expect 3 aabbccddeefe", 1)
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.stf")
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	err = RunFile("../testdata/l3.p4", path)
	if err == nil || !strings.Contains(err.Error(), "port 3 packet 0: differs") {
		t.Fatalf("expected a diff for port 3, got %v", err)
	}
	// a missing packet is reported too
	missing := string(text) + "\npacket 1 000000000001 000000000002 0800 45000014 00010000 4006 0000 0a000001 0a000003\n"
	os.WriteFile(path, []byte(missing), 0o644)
	err = RunFile("../testdata/l3.p4", path)
	if err == nil || !strings.Contains(err.Error(), "unexpected packet") {
		t.Fatalf("expected an unexpected-packet report, got %v", err)
	}
}
