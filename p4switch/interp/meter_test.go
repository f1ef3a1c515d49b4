package interp

import (
	"testing"
	"time"
)

// TestTwoRateThreeColour follows RFC 2698 (colour blind) step by step.
func TestTwoRateThreeColour(t *testing.T) {
	m := &MeterCell{}
	if c := m.Execute(0, 1); c != Green {
		t.Fatalf("unconfigured meter gave %d", c)
	}
	m.SetConfig(&MeterConfig{CIR: 1000, CBurst: 2, PIR: 2000, PBurst: 4})
	want := []uint64{Green, Green, Yellow, Yellow, Red, Red}
	for i, w := range want {
		if c := m.Execute(0, 1); c != w {
			t.Fatalf("packet %d: colour %d, want %d", i, c, w)
		}
	}
	// after 1 ms: one committed token and two peak tokens
	now := time.Millisecond
	for i, w := range []uint64{Green, Yellow, Red} {
		if c := m.Execute(now, 1); c != w {
			t.Fatalf("refill packet %d: colour %d, want %d", i, c, w)
		}
	}
	// buckets never exceed their burst
	now += time.Hour
	for i, w := range []uint64{Green, Green, Yellow, Yellow, Red} {
		if c := m.Execute(now, 1); c != w {
			t.Fatalf("after idle, packet %d: colour %d, want %d", i, c, w)
		}
	}
	// byte meters charge the packet length
	m.SetConfig(&MeterConfig{CIR: 100, CBurst: 100, PIR: 200, PBurst: 300})
	if c := m.Execute(0, 150); c != Yellow {
		t.Fatalf("150 bytes against CBS 100 / PBS 300: colour %d, want yellow", c)
	}
}
