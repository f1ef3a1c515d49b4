// Package v1model runs compiled P4 programs with BMv2 simple_switch
// semantics and exposes them as target.Pipeline.
package v1model

import (
	"fmt"
	"sync"
	"sync/atomic"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/fairfabric/fairfabric/p4switch/interp"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
	"github.com/fairfabric/fairfabric/p4switch/p4/frontend"
	"github.com/fairfabric/fairfabric/p4switch/p4info"
)

// Compiled is a compiled program with its P4Info.
//
// Prog holds the runtime objects (tables, counters, meters, registers,
// action profiles) that the compiled closures act on, so a Compiled belongs
// to one pipeline: New gives the first pipeline c itself and every later one
// a fresh compilation of the same checked program.
type Compiled struct {
	Prog   *interp.Program
	P4Info *p4configv1.P4Info
	IDs    *p4info.IDs

	checked *check.Info
	claimed atomic.Bool // a pipeline uses Prog
	// recompile serialises recompilations: the compiler records the types
	// it infers in checked.
	recompile sync.Mutex
}

// compile compiles a checked program.
func compile(info *check.Info) (*Compiled, error) {
	p, err := interp.Compile(info)
	if err != nil {
		return nil, err
	}
	pi, ids, err := p4info.Build(p)
	if err != nil {
		return nil, err
	}
	return &Compiled{Prog: p, P4Info: pi, IDs: ids, checked: info}, nil
}

// claim returns a Compiled whose runtime objects no other pipeline uses.
func (c *Compiled) claim() *Compiled {
	if c.claimed.CompareAndSwap(false, true) {
		return c
	}
	// The checked program compiled once already, so it compiles again.
	c.recompile.Lock()
	fresh, err := compile(c.checked)
	c.recompile.Unlock()
	if err != nil {
		panic(fmt.Sprintf("recompiling a compiled program: %v", err))
	}
	fresh.claimed.Store(true)
	return fresh
}

// CompileFile compiles the program at path; read (nil = os.ReadFile) reads sources.
func CompileFile(path string, read func(string) ([]byte, error)) (*Compiled, error) {
	prog, err := frontend.ParseFile(path, read)
	if err != nil {
		return nil, err
	}
	info, err := check.Check(prog)
	if err != nil {
		return nil, err
	}
	return compile(info)
}
