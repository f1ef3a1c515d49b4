package v1model

import "sync"

// preState is the packet replication engine: multicast groups and clone sessions.
type preState struct {
	mu       sync.RWMutex
	groups   map[uint32][]replica
	sessions map[uint32]*cloneSession
}

type replica struct {
	port uint32
	rid  uint32
}

type cloneSession struct {
	replicas []replica
	cos      uint32
	truncate int
}

func (s *preState) group(id uint32) []replica {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.groups[id]
}

func (s *preState) session(id uint32) *cloneSession {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.sessions[id]
}
