package server

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

func (l *l3) writeAtomic(a p4v1.WriteRequest_Atomicity, updates ...*p4v1.Update) error {
	_, err := l.client.Write(context.Background(), &p4v1.WriteRequest{DeviceId: testDevice,
		ElectionId: &p4v1.Uint128{Low: 1}, Atomicity: a, Updates: updates})
	return err
}

// smac is a mac_rewrite entry: packets leaving port set their source MAC.
func (l *l3) smac(port byte, mac []byte) *p4v1.TableEntry {
	return &p4v1.TableEntry{TableId: l.id("table", "RouterEgress.mac_rewrite"),
		Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{port}}}}},
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: l.action("RouterEgress.set_smac", mac)}}}
}

// snapshot reads everything a batch below may touch.
func (l *l3) snapshot() []*p4v1.Entity {
	l.t.Helper()
	var all []*p4v1.Entity
	for _, e := range []*p4v1.Entity{
		ent(&p4v1.TableEntry{CounterData: &p4v1.CounterData{}}),
		ent(&p4v1.TableEntry{TableId: l.id("table", "RouterIngress.ipv4_lpm"), IsDefaultAction: true}),
		ent(&p4v1.RegisterEntry{RegisterId: l.id("register", "RouterIngress.last_src_mac"), Index: &p4v1.Index{Index: 5}}),
		ent(&p4v1.CloneSessionEntry{}),
		ent(&p4v1.ActionProfileMember{ActionProfileId: l.id("profile", "RouterIngress.ecmp_selector")}),
	} {
		es, err := l.read(e)
		if err != nil {
			l.t.Fatal(err)
		}
		all = append(all, es...)
	}
	return all
}

func sameEntities(a, b []*p4v1.Entity) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !proto.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func TestWriteRollbackOnError(t *testing.T) {
	for _, atomicity := range []p4v1.WriteRequest_Atomicity{p4v1.WriteRequest_ROLLBACK_ON_ERROR, p4v1.WriteRequest_DATAPLANE_ATOMIC} {
		t.Run(atomicity.String(), func(t *testing.T) {
			l := newL3(t)
			prof := l.id("profile", "RouterIngress.ecmp_selector")
			// Existing state: two routes (one has counted a packet), a member.
			if err := l.write(1,
				upd(p4v1.Update_INSERT, l.route(ip2, 32, hostMAC2, []byte{2})),
				upd(p4v1.Update_INSERT, l.route(ip3, 32, hostMAC3, []byte{3})),
				upd(p4v1.Update_INSERT, &p4v1.ActionProfileMember{ActionProfileId: prof, MemberId: 1, Action: l.action("RouterIngress.ipv4_forward", hostMAC2, []byte{2})}),
			); err != nil {
				t.Fatal(err)
			}
			l.send(1, ipv4Frame(hostMAC1, hostMAC1, ip1, ip3, 64, 17, "counted"))
			if _, ok := l.receive(3, 5*time.Second); !ok {
				t.Fatal("packet not forwarded")
			}
			before := l.snapshot()
			batch := []*p4v1.Update{
				upd(p4v1.Update_INSERT, l.route([]byte{10, 0, 0, 9}, 32, hostMAC3, []byte{3})),
				upd(p4v1.Update_MODIFY, l.route(ip2, 32, hostMAC3, []byte{3})),
				upd(p4v1.Update_DELETE, l.route(ip3, 32, nil, nil)),
				upd(p4v1.Update_MODIFY, &p4v1.TableEntry{TableId: l.id("table", "RouterIngress.ipv4_lpm"), IsDefaultAction: true,
					Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: l.action("RouterIngress.drop")}}}),
				upd(p4v1.Update_MODIFY, &p4v1.RegisterEntry{RegisterId: l.id("register", "RouterIngress.last_src_mac"), Index: &p4v1.Index{Index: 5},
					Data: &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: []byte{0x42}}}}),
				upd(p4v1.Update_INSERT, &p4v1.CloneSessionEntry{SessionId: 7, Replicas: []*p4v1.Replica{{PortKind: &p4v1.Replica_EgressPort{EgressPort: 3}, Instance: 1}}}),
				upd(p4v1.Update_DELETE, &p4v1.ActionProfileMember{ActionProfileId: prof, MemberId: 1}),
				upd(p4v1.Update_INSERT, l.route(ip2, 32, hostMAC2, []byte{2})), // duplicate: fails
				upd(p4v1.Update_INSERT, l.route([]byte{10, 0, 0, 8}, 32, hostMAC3, []byte{3})),
			}
			got := errorDetails(t, l.writeAtomic(atomicity, batch...))
			want := []codes.Code{codes.Aborted, codes.Aborted, codes.Aborted, codes.Aborted, codes.Aborted, codes.Aborted, codes.Aborted,
				codes.AlreadyExists, codes.Aborted}
			if len(got) != len(want) {
				t.Fatalf("details %v, want %v", got, want)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("details %v, want %v", got, want)
				}
			}
			if after := l.snapshot(); !sameEntities(before, after) {
				t.Fatalf("state changed by a failed batch\nbefore %v\n after %v", before, after)
			}
			// The restored route still forwards (and keeps counting).
			l.send(1, ipv4Frame(hostMAC1, hostMAC1, ip1, ip3, 64, 17, "restored"))
			if _, ok := l.receive(3, 5*time.Second); !ok {
				t.Fatal("restored route does not forward")
			}
			// Without the failing update the whole batch applies.
			ok := append(append([]*p4v1.Update(nil), batch[:7]...), batch[8])
			if err := l.writeAtomic(atomicity, ok...); err != nil {
				t.Fatal(err)
			}
			es, err := l.read(ent(&p4v1.TableEntry{TableId: l.id("table", "RouterIngress.ipv4_lpm")}))
			if err != nil || len(es) != 3 {
				t.Fatalf("after the batch: %d routes (%v), want 3", len(es), err)
			}
		})
	}
}

func TestUnknownAtomicity(t *testing.T) {
	l := newL3(t)
	if err := l.writeAtomic(p4v1.WriteRequest_Atomicity(9), upd(p4v1.Update_INSERT, l.route(ip2, 32, hostMAC2, []byte{2}))); code(err) != codes.InvalidArgument {
		t.Fatalf("atomicity 9: %v", err)
	}
}

// A DATAPLANE_ATOMIC batch that changes the route (destination MAC) and
// the egress rewrite (source MAC) together is never seen half applied:
// every packet leaves with both MACs from the same batch.
func TestDataplaneAtomicBatchesAreNotSeenHalfApplied(t *testing.T) {
	l := newL3(t)
	mac := func(v byte) []byte { return []byte{0x02, 0, 0, 0, 0, v} }
	if err := l.write(1, upd(p4v1.Update_INSERT, l.route(ip2, 32, mac(0), []byte{2})),
		upd(p4v1.Update_INSERT, l.smac(2, mac(0)))); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the controller flips versions
		defer wg.Done()
		for v := byte(1); !stop.Load(); v++ {
			if err := l.writeAtomic(p4v1.WriteRequest_DATAPLANE_ATOMIC,
				upd(p4v1.Update_MODIFY, l.route(ip2, 32, mac(v), []byte{2})),
				upd(p4v1.Update_MODIFY, l.smac(2, mac(v)))); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	frame := ipv4Frame(hostMAC1, hostMAC1, ip1, ip2, 64, 17, "version")
	checked := 0
	deadline := time.Now().Add(1500 * time.Millisecond)
	for time.Now().Before(deadline) {
		for i := 0; i < 16; i++ {
			l.send(1, frame)
		}
		for i := 0; i < 16; i++ {
			got, ok := l.receive(2, 5*time.Second)
			if !ok {
				t.Fatal("packet lost")
			}
			if !bytes.Equal(got[0:6], got[6:12]) {
				t.Fatalf("packet saw half a batch: dst %x src %x", got[0:6], got[6:12])
			}
			checked++
		}
	}
	stop.Store(true)
	wg.Wait()
	if checked == 0 {
		t.Fatal("no packet checked")
	}
}
