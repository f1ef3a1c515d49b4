package v1model

import (
	"sync"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// TestConcurrentUse runs control-plane writes and reads while ingress and
// egress process packets on their own goroutines (run with -race).
func TestConcurrentUse(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	pkt := make([]byte, 22)
	queued := make(chan target.Queued, 64)
	wg.Add(3)
	go func() {
		defer wg.Done()
		defer close(queued)
		for i := 0; i < 300; i++ {
			for _, q := range f.p.Ingress(target.Arrival{Port: 1, Data: pkt}).Queued {
				queued <- q
			}
		}
	}()
	go func() {
		defer wg.Done()
		for q := range queued {
			f.p.Egress(q, target.QueueMeta{})
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; i < 100; i++ {
			e := f.lpmEntry([]byte{byte(i % 3), 0, 0, 0}, 8, 1)
			f.write(p4v1.Update_INSERT, tableEntity(e))
			f.p.Read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{}}}, func(*p4v1.Entity) error { return nil })
			f.write(p4v1.Update_DELETE, tableEntity(e))
		}
	}()
	wg.Wait()
}
