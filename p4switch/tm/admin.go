package tm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// PortState is one port's configuration and counters as the admin
// interface shows them.
type PortState struct {
	Port       uint32  `json:"port"`
	RateBps    uint64  `json:"rate_bps"`
	Depth      int     `json:"depth"`
	DelayUs    int64   `json:"delay_us"`
	Loss       float64 `json:"loss"`
	Enqueued   uint64  `json:"enqueued"`
	Dequeued   uint64  `json:"dequeued"`
	QueueDrops uint64  `json:"queue_drops"`
	LossDrops  uint64  `json:"loss_drops"`
	// The most packets / bytes waiting in the port's queues at once since
	// the start or the last DELETE /ports/N/peak.
	PeakPackets uint64 `json:"peak_packets"`
	PeakBytes   uint64 `json:"peak_bytes"`
}

// State returns a port's configuration and counters.
func (m *Manager) State(num uint32) (PortState, bool) {
	c, ok := m.Config(num)
	if !ok {
		return PortState{}, false
	}
	st, _ := m.Stats(num)
	return portState(c, st), true
}

func portState(c PortConfig, st Stats) PortState {
	return PortState{Port: st.Port, RateBps: c.RateBps, Depth: c.Depth, DelayUs: c.Delay.Microseconds(), Loss: c.Loss,
		Enqueued: st.Enqueued, Dequeued: st.Dequeued, QueueDrops: st.QueueDrops, LossDrops: st.LossDrops,
		PeakPackets: st.PeakPackets, PeakBytes: st.PeakBytes}
}

// AdminHandler serves the traffic manager's admin interface:
//
//	GET  /ports            every port's PortState, as a JSON array
//	GET  /ports/N          port N's PortState
//	POST /ports/N?rate=100M&depth=64&delay=2ms&loss=0.05
//	                       changes the given settings of port N (all or
//	                       nothing) and returns the new PortState
//	DELETE /ports/N/peak   port N's PortState with the queue peak measured
//	                       until now, and starts a new peak measurement
//
// Errors are plain text with status 400 (bad setting) or 404 (no port).
func AdminHandler(m *Manager) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ports", func(w http.ResponseWriter, r *http.Request) {
		var all []PortState
		for _, n := range m.Ports() {
			s, _ := m.State(n)
			all = append(all, s)
		}
		writeJSON(w, all)
	})
	mux.HandleFunc("GET /ports/{port}", func(w http.ResponseWriter, r *http.Request) {
		n, ok := portArg(w, r, m)
		if !ok {
			return
		}
		s, _ := m.State(n)
		writeJSON(w, s)
	})
	mux.HandleFunc("DELETE /ports/{port}/peak", func(w http.ResponseWriter, r *http.Request) {
		n, ok := portArg(w, r, m)
		if !ok {
			return
		}
		c, _ := m.Config(n)
		st, _ := m.ResetPeak(n)
		writeJSON(w, portState(c, st))
	})
	mux.HandleFunc("POST /ports/{port}", func(w http.ResponseWriter, r *http.Request) {
		n, ok := portArg(w, r, m)
		if !ok {
			return
		}
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var settings []string
		for k, vs := range r.Form {
			for _, v := range vs {
				settings = append(settings, k+"="+v)
			}
		}
		if len(settings) == 0 {
			http.Error(w, "no settings given (rate, depth, delay, loss)", http.StatusBadRequest)
			return
		}
		c, _ := m.Config(n)
		if err := c.Apply(settings...); err != nil {
			http.Error(w, fmt.Sprintf("port %d: %v", n, err), http.StatusBadRequest)
			return
		}
		if err := m.Configure(n, c); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s, _ := m.State(n)
		writeJSON(w, s)
	})
	return mux
}

func portArg(w http.ResponseWriter, r *http.Request, m *Manager) (uint32, bool) {
	v, err := strconv.ParseUint(strings.TrimSpace(r.PathValue("port")), 10, 32)
	if err != nil {
		http.Error(w, fmt.Sprintf("bad port %q", r.PathValue("port")), http.StatusBadRequest)
		return 0, false
	}
	if _, ok := m.Config(uint32(v)); !ok {
		http.Error(w, fmt.Sprintf("no port %d", v), http.StatusNotFound)
		return 0, false
	}
	return uint32(v), true
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
