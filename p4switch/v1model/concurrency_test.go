package v1model

import (
	"sync"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// TestConcurrentUse runs control-plane writes and reads while ingress and
// egress process packets on their own goroutines (the test command runs it
// with -race): every write and read succeeds, every queued packet reaches
// the egress, and the table ends as empty as the writes leave it.
func TestConcurrentUse(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	pkt := make([]byte, 22)
	queued := make(chan target.Queued, 64)
	const packets, rounds = 300, 100
	var enqueued, egressed, counterEntities int
	wg.Add(3)
	go func() {
		defer wg.Done()
		defer close(queued)
		for i := 0; i < packets; i++ {
			for _, q := range f.p.Ingress(target.Arrival{Port: 1, Data: pkt}).Queued {
				enqueued++
				queued <- q
			}
		}
	}()
	go func() {
		defer wg.Done()
		for q := range queued {
			f.p.Egress(q, target.QueueMeta{})
			egressed++
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; i < rounds; i++ {
			e := f.lpmEntry([]byte{byte(i % 3), 0, 0, 0}, 8, 1)
			if err := f.write(p4v1.Update_INSERT, tableEntity(e)); err != nil {
				t.Errorf("round %d: insert: %v", i, err)
			}
			err := f.p.Read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{}}},
				func(*p4v1.Entity) error { counterEntities++; return nil })
			if err != nil {
				t.Errorf("round %d: read counters: %v", i, err)
			}
			if err := f.write(p4v1.Update_DELETE, tableEntity(e)); err != nil {
				t.Errorf("round %d: delete: %v", i, err)
			}
		}
	}()
	wg.Wait()
	if enqueued == 0 {
		t.Errorf("no packet reached the egress queue: the test does not exercise the egress")
	}
	if egressed != enqueued {
		t.Errorf("egress saw %d packets, ingress queued %d", egressed, enqueued)
	}
	if counterEntities < rounds {
		t.Errorf("counter reads returned %d entities over %d reads, want at least one each", counterEntities, rounds)
	}
	left := f.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: f.id("MyIngress.ipv4_lpm")}}})
	if len(left) != 0 {
		t.Errorf("%d entries left in ipv4_lpm after inserting and deleting each", len(left))
	}
}
