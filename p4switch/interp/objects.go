package interp

import (
	"sync"
	"time"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
)

// Counter is an indexed or direct counter.
type Counter struct {
	Name   string
	Annos  ast.Annotations
	Size   int
	Unit   int // 0 packets, 1 bytes, 2 packets_and_bytes (CounterType order)
	Direct bool
	Table  *Table
	Cells  []CounterCell
}

// Meter is an indexed or direct two-rate three-colour meter.
type Meter struct {
	Name   string
	Annos  ast.Annotations
	Size   int
	Unit   int // 0 packets, 1 bytes (MeterType order)
	Direct bool
	Table  *Table
	Cells  []*MeterCell
}

// MeterConfig is a trTCM configuration (rates per second, bursts in units).
type MeterConfig struct {
	CIR, CBurst, PIR, PBurst int64
}

// MeterCell is one meter instance.
type MeterCell struct {
	mu      sync.Mutex
	Config  *MeterConfig // nil: unconfigured, always green
	last    time.Duration
	tc, tp  float64
	started bool
}

// Meter colours as v1model defines them.
const (
	Green  = 0
	Yellow = 1
	Red    = 2
)

// SetConfig configures the cell (nil resets it to unconfigured).
func (m *MeterCell) SetConfig(cfg *MeterConfig) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.Config = cfg
	m.started = false
}

// GetConfig returns the configuration.
func (m *MeterCell) GetConfig() *MeterConfig {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.Config
}

// Execute meters one packet of n units at time now (RFC 2698, colour blind).
func (m *MeterCell) Execute(now time.Duration, n uint64) uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	cfg := m.Config
	if cfg == nil {
		return Green
	}
	if !m.started {
		m.tc, m.tp = float64(cfg.CBurst), float64(cfg.PBurst)
		m.last, m.started = now, true
	}
	dt := (now - m.last).Seconds()
	if dt > 0 {
		m.tc += dt * float64(cfg.CIR)
		m.tp += dt * float64(cfg.PIR)
		if m.tc > float64(cfg.CBurst) {
			m.tc = float64(cfg.CBurst)
		}
		if m.tp > float64(cfg.PBurst) {
			m.tp = float64(cfg.PBurst)
		}
		m.last = now
	}
	b := float64(n)
	switch {
	case m.tp < b:
		return Red
	case m.tc < b:
		m.tp -= b
		return Yellow
	}
	m.tp -= b
	m.tc -= b
	return Green
}

func (m *Meter) executeCell(cell *MeterCell, st *State, bytes uint64) uint64 {
	if cell == nil {
		return Green
	}
	n := uint64(1)
	if m.Unit == 1 {
		n = bytes
	}
	return cell.Execute(st.Now, n)
}

// Register is an array of values of one type.
type Register struct {
	Name   string
	Annos  ast.Annotations
	Size   int
	Width  int
	Layout *Layout
	mu     sync.Mutex
	cells  []uint64 // Size * Layout.Size slots
}

// Read copies cell i into dst (false when out of range).
func (r *Register) Read(i int, dst []uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i < 0 || i >= r.Size {
		return false
	}
	n := r.Layout.Size
	copy(dst, r.cells[i*n:(i+1)*n])
	return true
}

// Write stores src into cell i.
func (r *Register) Write(i int, src []uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i < 0 || i >= r.Size {
		return false
	}
	n := r.Layout.Size
	copy(r.cells[i*n:(i+1)*n], src)
	return true
}

// Reset zeroes every cell.
func (r *Register) Reset() {
	r.mu.Lock()
	clear(r.cells)
	r.mu.Unlock()
}

// ActionProfile is an action_profile or action_selector.
type ActionProfile struct {
	Name     string
	Annos    ast.Annotations
	Size     int
	Selector bool
	Algo     int
	OutWidth int
	Tables   []*Table
	selKeys  []func(*State, *bitWriter)

	mu      sync.RWMutex
	Members map[uint32]*ActionCall
	Groups  map[uint32]*Group
	scratch bitWriter
}

// Group is an action selector group.
type Group struct {
	Members []GroupMember
	MaxSize int
}

// GroupMember is a member with its weight.
type GroupMember struct {
	ID     uint32
	Weight int
}

// Lock and Unlock guard Members and Groups against the packet path.
func (p *ActionProfile) Lock()   { p.mu.Lock() }
func (p *ActionProfile) Unlock() { p.mu.Unlock() }

func (p *ActionProfile) resolve(st *State, en *Entry) *ActionCall {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if en.UseMember {
		return p.Members[en.Member]
	}
	g := p.Groups[en.Group]
	if g == nil {
		return nil
	}
	total := 0
	for _, m := range g.Members {
		total += m.Weight
	}
	if total == 0 {
		return nil
	}
	p.scratch.buf, p.scratch.bits = p.scratch.buf[:0], 0
	for _, k := range p.selKeys {
		k(st, &p.scratch)
	}
	h := hashData(p.Algo, p.scratch.buf, p.scratch.bits)
	if p.OutWidth > 0 && p.OutWidth < 64 {
		h &= 1<<uint(p.OutWidth) - 1
	}
	pick := int(h % uint64(total))
	for _, m := range g.Members {
		if pick < m.Weight {
			return p.Members[m.ID]
		}
		pick -= m.Weight
	}
	return nil
}
