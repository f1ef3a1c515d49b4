package agent

import (
	"fmt"
	"io"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/control"
	"github.com/fairfabric/fairfabric/host-shim/datapath"
	"github.com/fairfabric/fairfabric/host-shim/telemetry"
)

func newAgent(t *testing.T) *Agent {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatal("the agent test needs root (netlink, eBPF)")
	}
	name := fmt.Sprintf("hs-agtest-%d", os.Getpid())
	for _, args := range [][]string{{"netns", "add", name}, {"-n", name, "link", "add", "hsagA", "type", "veth", "peer", "name", "hsagB"}} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v %s", args, err, out)
		}
	}
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", name).Run() })
	dp, err := datapath.Open(datapath.Config{NetnsPath: "/var/run/netns/" + name, Ifname: "hsagA", Mode: datapath.Lossless})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dp.Close)
	prod, err := telemetry.NewProducer([]string{"127.0.0.1:1"}, 100) // no broker: records stay buffered
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { prod.Close(10 * time.Millisecond) })
	return New(Config{Host: "h1", Addr: netip.MustParseAddr("10.0.0.1"), Period: time.Second, ProcNet: "/proc/self/net", Mode: datapath.Lossless}, dp, prod)
}

func rec(value string) control.Record {
	return control.Record{Key: []byte("h1"), Value: []byte(value), Timestamp: time.Now()}
}

func tableJSON(version int, rate int) string {
	return fmt.Sprintf(`{"schema":1,"host":"h1","version":%d,"sessions":[{"id":"s","tenant":"t","dst":"10.0.0.2","paths":[{"id":1,"rate_bps":%d}]}]}`, version, rate)
}

func TestHandleRatesAdmitsOnlyNewerValidTables(t *testing.T) {
	a := newAgent(t)
	steps := []struct {
		value       string
		wantVersion uint64
		wantRate    uint64
	}{
		{tableJSON(3, 10e6), 3, 10e6},
		{`{"schema":1`, 3, 10e6},                                          // malformed
		{tableJSON(3, 99e6), 3, 10e6},                                     // duplicate
		{tableJSON(2, 99e6), 3, 10e6},                                     // out of order
		{tableJSON(7, 20e6), 7, 20e6},                                     // newer
		{strings.Replace(tableJSON(8, 30e6), `"h1"`, `"h2"`, 1), 7, 20e6}, // another host in the value
	}
	for i, s := range steps {
		a.HandleRates(rec(s.value))
		h := a.Health()
		cur := a.dp.Current()
		if h.RatesVersion != s.wantVersion || cur == nil || cur.Sessions[0].Paths[0].RateBps != s.wantRate {
			t.Fatalf("step %d: version %d rate %v, want %d and %d", i, h.RatesVersion, cur, s.wantVersion, s.wantRate)
		}
	}
	h := a.Health()
	want := map[string]uint64{"malformed": 2, "duplicate": 1, "out_of_order": 1}
	if fmt.Sprint(h.Rejected) != fmt.Sprint(want) || h.Applied != 2 {
		t.Fatalf("health %+v, want rejected %v and 2 applied", h, want)
	}

	// one period: stats and pathbytes records are made (and buffered: no broker)
	a.report(time.Now().Add(-time.Second), time.Now())
	if a.lastStats.RatesVersion != 7 || len(a.lastStats.Paths) != 1 || a.lastStats.Paths[0].AllocatedBps != 20e6 {
		t.Fatalf("stats %+v", a.lastStats)
	}
	if d := a.prod.Delivery(); d.Buffered != 2 {
		t.Fatalf("delivery %+v, want 2 records buffered", d)
	}
	w := httptest.NewRecorder()
	a.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(w.Result().Body)
	for _, line := range []string{"ff_shim_rates_version 7", `ff_shim_rates_rejected_total{reason="malformed"} 2`, `ff_shim_path_sent_bytes_total{session="s",path="1"} 0`} {
		if !strings.Contains(string(body), line) {
			t.Errorf("/metrics lacks %q:\n%s", line, body)
		}
	}
	w = httptest.NewRecorder()
	a.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/rates", nil))
	body, _ = io.ReadAll(w.Result().Body)
	if !strings.Contains(string(body), `"version":7`) || !strings.Contains(string(body), `"rate_bps":20000000`) {
		t.Errorf("/rates is not the table in force (version 7, 20 Mbit/s): %s", body)
	}
}

func TestPathBytesEntriesAreKeyedBySourceDestinationAndPath(t *testing.T) {
	a := netip.MustParseAddr
	key := func(src, dst string, path int) datapath.RecvKey {
		return datapath.RecvKey{Src: a(src), Dst: a(dst), Path: path}
	}
	tests := []struct {
		name      string
		prev, cur map[datapath.RecvKey]datapath.RecvCounters
		want      []string // src>dst/path packets ip payload rate
	}{
		{"nothing received", nil, map[datapath.RecvKey]datapath.RecvCounters{}, nil},
		{"the host and two of its VMs from one sender are three pairs", nil, map[datapath.RecvKey]datapath.RecvCounters{
			key("10.0.0.1", "10.0.0.16", 1):    {Packets: 2, IPBytes: 3000, PayloadBytes: 2800},
			key("10.0.0.1", "10.200.1.2", 1):   {Packets: 1, IPBytes: 1500, PayloadBytes: 1400},
			key("10.0.0.1", "10.200.1.2", 0):   {Packets: 1, IPBytes: 100, PayloadBytes: 72},
			key("10.200.0.2", "10.200.1.2", 3): {Packets: 4, IPBytes: 1000, PayloadBytes: 800},
		}, []string{
			"10.0.0.1>10.0.0.16/1 2 3000 2800 24000",
			"10.0.0.1>10.200.1.2/0 1 100 72 800",
			"10.0.0.1>10.200.1.2/1 1 1500 1400 12000",
			"10.200.0.2>10.200.1.2/3 4 1000 800 8000",
		}},
		{"only what changed since the last period, as differences", map[datapath.RecvKey]datapath.RecvCounters{
			key("10.0.0.1", "10.0.0.16", 1):  {Packets: 2, IPBytes: 3000, PayloadBytes: 2800},
			key("10.0.0.1", "10.200.1.2", 1): {Packets: 1, IPBytes: 1500, PayloadBytes: 1400},
		}, map[datapath.RecvKey]datapath.RecvCounters{
			key("10.0.0.1", "10.0.0.16", 1):  {Packets: 2, IPBytes: 3000, PayloadBytes: 2800},
			key("10.0.0.1", "10.200.1.2", 1): {Packets: 3, IPBytes: 4500, PayloadBytes: 4200},
		}, []string{"10.0.0.1>10.200.1.2/1 2 3000 2800 24000"}},
		{"multicast and broadcast are no session", nil, map[datapath.RecvKey]datapath.RecvCounters{
			key("10.0.0.1", "224.0.0.251", 0):     {Packets: 1, IPBytes: 100},
			key("10.0.0.1", "255.255.255.255", 0): {Packets: 1, IPBytes: 100},
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range pathBytesEntries(tc.prev, tc.cur, time.Second) {
				got = append(got, fmt.Sprintf("%s>%s/%d %d %d %d %.0f", e.Src, e.Dst, e.Path, e.Packets, e.IPBytes, e.PayloadBytes, e.RateBps))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
