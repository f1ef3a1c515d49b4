package stftest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairfabric/fairfabric/p4switch/p4info"
	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

// TestP4InfoIsUpToDate regenerates the P4Info of fabric.p4 as `p4switch p4info`
// does and compares it with pipeconfs/p4/p4info.txt, which the ONOS pipeconf
// ships. Regenerate with:
//
//	go run ./p4switch/cmd/p4switch p4info pipeconfs/p4/fabric.p4 > pipeconfs/p4/p4info.txt
func TestP4InfoIsUpToDate(t *testing.T) {
	c, err := v1model.CompileFile(filepath.Join(p4Dir(), "fabric.p4"), nil)
	if err != nil {
		t.Fatal(err)
	}
	generated := p4info.Text(c.P4Info)
	checkedIn, err := os.ReadFile(filepath.Join(p4Dir(), "p4info.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if generated == string(checkedIn) {
		return
	}
	gl, cl := strings.Split(generated, "\n"), strings.Split(string(checkedIn), "\n")
	for i := 0; i < len(gl) || i < len(cl); i++ {
		var g, c string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(cl) {
			c = cl[i]
		}
		if g != c {
			t.Fatalf("pipeconfs/p4/p4info.txt is stale (first difference at line %d):\n generated:  %q\n checked in: %q\n"+
				"regenerate: go run ./p4switch/cmd/p4switch p4info pipeconfs/p4/fabric.p4 > pipeconfs/p4/p4info.txt",
				i+1, g, c)
		}
	}
}

// TestP4InfoDescribesTheControllerHeaders checks the parts of the P4Info the
// controllers depend on besides names: the packet-in/out header layouts.
func TestP4InfoDescribesTheControllerHeaders(t *testing.T) {
	c, err := v1model.CompileFile(filepath.Join(p4Dir(), "fabric.p4"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"packet_out": "egress_port:9 do_forward:1 _pad:6",
		"packet_in":  "ingress_port:9 _pad0:7 reason:8 event_port:9 _pad1:7 metric:8 direction:8 value:32",
	}
	for _, h := range c.P4Info.GetControllerPacketMetadata() {
		var fields []string
		for _, m := range h.GetMetadata() {
			fields = append(fields, m.GetName()+":"+strconv.Itoa(int(m.GetBitwidth())))
		}
		name := h.GetPreamble().GetName()
		if got := strings.Join(fields, " "); got != want[name] {
			t.Errorf("%s = %q, want %q", name, got, want[name])
		}
		delete(want, name)
	}
	if len(want) != 0 {
		t.Errorf("missing controller headers: %v", want)
	}
}

// TestEveryTableHasADirectCounter: the monitor and the GUI show per-table
// hits, so every table of fabric.p4 counts its hits.
func TestEveryTableHasADirectCounter(t *testing.T) {
	c, err := v1model.CompileFile(filepath.Join(p4Dir(), "fabric.p4"), nil)
	if err != nil {
		t.Fatal(err)
	}
	counted := map[uint32]bool{}
	for _, dc := range c.P4Info.GetDirectCounters() {
		counted[dc.GetDirectTableId()] = true
	}
	for _, tb := range c.P4Info.GetTables() {
		if !counted[tb.GetPreamble().GetId()] {
			t.Errorf("table %s has no direct counter", tb.GetPreamble().GetName())
		}
	}
	if len(c.P4Info.GetTables()) == 0 {
		t.Fatal("no tables")
	}
}
