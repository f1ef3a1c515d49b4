package main

import "testing"

func TestRunRejectsBadFlags(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"port without interface", []string{"-i", "1@"}, 2},
		{"port zero", []string{"-i", "0@eth0"}, 2},
		{"port twice", []string{"-i", "1@a", "-i", "1@b"}, 2},
		{"bad per-port syntax", []string{"--port-rate", "fast"}, 2},
		{"bad log level", []string{"--log-level", "loud"}, 2},
		{"stray argument", []string{"extra"}, 2},
		{"bad default rate", []string{"--rate", "fast", "--admin-addr", ""}, 1},
		{"per-port setting for a missing port", []string{"--port-rate", "7=10M", "--admin-addr", ""}, 1},
		{"bad loss", []string{"-i", "1@lo", "--port-loss", "1=3", "--admin-addr", ""}, 1},
		{"negative poll spin", []string{"--poll-spin", "-1us", "--admin-addr", ""}, 1},
		{"missing interface", []string{"-i", "1@prnosuchif9", "--admin-addr", ""}, 1},
		{"cpu port is also an interface", []string{"-i", "5@lo", "--cpu-port", "5", "--admin-addr", ""}, 1},
	}
	for _, c := range cases {
		if got := runCmd(c.args); got != c.want {
			t.Errorf("%s: run %v = %d, want %d", c.name, c.args, got, c.want)
		}
	}
}

func TestPortCommandUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"set", "1"}, {"frobnicate"}, {"set", "1", "rate"}} {
		if got := portCmd(args); got != 2 {
			t.Errorf("port %v = %d, want 2", args, got)
		}
	}
	// Nothing listens on this address: a clear failure, exit 1.
	if got := portCmd([]string{"--addr", "127.0.0.1:1", "list"}); got != 1 {
		t.Errorf("port list against nothing = %d, want 1", got)
	}
}
