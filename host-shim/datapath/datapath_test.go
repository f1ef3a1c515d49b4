package datapath

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/fairfabric/fairfabric/host-shim/ratetable"
)

// testNetns makes a namespace with a veth pair (hsdtA <-> hsdtB) and returns its path.
func testNetns(t *testing.T) string {
	t.Helper()
	needRoot(t)
	name := fmt.Sprintf("hs-dptest-%d", os.Getpid())
	run := func(args ...string) string {
		out, err := exec.Command("ip", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("ip %v: %v: %s", args, err, out)
		}
		return string(out)
	}
	run("netns", "add", name)
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", name).Run() })
	run("-n", name, "link", "add", "hsdtA", "type", "veth", "peer", "name", "hsdtB")
	run("-n", name, "link", "set", "hsdtA", "up")
	return "/var/run/netns/" + name
}

func tcShow(t *testing.T, ns, what string) string {
	t.Helper()
	name := ns[strings.LastIndex(ns, "/")+1:]
	out, err := exec.Command("ip", append([]string{"netns", "exec", name, "tc"}, strings.Fields(what)...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tc %s: %v: %s", what, err, out)
	}
	return string(out)
}

func table(version uint64, sessions ...ratetable.Session) *ratetable.Table {
	for i := range sessions {
		if sessions[i].Split == "" {
			sessions[i].Split = ratetable.SplitPacket
		}
	}
	return &ratetable.Table{Schema: 1, Host: "h", Version: version, Sessions: sessions}
}

func TestApplyInstallsChangesAndRemovesClasses(t *testing.T) {
	ns := testNetns(t)
	for _, mode := range []Mode{Lossless, Lossy} {
		t.Run(string(mode), func(t *testing.T) {
			dp, err := Open(Config{NetnsPath: ns, Ifname: "hsdtA", Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			defer dp.Close()
			leaf := map[Mode]string{Lossless: "pfifo", Lossy: "bfifo"}[mode]
			steps := []struct {
				name  string
				table *ratetable.Table
				want  []string // "rate" of each session class, in minor order (tagged paths: rate x 1514/1538, classRate)
			}{
				{"two sessions, three paths", table(1,
					ratetable.Session{ID: "a", Dst: "10.0.0.2", Paths: []ratetable.Path{{ID: 1, RateBps: 20e6}, {ID: 2, RateBps: 10e6}}},
					ratetable.Session{ID: "b", Dst: "10.0.0.3", Paths: []ratetable.Path{{ID: 0, RateBps: 5e6}}}),
					[]string{"19687Kbit", "9843Kbit", "5Mbit"}},
				{"rate change in place, session removed", table(2,
					ratetable.Session{ID: "a", Dst: "10.0.0.2", Paths: []ratetable.Path{{ID: 1, RateBps: 30e6}, {ID: 2, RateBps: 10e6}}}),
					[]string{"29531Kbit", "9843Kbit"}},
				{"empty table", table(3), nil},
			}
			for _, s := range steps {
				if err := dp.Apply(s.table); err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
				var got []string
				for _, line := range strings.Split(tcShow(t, ns, "class show dev hsdtA"), "\n") {
					f := strings.Fields(line)
					for i := 0; i+1 < len(f); i++ {
						if f[i] == "rate" && f[2] != "1:fffe" {
							got = append(got, f[i+1])
						}
					}
				}
				if strings.Join(got, ",") != strings.Join(s.want, ",") {
					t.Errorf("%s: class rates %v, want %v", s.name, got, s.want)
				}
				leaves := strings.Count(tcShow(t, ns, "qdisc show dev hsdtA"), "qdisc "+leaf)
				if leaves != len(s.want)+1 { // + the default class's
					t.Errorf("%s: %d %s leaves, want %d", s.name, leaves, leaf, len(s.want)+1)
				}
				stats, _, err := dp.Stats()
				if err != nil || len(stats) != len(s.want) {
					t.Errorf("%s: %d path stats (%v), want %d", s.name, len(stats), err, len(s.want))
				}
			}
			if got := tcShow(t, ns, "filter show dev hsdtA egress"); !strings.Contains(got, "ff_egress") {
				t.Errorf("egress program not attached: %s", got)
			}
		})
	}
	// Close removed everything it installed.
	if got := tcShow(t, ns, "qdisc show dev hsdtA"); strings.Contains(got, "htb") || strings.Contains(got, "clsact") {
		t.Errorf("after Close: %s", got)
	}
}

func TestOpenRejectsBadConfig(t *testing.T) {
	ns := testNetns(t)
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"unknown mode", Config{NetnsPath: ns, Ifname: "hsdtA", Mode: "fast"}, "mode"},
		{"missing interface", Config{NetnsPath: ns, Ifname: "nope0", Mode: Lossless}, "interface"},
		{"missing namespace", Config{NetnsPath: "/nonexistent/ns", Ifname: "hsdtA", Mode: Lossless}, "namespace"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dp, err := Open(tc.cfg)
			if err == nil {
				dp.Close()
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one about %q", err, tc.want)
			}
		})
	}
}

func TestGSOMaxSegsWhileOpenRestoredOnClose(t *testing.T) {
	ns := testNetns(t)
	name := ns[strings.LastIndex(ns, "/")+1:]
	segs := func() string {
		out, err := exec.Command("ip", "-n", name, "-d", "link", "show", "hsdtA").CombinedOutput()
		if err != nil {
			t.Fatalf("ip link show: %v: %s", err, out)
		}
		f := strings.Fields(string(out))
		for i := 0; i+1 < len(f); i++ {
			if f[i] == "gso_max_segs" {
				return f[i+1]
			}
		}
		t.Fatalf("no gso_max_segs in %s", out)
		return ""
	}
	before := segs()
	dp, err := Open(Config{NetnsPath: ns, Ifname: "hsdtA", Mode: Lossless, GSOMaxSegs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := segs(); got != "1" {
		t.Errorf("gso_max_segs while open: %s, want 1", got)
	}
	dp.Close()
	if got := segs(); got != before {
		t.Errorf("gso_max_segs after Close: %s, want %s as before", got, before)
	}
}
