package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairfabric/fairfabric/p4switch/p4/check"
	"github.com/fairfabric/fairfabric/p4switch/p4/frontend"
)

const prelude = "#include <core.p4>\n#include <v1model.p4>\n"

// frontEnd runs preprocessing, parsing and checking on src written to a file called prog.p4.
func frontEnd(t *testing.T, src string) error {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "prog.p4")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := frontend.ParseFile(path, nil)
	if err != nil {
		return err
	}
	_, err = check.Check(prog)
	return err
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"undeclared", prelude + "control C() { apply { x = 1; } }\n", "prog.p4:3:23: x is not declared"},
		{"width mismatch", prelude + "control C() { apply { bit<16> a = 1; bit<8> b = a; } }\n", "prog.p4:3:49: cannot use a value of type bit<16> as bit<8>"},
		{"bad operands", prelude + "control C() { apply { bit<8> a = 1; bit<16> b = 2; bool c = a == b; } }\n", "prog.p4:3:63: cannot compare bit<8> and bit<16>"},
		{"no field", prelude + "header h_t { bit<8> f; }\ncontrol C(inout h_t h) { apply { h.g = 1; } }\n", "prog.p4:4:35: header h_t has no field g"},
		{"syntax", prelude + "control C() { apply { if (true { } } }\n", "prog.p4:3:32: expected \")\""},
		{"unknown type", prelude + "struct s { foo_t f; }\n", "prog.p4:3:12: unknown type foo_t"},
		{"state", prelude + "parser P(packet_in b) { state start { transition nowhere; } }\n", "prog.p4:3:25: no state nowhere in parser P"},
		{"no start", prelude + "parser P(packet_in b) { state s1 { transition accept; } }\n", "prog.p4:3:1: parser P has no start state"},
		{"assign to in", prelude + "control C(in bit<8> x) { apply { x = 1; } }\n", "prog.p4:3:34: cannot assign to this expression"},
		{"table default", prelude + "control C() { action a() {} action b() {} table t { actions = { a; } default_action = b(); } apply { t.apply(); } }\n", "default action b is not in the actions of table t"},
		{"slice range", prelude + "control C() { apply { bit<8> a = 1; bit<4> b = a[9:6]; } }\n", "slice [9:6] out of range for bit<8>"},
		{"bad include", "#include \"missing.p4\"\n", "prog.p4:1:1: cannot include \"missing.p4\""},
		{"unterminated if", "#ifdef X\n", "prog.p4:1:1: missing #endif"},
		{"no main", prelude + "const bit<8> x = 1;\n", "no package instance called main"},
		{"line directive", prelude + "#line 100 \"other.p4\"\ncontrol C() { apply { y = 1; } }\n", "other.p4:100:23: y is not declared"},
		{"call arity", prelude + "control C() { action a(bit<8> x) {} apply { a(1, 2); } }\n", "too many arguments"},
		{"switch label", prelude + "control C() { action a() {} action b() {} table t { actions = { a; } } apply { switch (t.apply().action_run) { b: {} } } }\n", "action b is not an action of table t"},
		{"duplicate", prelude + "const bit<8> x = 1;\nconst bit<8> x = 2;\n", "prog.p4:4:1: x is declared twice"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := frontEnd(t, c.src)
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %q, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestValidProgramsPass(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/*.p4")
	if len(files) == 0 {
		t.Fatal("no test programs")
	}
	for _, f := range files {
		prog, err := frontend.ParseFile(f, nil)
		if err == nil {
			_, err = check.Check(prog)
		}
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestOptionalParameters: an @optional extern parameter may be left out, a
// required one may not.
func TestOptionalParameters(t *testing.T) {
	decl := prelude + "extern E { E(); bit<16> f(in bit<8> a, @optional in bool b); }\n"
	ok := decl + "control C(inout bit<16> r) { E() e; apply { r = e.f(1); r = e.f(1, true); } }\n"
	// the program has no main: that must be its only error
	if err := frontEnd(t, ok); err == nil || strings.Contains(err.Error(), "no method") || !strings.Contains(err.Error(), "no package instance called main") {
		t.Fatalf("optional parameter not accepted: %v", err)
	}
	bad := decl + "control C(inout bit<16> r) { E() e; apply { r = e.f(); } }\n"
	if err := frontEnd(t, bad); err == nil || !strings.Contains(err.Error(), "has no method f taking 0 arguments") {
		t.Fatalf("missing required argument: got %v", err)
	}
}

// TestEnumKeysetInUnderlyingType: a key of a serializable enum type may be
// matched with values of the enum's underlying type (p4c's
// table-entries-ser-enum-bmv2), but not with values of another width.
func TestEnumKeysetInUnderlyingType(t *testing.T) {
	table := func(entry string) string {
		return prelude + "enum bit<16> E { A = 10, B = 0xab00 }\n" +
			"control C(in E k) { action a() {} table t { key = { k : ternary; } actions = { a; }\n" +
			"const entries = { " + entry + " : a(); } } apply { t.apply(); } }\n"
	}
	for _, entry := range []string{"E.A", "(bit<16>)E.B &&& 0xff00", "16w0xab00 &&& 16w0xff00"} {
		// the program has no main: that must be its only error
		if err := frontEnd(t, table(entry)); err == nil || !strings.Contains(err.Error(), "no package instance called main") || strings.Contains(err.Error(), "cannot use") {
			t.Errorf("keyset %s: got %v", entry, err)
		}
	}
	if err := frontEnd(t, table("8w1 &&& 8w1")); err == nil || !strings.Contains(err.Error(), "cannot use a value of type bit<8> as enum E") {
		t.Errorf("keyset of another width: got %v", err)
	}
}
