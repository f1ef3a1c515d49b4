package netio

import (
	"os/exec"
	"testing"
	"time"
)

// The peer of a veth going down takes this end's carrier away: each change is
// reported once, for the right port, and nothing is reported at the start.
func TestWatchCarrierReportsPeerDownAndUp(t *testing.T) {
	a, b := vethPair(t)
	type change struct {
		port uint32
		up   bool
	}
	got := make(chan change, 16)
	done := make(chan struct{})
	defer close(done)
	if err := WatchCarrier(map[uint32]string{7: a}, done, func(p uint32, up bool) { got <- change{p, up} }); err != nil {
		t.Fatal(err)
	}
	next := func() (change, bool) {
		select {
		case c := <-got:
			return c, true
		case <-time.After(5 * time.Second):
			return change{}, false
		}
	}
	steps := []struct {
		cmd  []string
		want change
	}{
		{[]string{"link", "set", b, "down"}, change{7, false}},
		{[]string{"link", "set", b, "up"}, change{7, true}},
		{[]string{"link", "set", a, "down"}, change{7, false}},
		{[]string{"link", "set", a, "up"}, change{7, true}},
	}
	for _, s := range steps {
		if out, err := exec.Command("ip", s.cmd...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v\n%s", s.cmd, err, out)
		}
		c, ok := next()
		if !ok || c != s.want {
			t.Fatalf("after ip %v: got %+v (reported %v), want %+v", s.cmd, c, ok, s.want)
		}
	}
	select {
	case c := <-got:
		t.Fatalf("an extra change was reported: %+v", c)
	case <-time.After(300 * time.Millisecond):
	}
}

func TestWatchCarrierMissingInterface(t *testing.T) {
	done := make(chan struct{})
	defer close(done)
	if err := WatchCarrier(map[uint32]string{1: "no-such-if0"}, done, func(uint32, bool) {}); err == nil {
		t.Fatal("no error for a missing interface")
	}
}
