package ratetable

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	ok := `{"schema":1,"host":"h1","version":3,"sessions":[{"id":"s1","tenant":"t","dst":"10.0.0.2","paths":[{"id":1,"rate_bps":20000000},{"id":2,"rate_bps":10000000}]}]}`
	tests := []struct {
		name, key, value, wantErr string
	}{
		{"valid", "h1", ok, ""},
		{"empty sessions", "h1", `{"schema":1,"host":"h1","version":1,"sessions":[]}`, ""},
		{"key of another host", "h2", ok, "record key"},
		{"tombstone", "h1", ``, "tombstone"},
		{"not json", "h1", `{"schema":`, "malformed JSON"},
		{"trailing data", "h1", ok + `{}`, "trailing"},
		{"unknown field", "h1", `{"schema":1,"host":"h1","version":1,"sessions":[],"x":1}`, "unknown field"},
		{"schema 2", "h1", `{"schema":2,"host":"h1","version":1,"sessions":[]}`, "schema 2"},
		{"host field differs", "h1", `{"schema":1,"host":"h9","version":1,"sessions":[]}`, "host field"},
		{"version 0", "h1", `{"schema":1,"host":"h1","version":0,"sessions":[]}`, "version must be"},
		{"sessions missing", "h1", `{"schema":1,"host":"h1","version":1}`, "sessions is missing"},
		{"bad dst", "h1", strings.Replace(ok, "10.0.0.2", "10.0.0.300", 1), "not a unicast IPv4"},
		{"ipv6 dst", "h1", strings.Replace(ok, "10.0.0.2", "fe80::1", 1), "not a unicast IPv4"},
		{"path id too big", "h1", strings.Replace(ok, `"id":2,`, `"id":4095,`, 1), "out of range"},
		{"duplicate path", "h1", strings.Replace(ok, `"id":2,`, `"id":1,`, 1), "appears twice"},
		{"unpinned among several", "h1", strings.Replace(ok, `"id":2,`, `"id":0,`, 1), "only path"},
		{"rate zero", "h1", strings.Replace(ok, `20000000`, `0`, 1), "rate_bps 0"},
		{"negative rate", "h1", strings.Replace(ok, `20000000`, `-5`, 1), "malformed JSON"},
		{"bad split", "h1", strings.Replace(ok, `"tenant":"t",`, `"tenant":"t","split":"x",`, 1), "split"},
		{"no paths", "h1", `{"schema":1,"host":"h1","version":1,"sessions":[{"id":"s","tenant":"t","dst":"10.0.0.2","paths":[]}]}`, "0 paths"},
		{"same dst twice", "h1", `{"schema":1,"host":"h1","version":1,"sessions":[{"id":"a","tenant":"t","dst":"10.0.0.2","paths":[{"id":0,"rate_bps":10000}]},{"id":"b","tenant":"t","dst":"10.0.0.2","paths":[{"id":0,"rate_bps":10000}]}]}`, "same dst"},
		{"same id twice", "h1", `{"schema":1,"host":"h1","version":1,"sessions":[{"id":"a","tenant":"t","dst":"10.0.0.2","paths":[{"id":0,"rate_bps":10000}]},{"id":"a","tenant":"t","dst":"10.0.0.3","paths":[{"id":0,"rate_bps":10000}]}]}`, "twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Parse("h1", []byte(tc.key), []byte(tc.value))
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
			if tab != nil {
				t.Fatalf("a rejected record returned a table")
			}
		})
	}
}

func TestParseDefaultsAndTotals(t *testing.T) {
	tab, err := Parse("h1", []byte("h1"), []byte(`{"schema":1,"host":"h1","version":1,"sessions":[{"id":"s","tenant":"t","dst":"10.0.0.2","paths":[{"id":1,"rate_bps":2000},{"id":2,"rate_bps":10000}]}]}`))
	if err == nil {
		t.Fatalf("rate 2000 below the minimum was accepted")
	}
	tab, err = Parse("h1", []byte("h1"), []byte(`{"schema":1,"host":"h1","version":1,"sessions":[{"id":"s","tenant":"t","dst":"10.0.0.2","paths":[{"id":1,"rate_bps":20000},{"id":2,"rate_bps":10000}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if s := tab.Sessions[0]; s.Split != SplitPacket || s.TotalBps() != 30000 || s.DstAddr().String() != "10.0.0.2" {
		t.Fatalf("got %+v", s)
	}
}

func TestGate(t *testing.T) {
	steps := []struct {
		version    uint64
		wantReason string
	}{
		{5, ""}, {5, RejectDuplicate}, {4, RejectOutOfOrder}, {1, RejectOutOfOrder}, {6, ""}, {9, ""}, {6, RejectOutOfOrder},
	}
	var g Gate
	for i, s := range steps {
		reason, err := g.Check(&Table{Version: s.version})
		if reason != s.wantReason || (err == nil) != (s.wantReason == "") {
			t.Fatalf("step %d (version %d): reason %q err %v, want %q", i, s.version, reason, err, s.wantReason)
		}
		if err == nil {
			g.Commit(&Table{Version: s.version})
		}
	}
	if g.Applied() != 9 {
		t.Fatalf("applied %d, want 9", g.Applied())
	}
}
