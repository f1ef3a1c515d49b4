package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

func TestLoadSession(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"schema":1,"host":"h1","version":3,"sessions":[{"id":"s1","tenant":"t","dst":"10.0.0.2","paths":[{"id":1,"rate_bps":40000000},{"id":2,"rate_bps":20000000}]}]}`)
	s, err := loadSession(good, "h1", "s1")
	if err != nil || len(s.Paths) != 2 || s.Paths[1].RateBps != 20e6 {
		t.Fatalf("good table: %+v %v", s, err)
	}
	for name, c := range map[string]struct{ file, host, id string }{
		"other host":     {good, "h2", "s1"},
		"unknown id":     {good, "h1", "s9"},
		"missing file":   {filepath.Join(dir, "none.json"), "h1", "s1"},
		"invalid table":  {write("bad.json", `{"schema":2,"host":"h1","version":1,"sessions":[]}`), "h1", "s1"},
		"malformed json": {write("junk.json", `{`), "h1", "s1"},
	} {
		if _, err := loadSession(c.file, c.host, c.id); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestSessionIDFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want uint32
		ok   bool
	}{
		{[]string{"-session", "s1"}, SessionID("s1"), true},
		{[]string{"-session", "s1", "-session-id", "5"}, 5, true},
		{[]string{"-session-id", "4294967296"}, 0, false},
		{nil, 0, false},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		cf := commonFlags(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		cfg, err := cf.config()
		if (err == nil) != c.ok || (c.ok && cfg.Session != c.want) {
			t.Errorf("%v: session %d err %v", c.args, cfg.Session, err)
		}
	}
	if SessionID("s1") == SessionID("s2") {
		t.Error("different sessions hash alike")
	}
}
