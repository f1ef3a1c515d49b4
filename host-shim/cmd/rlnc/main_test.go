package main

import (
	"flag"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/fairfabric/fairfabric/host-shim/ratetable"
	"github.com/fairfabric/fairfabric/host-shim/rlnc/transport"
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

func TestPathsHolderStartsThenUpdates(t *testing.T) {
	h := newPathsHolder()
	s1 := ratetable.Session{ID: "s1", Paths: []ratetable.Path{{ID: 1, RateBps: 40e6}}}
	s2 := ratetable.Session{ID: "s1", Paths: []ratetable.Path{{ID: 1, RateBps: 10e6}, {ID: 2, RateBps: 30e6}}}
	bad := ratetable.Session{ID: "s1", Paths: []ratetable.Path{{ID: 1, RateBps: 0}}}
	if err := h.apply(s1); err != nil {
		t.Fatal(err)
	}
	if got := <-h.first; len(got.Paths) != 1 {
		t.Fatalf("first table %+v", got)
	}
	if err := h.apply(s2); err != nil { // before the sender exists: kept
		t.Fatal(err)
	}
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := transport.NewSender(transport.Config{Session: 1}, transport.PathsOf(s1), transport.NewUDPLink(c, netip.MustParseAddrPort("127.0.0.1:9")), c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(0)
	if err := h.attach(s); err != nil {
		t.Fatalf("pending table not applied: %v", err)
	}
	if err := h.apply(bad); err == nil {
		t.Error("invalid rates applied")
	}
}
