package server

import (
	"sync"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// electionID is a 128-bit election id.
type electionID struct{ high, low uint64 }

func (a electionID) less(b electionID) bool {
	return a.high < b.high || (a.high == b.high && a.low < b.low)
}

func toElectionID(u *p4v1.Uint128) electionID { return electionID{u.GetHigh(), u.GetLow()} }

// arbiter elects a primary client per role (P4Runtime §5). The primary is
// the connected client whose election id equals the highest id the server
// has seen for the role; when it leaves, the role has no primary until a
// client arbitrates with an id at least that high.
type arbiter struct {
	deviceID uint64
	mu       sync.Mutex
	roles    map[string]*role
}

type role struct {
	clients    map[*client]struct{}
	highest    electionID
	hasHighest bool
	primary    *client
}

func newArbiter(deviceID uint64) *arbiter {
	return &arbiter{deviceID: deviceID, roles: map[string]*role{}}
}

// arbitrate handles a MasterArbitrationUpdate from c. A returned error
// ends the client's stream.
func (a *arbiter) arbitrate(c *client, u *p4v1.MasterArbitrationUpdate) error {
	if u.DeviceId != a.deviceID {
		return errorf(codes.NotFound, "device id %d not found (this switch is device %d)", u.DeviceId, a.deviceID)
	}
	name := u.GetRole().GetName()
	if u.GetRole().GetConfig() != nil {
		return errorf(codes.Unimplemented, "role configs are not supported; every role has full access")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	r := a.roles[name]
	if r == nil {
		r = &role{clients: map[*client]struct{}{}}
		a.roles[name] = r
	}
	if u.ElectionId != nil {
		id := toElectionID(u.ElectionId)
		if other := r.holder(c, id); other != nil {
			// A controller that restarts reconnects with its election id while
			// the server may still be closing its old stream: give that stream
			// a moment to end (the server sees its end as soon as the client's
			// cancel or half-close arrives), then take the id over.
			a.mu.Unlock()
			select {
			case <-other.gone:
			case <-time.After(closingGrace):
			}
			a.mu.Lock()
			if other := r.holder(c, id); other != nil {
				if !other.isGone() {
					return errorf(codes.InvalidArgument, "election id %d:%d is already used by another client of role %q", id.high, id.low, name)
				}
				a.leaveLocked(other)
			}
		}
	}
	if c.arbitrated && c.role != name {
		a.leaveLocked(c)
	}
	c.arbitrated, c.role, c.roleMsg = true, name, proto.Clone(u.GetRole()).(*p4v1.Role)
	if u.GetRole() == nil {
		c.roleMsg = nil
	}
	c.hasElection = u.ElectionId != nil
	c.election = toElectionID(u.ElectionId)
	r.clients[c] = struct{}{}
	if c.hasElection && (!r.hasHighest || !c.election.less(r.highest)) {
		r.highest, r.hasHighest = c.election, true
	}
	old := r.primary
	r.primary = nil
	for other := range r.clients {
		if other.hasElection && r.hasHighest && other.election == r.highest {
			r.primary = other
		}
	}
	if r.primary != old {
		for other := range r.clients {
			other.sendArbitration(a.updateFor(r, other))
		}
	} else {
		c.sendArbitration(a.updateFor(r, c))
	}
	return nil
}

// closingGrace is how long an arbitration waits for a stream holding the
// same election id to end before it is refused (P4Runtime §5: an id in use
// by a live client is INVALID_ARGUMENT).
const closingGrace = 500 * time.Millisecond

// holder returns the client other than c that holds election id in r, if any.
func (r *role) holder(c *client, id electionID) *client {
	for other := range r.clients {
		if other != c && other.hasElection && other.election == id {
			return other
		}
	}
	return nil
}

func (a *arbiter) updateFor(r *role, c *client) *p4v1.StreamMessageResponse {
	u := &p4v1.MasterArbitrationUpdate{DeviceId: a.deviceID, Role: c.roleMsg}
	code := codes.NotFound
	if r.hasHighest {
		u.ElectionId = &p4v1.Uint128{High: r.highest.high, Low: r.highest.low}
	}
	switch {
	case r.primary == c:
		code = codes.OK
	case r.primary != nil:
		code = codes.AlreadyExists
	}
	u.Status = statusProto(code, map[codes.Code]string{
		codes.OK: "you are the primary", codes.AlreadyExists: "another client is the primary",
		codes.NotFound: "there is no primary"}[code])
	return &p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Arbitration{Arbitration: u}}
}

// leave removes a client whose stream ended.
func (a *arbiter) leave(c *client) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.leaveLocked(c)
}

func (a *arbiter) leaveLocked(c *client) {
	r := a.roles[c.role]
	if r == nil || !c.arbitrated {
		return
	}
	delete(r.clients, c)
	if r.primary == c {
		r.primary = nil
		for other := range r.clients {
			other.sendArbitration(a.updateFor(r, other))
		}
	}
}

// isPrimary reports whether id is the primary's election id for the role.
func (a *arbiter) isPrimary(roleName string, id *p4v1.Uint128) bool {
	if id == nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	r := a.roles[roleName]
	return r != nil && r.primary != nil && r.primary.election == toElectionID(id)
}

// isPrimaryClient reports whether c is currently a primary.
func (a *arbiter) isPrimaryClient(c *client) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := a.roles[c.role]
	return c.arbitrated && r != nil && r.primary == c
}

// sendToPrimaries queues a message to the primary of every role; it
// reports whether any primary took it.
func (a *arbiter) sendToPrimaries(m *p4v1.StreamMessageResponse) bool {
	return a.sendOutToPrimaries(outgoing{m: m})
}

func (a *arbiter) sendOutToPrimaries(o outgoing) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	sent := false
	for _, r := range a.roles {
		if r.primary != nil && r.primary.trySendOut(o) {
			sent = true
		}
	}
	return sent
}
