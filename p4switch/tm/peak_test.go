package tm

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The peak is the most waiting at once (packets and bytes, all priorities),
// kept after the queue drains, and restarted by ResetPeak from what waits.
func TestPeakQueue(t *testing.T) {
	m := newManager(t, PortConfig{Depth: 10})
	steps := []struct {
		name              string
		do                func()
		wantPkts, wantByt uint64
	}{
		{"empty", func() {}, 0, 0},
		{"three in two priorities", func() {
			m.Enqueue(pkt(1, 0, 1000, 1), 0)
			m.Enqueue(pkt(1, 7, 100, 2), 0)
			m.Enqueue(pkt(1, 0, 1000, 3), 0)
		}, 3, 2100},
		{"drained: the peak stays", func() {
			for i := 0; i < 3; i++ {
				m.Dequeue(0)
			}
		}, 3, 2100},
		{"one more after the drain: still the old peak", func() { m.Enqueue(pkt(1, 0, 500, 4), 0) }, 3, 2100},
		{"reset: the peak restarts at what waits on the next arrival", func() {
			m.ResetPeak(1)
			m.Enqueue(pkt(1, 0, 500, 5), 0)
		}, 2, 1000},
		{"the other port is separate", func() { m.Enqueue(pkt(2, 0, 1500, 6), 0) }, 2, 1000},
	}
	for _, s := range steps {
		s.do()
		st, _ := m.Stats(1)
		if st.PeakPackets != s.wantPkts || st.PeakBytes != s.wantByt {
			t.Fatalf("%s: peak %d packets %d bytes, want %d and %d", s.name, st.PeakPackets, st.PeakBytes, s.wantPkts, s.wantByt)
		}
	}
}

func TestAdminPeakReset(t *testing.T) {
	m := newManager(t, DefaultConfig())
	srv := httptest.NewServer(AdminHandler(m))
	defer srv.Close()
	m.Enqueue(pkt(1, 0, 1500, 1), 0)
	m.Dequeue(0)
	del := func(path string) (int, PortState) {
		req, _ := http.NewRequest("DELETE", srv.URL+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var st PortState
		json.NewDecoder(resp.Body).Decode(&st)
		return resp.StatusCode, st
	}
	if code, st := del("/ports/1/peak"); code != 200 || st.PeakPackets != 1 || st.PeakBytes != 1500 {
		t.Fatalf("first DELETE: %d %+v", code, st)
	}
	if code, st := del("/ports/1/peak"); code != 200 || st.PeakPackets != 0 {
		t.Fatalf("second DELETE: %d %+v", code, st)
	}
	if code, _ := del("/ports/9/peak"); code != 404 {
		t.Fatalf("DELETE of a missing port: %d", code)
	}
}
