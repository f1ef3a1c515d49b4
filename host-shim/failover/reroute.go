package failover

import (
	"github.com/fairfabric/fairfabric/host-shim/ratetable"
)

// Reroute returns t with every dead path of a session removed and its rate given to
// the session's surviving paths in proportion to their rates, so the session keeps
// its total rate (the controller's re-allocation corrects it). When none of the
// table's paths survives, the whole rate goes to the first of the session's alive
// paths that is not avoided (the allocator too fills a session's paths in order);
// without one the session is left as it is (the switches' fast failover still
// carries what it can). moved counts the sessions that changed. t itself is not
// modified.
func Reroute(t *ratetable.Table, dead deadSet, aliveOf aliveLists) (out *ratetable.Table, moved int) {
	if t == nil {
		return nil, 0
	}
	c := *t
	c.Sessions = make([]ratetable.Session, len(t.Sessions))
	for i, s := range t.Sessions {
		c.Sessions[i] = s
		d := dead[s.ID]
		if len(d) == 0 {
			continue
		}
		var alive []ratetable.Path
		var total, aliveTotal uint64
		for _, p := range s.Paths {
			total += p.RateBps
			if !d[p.ID] {
				alive = append(alive, p)
				aliveTotal += p.RateBps
			}
		}
		if len(alive) == len(s.Paths) {
			continue
		}
		if len(alive) == 0 {
			spare := 0
			for _, p := range aliveOf[s.ID] {
				if !d[p] && p > 0 {
					spare = p
					break
				}
			}
			if spare == 0 || s.Paths[0].ID == 0 {
				continue
			}
			r := total
			if r > ratetable.MaxRateBps {
				r = ratetable.MaxRateBps
			}
			c.Sessions[i].Paths = []ratetable.Path{{ID: spare, RateBps: r}}
			moved++
			continue
		}
		paths := make([]ratetable.Path, len(alive))
		var given uint64
		for j, p := range alive {
			r := uint64(float64(p.RateBps) / float64(aliveTotal) * float64(total))
			if j == len(alive)-1 {
				r = total - given // whole bit/s: the last path takes the rounding
			}
			if r > ratetable.MaxRateBps {
				r = ratetable.MaxRateBps
			}
			given += r
			paths[j] = ratetable.Path{ID: p.ID, RateBps: r}
		}
		c.Sessions[i].Paths = paths
		moved++
	}
	return &c, moved
}
