package v1model

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// TestPipelinesFromOneProgramAreIndependent: two pipelines made from one
// compiled program (two switches running the same program) have their own
// tables, counters, meters and registers.
func TestPipelinesFromOneProgramAreIndependent(t *testing.T) {
	a := newFixture(t)
	b := &fixture{t: t, p: New(a.p.Compiled(), 0), info: a.info}
	if !proto.Equal(a.p.P4Info(), b.p.P4Info()) {
		t.Fatal("the two pipelines have different P4Info")
	}

	// tables: an entry written to a is not in b, and b accepts the same entry
	e := a.lpmEntry([]byte{10, 0, 0, 0}, 8, 3)
	if err := a.write(p4v1.Update_INSERT, tableEntity(e)); err != nil {
		t.Fatal(err)
	}
	allEntries := tableEntity(&p4v1.TableEntry{TableId: a.id("MyIngress.ipv4_lpm")})
	if got := b.read(allEntries); len(got) != 0 {
		t.Fatalf("b sees a's entries: %v", got)
	}
	if err := b.write(p4v1.Update_INSERT, tableEntity(e)); err != nil {
		t.Fatalf("b refused the entry a holds: %v", err)
	}
	if err := b.write(p4v1.Update_DELETE, tableEntity(e)); err != nil {
		t.Fatal(err)
	}
	if got := a.read(allEntries); len(got) != 1 {
		t.Fatalf("deleting from b changed a: %d entries", len(got))
	}

	// counters and registers: a packet through a counts in a only
	a.p.Ingress(target.Arrival{Port: 1, Data: make([]byte, 14+8)})
	ctr := &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: a.id("MyIngress.pkt_counter"), Index: &p4v1.Index{Index: 0}}}}
	if got := a.read(ctr)[0].GetCounterEntry().GetData().GetPacketCount(); got != 1 {
		t.Fatalf("a's counter: %d packets, want 1", got)
	}
	if got := b.read(ctr)[0].GetCounterEntry().GetData().GetPacketCount(); got != 0 {
		t.Fatalf("b's counter: %d packets, want 0", got)
	}
	reg := &p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: &p4v1.RegisterEntry{RegisterId: a.id("MyIngress.regs"), Index: &p4v1.Index{Index: 0}}}}
	if got := b.read(reg)[0].GetRegisterEntry().GetData().GetBitstring(); string(got) != "\x00" {
		t.Fatalf("b's register holds a's value %x", got)
	}

	// meters
	me := &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: &p4v1.MeterEntry{MeterId: a.id("MyIngress.port_meter"), Index: &p4v1.Index{Index: 2},
		Config: &p4v1.MeterConfig{Cir: 100, Cburst: 10, Pir: 200, Pburst: 20}}}}
	if err := a.write(p4v1.Update_MODIFY, me); err != nil {
		t.Fatal(err)
	}
	me.GetMeterEntry().Config = nil
	if got := b.read(me)[0].GetMeterEntry().GetConfig(); got != nil {
		t.Fatalf("b's meter has a's config %v", got)
	}
}

// Pipelines may be made from one compiled program concurrently.
func TestNewConcurrently(t *testing.T) {
	c, err := CompileFile("../testdata/p4info_names.p4", nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *Pipeline)
	for i := 0; i < 4; i++ {
		go func() { done <- New(c, 0) }()
	}
	seen := map[*Compiled]bool{}
	for i := 0; i < 4; i++ {
		p := <-done
		if seen[p.Compiled()] {
			t.Fatal("two pipelines share a compiled program")
		}
		seen[p.Compiled()] = true
	}
}
