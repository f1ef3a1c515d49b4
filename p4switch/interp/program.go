package interp

import (
	"sync"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
)

// Program is a compiled P4 program: the control-plane objects and the
// entry points of the v1model blocks.
type Program struct {
	Info  *check.Info
	Slots int
	// Zeroed is how many leading slots State.Reset clears: those up to the
	// end of the top-level arguments (headers invalid, metadata and
	// standard metadata zero). The slots after them (block parameters,
	// locals, temporaries) are written before they are read: parameters
	// are copied in or cleared (out), locals cleared or initialised at
	// their declaration, temporaries stored; so clearing them per packet
	// (most of a program's slots) would be wasted.
	Zeroed    int
	Tables    []*Table
	Actions   []*Action // every control-plane visible action; several may share a name
	Counters  []*Counter
	Meters    []*Meter
	Registers []*Register
	Profiles  []*ActionProfile
	Digests   []*DigestType
	ValueSets []*ValueSet
	// FieldLists maps @field_list index to the metadata fields it preserves.
	FieldLists map[int][]FieldRef

	HdrType, MetaType check.Type
	Hdr, Meta, Std    int // slot offsets of the top-level arguments
	HdrLayout         *Layout
	MetaLayout        *Layout
	StdLayout         *Layout

	Parser          func(*State)
	VerifyChecksum  func(*State)
	Ingress         func(*State)
	Egress          func(*State)
	ComputeChecksum func(*State)
	Deparser        func(*State)

	// std field offsets (absolute slots)
	StdField map[string]int
	// ErrorCodes maps error names to their values.
	ErrorCodes map[string]int

	constInits []func(*State)
}

// FieldRef is a metadata field slot range.
type FieldRef struct {
	Off, Size int
}

// Action is a control-plane visible action instance.
type Action struct {
	Name   string // control-plane name
	Annos  ast.Annotations
	Decl   *ast.ActionDecl
	Params []*ActionParam
	// ControlPlane is set when a table or a control or parser refers to
	// the action; actions only called from other actions are not in P4Info.
	ControlPlane bool
	// Run executes the body with parameter values already stored in the param slots.
	Run func(*State) int
}

// ActionParam is a directionless action parameter.
type ActionParam struct {
	Name   string
	Width  int
	Annos  ast.Annotations
	Off    int // absolute slot
	Layout *Layout
	Type   check.Type
}

// DigestType is one digest<T> call site type.
type DigestType struct {
	Name   string // control-plane name: the struct type name
	Type   check.Type
	Layout *Layout
	Index  int
}

// ValueSet is a parser value_set.
type ValueSet struct {
	Name    string
	Annos   ast.Annotations
	Size    int
	Layout  *Layout
	mu      sync.RWMutex
	members [][2][]uint64 // value, mask words of each member
}

// Set replaces the members (value and mask words of each).
func (v *ValueSet) Set(members [][2][]uint64) {
	v.mu.Lock()
	v.members = members
	v.mu.Unlock()
}

func (v *ValueSet) snapshot() [][2][]uint64 {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.members
}

// Members returns the current members.
func (v *ValueSet) Members() [][2][]uint64 { return v.snapshot() }
