package telemetry

import (
	"testing"
	"time"
)

// Without a reachable broker, records wait in the bounded buffer; beyond it they are
// dropped and counted, and Publish never blocks.
func TestProducerBuffersUpToItsBoundThenCountsDrops(t *testing.T) {
	tests := []struct {
		name      string
		buffer    int
		published int
	}{
		{"below the bound", 10, 4},
		{"at the bound", 5, 5},
		{"beyond the bound", 5, 12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewProducer([]string{"127.0.0.1:1"}, tc.buffer)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			for i := 0; i < tc.published; i++ {
				p.Publish("ff.test", "h1", map[string]int{"seq": int(p.NextSeq("ff.test"))})
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("Publish blocked for %v", d)
			}
			wantDropped := tc.published - tc.buffer
			if wantDropped < 0 {
				wantDropped = 0
			}
			d := p.Delivery()
			for deadline := time.Now().Add(time.Second); d.Dropped < uint64(wantDropped) && time.Now().Before(deadline); d = p.Delivery() {
				time.Sleep(5 * time.Millisecond) // promises run asynchronously
			}
			if d.Dropped != uint64(wantDropped) || d.Buffered != int64(tc.published-wantDropped) || d.Produced != 0 {
				t.Fatalf("delivery %+v, want %d dropped and %d buffered", d, wantDropped, tc.published-wantDropped)
			}
			p.Close(100 * time.Millisecond)
			if d := p.Delivery(); d.Dropped != uint64(tc.published) || d.Buffered != 0 {
				t.Fatalf("after close: %+v, want every unsent record counted as dropped", d)
			}
			if p.NextSeq("ff.test") != uint64(tc.published)+1 || p.NextSeq("other") != 1 {
				t.Fatal("sequence numbers are not per topic")
			}
		})
	}
}
