package agent

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
)

// Health is what /healthz returns.
type Health struct {
	OK            bool              `json:"ok"`
	Host          string            `json:"host"`
	Mode          string            `json:"mode"`
	RatesVersion  uint64            `json:"rates_version"`
	Applied       uint64            `json:"tables_applied"`
	LastLatencyMs float64           `json:"last_apply_latency_ms"` // publish to in force
	LastApplyMs   float64           `json:"last_apply_ms"`         // netlink and map updates only
	Rejected      map[string]uint64 `json:"rejected"`
	ApplyErrors   uint64            `json:"apply_errors"`
	Periods       uint64            `json:"periods"`
}

// Handler serves /healthz (JSON), /metrics (Prometheus text), /stats (the
// last Stats record) and /rates (the rates table in force, null before the first).
func (a *Agent) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(a.Health())
	})
	mux.HandleFunc("/stats", func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		st := a.lastStats
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(st)
	})
	mux.HandleFunc("/rates", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(a.dp.Current())
	})
	mux.HandleFunc("/failover", a.failoverHandler)
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		h := a.Health()
		a.mu.Lock()
		st := a.lastStats
		a.mu.Unlock()
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		fmt.Fprintf(w, "ff_shim_rates_version %d\n", h.RatesVersion)
		fmt.Fprintf(w, "ff_shim_rates_applied_total %d\n", h.Applied)
		fmt.Fprintf(w, "ff_shim_rates_apply_errors_total %d\n", h.ApplyErrors)
		fmt.Fprintf(w, "ff_shim_rates_apply_latency_seconds %g\n", h.LastLatencyMs/1000)
		reasons := make([]string, 0, len(h.Rejected))
		for r := range h.Rejected {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		for _, r := range reasons {
			fmt.Fprintf(w, "ff_shim_rates_rejected_total{reason=%q} %d\n", r, h.Rejected[r])
		}
		d := a.prod.Delivery()
		fmt.Fprintf(w, "ff_shim_telemetry_produced_total %d\nff_shim_telemetry_dropped_total %d\nff_shim_telemetry_buffered %d\n", d.Produced, d.Dropped, d.Buffered)
		for _, p := range st.Paths {
			fmt.Fprintf(w, "ff_shim_path_sent_bytes_total{session=%q,path=\"%d\"} %d\n", p.Session, p.Path, p.SentBytes)
			fmt.Fprintf(w, "ff_shim_path_queue_drops_total{session=%q,path=\"%d\"} %d\n", p.Session, p.Path, p.QueueDrops)
		}
		for point, v := range map[string]uint64{"socket_send": st.Drops.SocketSend, "qdisc": st.Drops.Qdisc, "veth": st.Drops.Veth, "socket_recv": st.Drops.SocketRecv} {
			fmt.Fprintf(w, "ff_shim_host_drops_total{point=%q} %d\n", point, v)
		}
	})
	return mux
}

// Health is a snapshot of the agent's state.
func (a *Agent) Health() Health {
	a.mu.Lock()
	defer a.mu.Unlock()
	rej := map[string]uint64{}
	for k, v := range a.rejected {
		rej[k] = v
	}
	return Health{OK: true, Host: a.cfg.Host, Mode: string(a.cfg.Mode), RatesVersion: a.gate.Applied(), Applied: a.applied,
		LastLatencyMs: float64(a.lastLatency.Microseconds()) / 1000, LastApplyMs: float64(a.lastApply.Microseconds()) / 1000, Rejected: rej, ApplyErrors: a.applyErrors, Periods: a.periods}
}
