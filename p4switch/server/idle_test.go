package server

import (
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

// idleProgram forwards by destination MAC; only table `flows` supports idle
// timeouts.
const idleProgram = `
#include <core.p4>
#include <v1model.p4>
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
struct headers_t { ethernet_t ethernet; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.ethernet); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t meta) { apply { } }
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action forward(bit<9> port) { sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }
    table flows {
        key = { hdr.ethernet.dst: exact; }
        actions = { forward; drop; }
        default_action = drop();
        support_timeout = true;
    }
    table plain {
        key = { hdr.ethernet.src: exact; }
        actions = { NoAction; }
        default_action = NoAction();
    }
    apply { plain.apply(); flows.apply(); }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.ethernet); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
`

func TestIdleTimeouts(t *testing.T) {
	h := newHarness(t, v1model.Load)
	st := h.primary(1)
	if err := h.setPipeline(1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, []byte(idleProgram)); err != nil {
		t.Fatal(err)
	}
	info := h.srv.P4Info()
	var flows, plain, fwd uint32
	for _, tb := range info.Tables {
		switch tb.Preamble.Name {
		case "I.flows":
			flows = tb.Preamble.Id
		case "I.plain":
			plain = tb.Preamble.Id
		}
	}
	for _, a := range info.Actions {
		if a.Preamble.Name == "I.forward" {
			fwd = a.Preamble.Id
		}
	}
	macA, macB := []byte{2, 0, 0, 0, 0, 0xa}, []byte{2, 0, 0, 0, 0, 0xb}
	entry := func(table uint32, mac []byte, timeout time.Duration) *p4v1.TableEntry {
		e := &p4v1.TableEntry{TableId: table, IdleTimeoutNs: int64(timeout),
			Match: []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: mac}}}}}
		if table == flows {
			e.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: fwd,
				Params: []*p4v1.Action_Param{{ParamId: 1, Value: []byte{2}}}}}}
		} else {
			e.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: info.Actions[0].Preamble.Id}}}
		}
		return e
	}
	// Invalid: a timeout on a table without support_timeout, a negative one.
	for name, e := range map[string]*p4v1.TableEntry{
		"no support_timeout": entry(plain, macA, time.Second),
		"negative":           entry(flows, macA, -time.Second),
	} {
		if got := errorDetails(t, h.write(1, upd(p4v1.Update_INSERT, e))); len(got) != 1 || got[0] != codes.InvalidArgument {
			t.Errorf("%s: %v, want [INVALID_ARGUMENT]", name, got)
		}
	}

	const timeout = 150 * time.Millisecond
	start := time.Now()
	if err := h.write(1, upd(p4v1.Update_INSERT, entry(flows, macA, timeout)),
		upd(p4v1.Update_INSERT, entry(flows, macB, time.Hour))); err != nil {
		t.Fatal(err)
	}
	// Reads report the time since the last hit when asked for it.
	es, err := h.read(ent(&p4v1.TableEntry{TableId: flows, TimeSinceLastHit: &p4v1.TableEntry_IdleTimeout{}}))
	if err != nil || len(es) != 2 {
		t.Fatalf("read: %v %v", es, err)
	}
	for _, e := range es {
		te := e.GetTableEntry()
		if te.TimeSinceLastHit == nil || te.TimeSinceLastHit.ElapsedNs < 0 || te.TimeSinceLastHit.ElapsedNs > int64(time.Since(start)) {
			t.Fatalf("time_since_last_hit of a fresh entry: %v", te.TimeSinceLastHit)
		}
	}
	if es, _ := h.read(ent(&p4v1.TableEntry{TableId: flows})); es[0].GetTableEntry().TimeSinceLastHit != nil {
		t.Fatal("time_since_last_hit reported without being asked for")
	}

	notification := func() *p4v1.IdleTimeoutNotification {
		return next(st, func(m *p4v1.StreamMessageResponse) (*p4v1.IdleTimeoutNotification, bool) {
			return m.GetIdleTimeoutNotification(), m.GetIdleTimeoutNotification() != nil
		})
	}
	expectA := func(what string) {
		t.Helper()
		n := notification()
		if len(n.TableEntry) != 1 || n.TableEntry[0].TableId != flows || n.TableEntry[0].IdleTimeoutNs != int64(timeout) ||
			string(n.TableEntry[0].Match[0].GetExact().Value) != string(macA) || n.Timestamp == 0 {
			t.Fatalf("%s: notification %v", what, n)
		}
	}
	noNotification := func(what string, within time.Duration) {
		t.Helper()
		select {
		case m := <-st.msgs:
			if m.GetIdleTimeoutNotification() != nil {
				t.Fatalf("%s: unexpected notification %v", what, m)
			}
		case <-time.After(within):
		}
	}
	expectA("first expiry")
	if since := time.Since(start); since < timeout {
		t.Fatalf("notified after %v, before the %v timeout", since, timeout)
	}
	// Once per expiry: the entry stays (not deleted) and stays quiet.
	noNotification("while still idle", 2*timeout)
	if es, _ := h.read(ent(&p4v1.TableEntry{TableId: flows})); len(es) != 2 {
		t.Fatalf("expired entry was deleted: %d entries", len(es))
	}
	// A hit re-arms it: the packet is forwarded, later the entry expires again.
	h.send(1, ethFrame(macA, macB, "hit"))
	if _, ok := h.receive(2, 5*time.Second); !ok {
		t.Fatal("packet for the idle entry was not forwarded")
	}
	hit := time.Now()
	expectA("after a hit")
	// (the hit was recorded a little before the frame came out: allow for it)
	if since := time.Since(hit); since < timeout/2 {
		t.Fatalf("re-armed entry expired %v after its hit", since)
	}
	// So does a MODIFY.
	if err := h.write(1, upd(p4v1.Update_MODIFY, entry(flows, macA, timeout))); err != nil {
		t.Fatal(err)
	}
	expectA("after a MODIFY")
	// A deleted entry says nothing more.
	if err := h.write(1, upd(p4v1.Update_DELETE, entry(flows, macA, 0))); err != nil {
		t.Fatal(err)
	}
	if err := h.write(1, upd(p4v1.Update_MODIFY, entry(flows, macB, timeout))); err != nil {
		t.Fatal(err)
	}
	n := notification()
	if len(n.TableEntry) != 1 || string(n.TableEntry[0].Match[0].GetExact().Value) != string(macB) {
		t.Fatalf("after deleting A and shortening B: %v", n)
	}
}
