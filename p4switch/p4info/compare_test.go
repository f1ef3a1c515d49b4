package p4info

import (
	"strings"
	"testing"
)

const compareBase = `pkg_info { arch: "v1model" }
tables { preamble { id: 1 name: "c.t" alias: "t" } action_refs { id: 7 } initial_default_action { action_id: 7 } size: 1024 }
actions { preamble { id: 7 name: "c.a" alias: "a" } params { id: 1 name: "x" bitwidth: 8 } }
actions { preamble { id: 8 name: "c.b" alias: "b" } }
`

// compareGot is what a p4c version that annotated core actions with
// @corelib wrote for compareBase's program.
const compareGot = `pkg_info { arch: "v1model" }
tables { preamble { id: 1 name: "c.t" alias: "t" } action_refs { id: 7 } initial_default_action { action_id: 7 } size: 1024 }
actions { preamble { id: 7 name: "c.a" alias: "a" } params { id: 1 name: "x" bitwidth: 8 } }
actions { preamble { id: 8 name: "c.b" alias: "b" annotations: "@corelib" } }
`

func TestDiff(t *testing.T) {
	cases := []struct {
		name string
		want string // text of the expected P4Info
		diff string // expected difference lines, joined with "|"
	}{
		{"equal", compareBase, ""},
		{"order of actions does not matter", strings.Replace(compareBase,
			`actions { preamble { id: 7 name: "c.a" alias: "a" } params { id: 1 name: "x" bitwidth: 8 } }
actions { preamble { id: 8 name: "c.b" alias: "b" } }`,
			`actions { preamble { id: 8 name: "c.b" alias: "b" } }
actions { preamble { id: 7 name: "c.a" alias: "a" } params { id: 1 name: "x" bitwidth: 8 } }`, 1), ""},
		{"scalar", strings.Replace(compareBase, "size: 1024", "size: 512", 1),
			"tables[c.t].size: want 512, got 1024"},
		{"missing and unexpected", strings.Replace(compareBase, `name: "c.b" alias: "b"`, `name: "c.z" alias: "z"`, 1),
			"actions[c.z]: missing|actions[c.b]: unexpected"},
		{"nested field", strings.Replace(compareBase, "bitwidth: 8", "bitwidth: 9", 1),
			"actions[c.a].params[x].bitwidth: want 9, got 8"},
		{"legacy initial_default_action_id", strings.Replace(compareBase,
			"initial_default_action { action_id: 7 }", "initial_default_action_id: 7", 1), ""},
		{"output older than initial_default_action", strings.Replace(compareBase,
			"initial_default_action { action_id: 7 }", "", 1), ""},
		{"output with @corelib", strings.Replace(compareBase, `alias: "b" }`, `alias: "b" annotations: "@corelib" }`, 1), ""},
		{"other annotations still count", strings.Replace(compareBase, `alias: "a" }`, `alias: "a" annotations: "@x" }`, 1),
			`actions[c.a].preamble.annotations: want ["@x"], got []`},
	}
	got, err := ParseText(compareGot)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := ParseText(tc.want)
			if err != nil {
				t.Fatal(err)
			}
			if d := strings.Join(Diff(want, got), "|"); d != tc.diff {
				t.Fatalf("diff = %q, want %q", d, tc.diff)
			}
		})
	}
}

func TestParseTextRejectsGarbage(t *testing.T) {
	if _, err := ParseText("tables { nonsense: 1 }"); err == nil {
		t.Fatal("expected an error for an unknown field")
	}
}
