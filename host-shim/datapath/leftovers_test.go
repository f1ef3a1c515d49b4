package datapath

import (
	"strings"
	"testing"

	"github.com/fairfabric/fairfabric/host-shim/ratetable"
)

// A shim killed with -9 leaves its qdiscs, classes and filters in the kernel; the next
// shim on the interface must open it anyway and start from a clean state.
func TestOpenAfterAShimDiedWithoutClosing(t *testing.T) {
	ns := testNetns(t)
	dead, err := Open(Config{NetnsPath: ns, Ifname: "hsdtA", Mode: Lossless})
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close() // after the new one: by then there is nothing of its own left to remove
	if err := dead.Apply(table(1, ratetable.Session{ID: "a", Dst: "10.0.0.2",
		Paths: []ratetable.Path{{ID: 0, RateBps: 5e6}}})); err != nil {
		t.Fatal(err)
	}
	if classes := tcShow(t, ns, "class show dev hsdtA"); strings.Count(classes, "class htb") != 2 {
		t.Fatalf("before: want the default and one session class, got:\n%s", classes)
	}

	dp, err := Open(Config{NetnsPath: ns, Ifname: "hsdtA", Mode: Lossless}) // "dead" never closed
	if err != nil {
		t.Fatalf("open after a shim that did not close: %v", err)
	}
	defer dp.Close()
	if classes := tcShow(t, ns, "class show dev hsdtA"); strings.Count(classes, "class htb") != 1 {
		t.Fatalf("after: want only the default class, got:\n%s", classes)
	}
	for _, dir := range []string{"egress", "ingress"} {
		if filters := tcShow(t, ns, "filter show dev hsdtA "+dir); strings.Count(filters, "name ff_"+dir+" ") != 1 {
			t.Fatalf("%s: want one bpf filter, got:\n%s", dir, filters)
		}
	}
	if err := dp.Apply(table(2, ratetable.Session{ID: "a", Dst: "10.0.0.2",
		Paths: []ratetable.Path{{ID: 0, RateBps: 7e6}}})); err != nil {
		t.Fatal(err)
	}
	if classes := tcShow(t, ns, "class show dev hsdtA"); !strings.Contains(classes, "rate 7Mbit") {
		t.Fatalf("the new shim's table is not in force:\n%s", classes)
	}
}
