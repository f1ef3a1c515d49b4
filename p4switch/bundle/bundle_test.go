package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	data, err := Create("../testdata/lang.p4")
	if err != nil {
		t.Fatal(err)
	}
	main, read, err := Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if main != "lang.p4" {
		t.Fatalf("main %q", main)
	}
	for _, f := range []string{"lang.p4", "inc/lang_types.p4"} {
		got, err := read(f)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(filepath.Join("../testdata", f))
		if string(got) != string(want) {
			t.Fatalf("%s differs", f)
		}
	}
	if _, err := read("../etc/passwd"); err == nil {
		t.Fatal("read outside the bundle succeeded")
	}
}

func TestSingleFileAndErrors(t *testing.T) {
	main, read, err := Open([]byte("#include <core.p4>\n"))
	if err != nil || main != "program.p4" {
		t.Fatalf("single file: %q %v", main, err)
	}
	if b, _ := read(main); !strings.HasPrefix(string(b), "#include") {
		t.Fatal("single file content")
	}
	if _, _, err := Open(nil); err == nil {
		t.Fatal("empty config accepted")
	}
	bad := make([]byte, 1024)
	copy(bad[257:], "ustar")
	if _, _, err := Open(bad); err == nil {
		t.Fatal("tar without MAIN accepted")
	}
}
