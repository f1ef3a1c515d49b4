package datapath

import (
	"strings"
	"testing"
	"time"
)

func TestClassBuffer(t *testing.T) {
	tests := []struct {
		name          string
		rate          uint64
		burst, window time.Duration
		want          uint32
	}{
		{"no window: rate x burst above one GSO packet", 1e9, 2 * time.Millisecond, 0, 250000},
		{"no window: at least one GSO packet and a frame", 10e6, 2 * time.Millisecond, 0, minBufferBytes},
		{"window: rate x T", 10e6, 2 * time.Millisecond, 20 * time.Millisecond, 25000},
		{"window: a slow class still sends a full frame", 1e6, 2 * time.Millisecond, 10 * time.Millisecond, minWindowBytes},
		{"window: 1.25 Mbit/s x 40 ms", 1.25e6, 2 * time.Millisecond, 40 * time.Millisecond, 6250},
	}
	for _, tc := range tests {
		if got := classBuffer(tc.rate, tc.burst, tc.window); got != tc.want {
			t.Errorf("%s: %d bytes, want %d", tc.name, got, tc.want)
		}
	}
}

// Bad edge-window settings are refused before anything is installed.
func TestOpenRefusesBadEdgeWindows(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Ifname: "none0", Mode: Lossy, EdgeWindow: 20 * time.Millisecond, GSOMaxSegs: 0}, "gso_max_segs 1"},
		{Config{Ifname: "none0", Mode: Lossy, EdgeWindow: 20 * time.Millisecond, GSOMaxSegs: 64}, "gso_max_segs 1"},
		{Config{Ifname: "none0", Mode: Lossy, EdgeWindow: -time.Millisecond, GSOMaxSegs: 1}, "out of range"},
		{Config{Ifname: "none0", Mode: Lossy, EdgeWindow: time.Minute, GSOMaxSegs: 1}, "out of range"},
	}
	for _, tc := range tests {
		d, err := Open(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			if d != nil {
				d.Close()
			}
			t.Errorf("Open(%+v): %v, want an error with %q", tc.cfg, err, tc.want)
		}
	}
}
