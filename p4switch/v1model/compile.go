// Package v1model runs compiled P4 programs with BMv2 simple_switch
// semantics and exposes them as target.Pipeline.
package v1model

import (
	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/fairfabric/fairfabric/p4switch/interp"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
	"github.com/fairfabric/fairfabric/p4switch/p4/frontend"
	"github.com/fairfabric/fairfabric/p4switch/p4info"
)

// Compiled is a compiled program with its P4Info.
type Compiled struct {
	Prog   *interp.Program
	P4Info *p4configv1.P4Info
	IDs    *p4info.IDs
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
	p, err := interp.Compile(info)
	if err != nil {
		return nil, err
	}
	pi, ids, err := p4info.Build(p)
	if err != nil {
		return nil, err
	}
	return &Compiled{Prog: p, P4Info: pi, IDs: ids}, nil
}
