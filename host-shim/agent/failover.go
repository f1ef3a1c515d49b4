package agent

import (
	"encoding/json"
	"log"
	"net/http"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/control"
	"github.com/fairfabric/fairfabric/host-shim/failover"
	"github.com/fairfabric/fairfabric/host-shim/ratetable"
)

// HandleDeadPaths admits one record of the dead-paths topic (docs/kafka.md) and
// moves the affected sessions' traffic to their surviving paths at once. A rejected
// record changes nothing.
func (a *Agent) HandleDeadPaths(rec control.Record) {
	r, err := failover.Parse(a.cfg.Host, rec.Key, rec.Value)
	if err != nil {
		a.fo.Reject()
		log.Printf("dead-paths offset %d rejected: %v", rec.Offset, err)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	t, recheck, err := a.fo.Update(r, time.Now())
	if err != nil {
		log.Printf("dead-paths offset %d rejected: %v", rec.Offset, err)
		return
	}
	if t != nil {
		a.applyRerouted(t, "dead paths version "+itoa(r.Version)+" "+joinLinks(r.Links))
	}
	if recheck > 0 {
		time.AfterFunc(recheck, a.expireFreeze)
	}
}

// expireFreeze puts back the paths whose recovery the freeze window held.
func (a *Agent) expireFreeze() {
	a.mu.Lock()
	defer a.mu.Unlock()
	t, recheck := a.fo.Expire(time.Now())
	if t != nil {
		a.applyRerouted(t, "freeze window over")
	}
	if recheck > 0 {
		time.AfterFunc(recheck, a.expireFreeze)
	}
}

// applyRerouted puts a rerouted copy of the controller's table in force (a.mu held).
// The controller's version stays the one in force: only the paths changed.
func (a *Agent) applyRerouted(t *ratetable.Table, why string) {
	t0 := time.Now()
	if err := a.dp.Apply(t); err != nil {
		a.applyErrors++
		log.Printf("failover (%s) could not be applied: %v", why, err)
		return
	}
	log.Printf("failover (%s): paths in force changed in %v", why, time.Since(t0))
}

func (a *Agent) failoverHandler(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(a.fo.Status(time.Now()))
}

func itoa(v uint64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func joinLinks(links []string) string {
	b, _ := json.Marshal(links)
	return string(b)
}
