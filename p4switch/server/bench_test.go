package server

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/server/internal/fakepipe"
)

// BenchmarkWriteBatch measures the server's own cost of a batched insert
// (gRPC, arbitration check, per-update dispatch) over loopback TCP, with
// the fake pipeline's map insert behind it. Not run by `go test`; run
// `go test -run X -bench WriteBatch ./p4switch/server/`.
func BenchmarkWriteBatch(b *testing.B) {
	h := newHarness(b, fakepipe.Loader)
	h.primary(1)
	if err := h.setPipeline(1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, fakeConfig); err != nil {
		b.Fatal(err)
	}
	const batch = 1000
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ups := make([]*p4v1.Update, batch)
		for j := range ups {
			n++
			mac := []byte{2, 0, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
			ups[j] = dmac(p4v1.Update_INSERT, mac, []byte{1})
		}
		if err := h.write(1, ups...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "inserts/s")
}
