package v1model

import (
	"fmt"

	"github.com/fairfabric/fairfabric/p4switch/bundle"
	"github.com/fairfabric/fairfabric/p4switch/target"
)

// Load is the target.Loader: it compiles a device config (a P4 source
// bundle, see docs/p4switch.md) into a running pipeline.
func Load(deviceConfig []byte, cpuPort uint32) (pl target.Pipeline, err error) {
	// a compiler bug must not take the switch down with it
	defer func() {
		if r := recover(); r != nil {
			pl, err = nil, fmt.Errorf("internal compiler error: %v", r)
		}
	}()
	main, read, err := bundle.Open(deviceConfig)
	if err != nil {
		return nil, err
	}
	c, err := CompileFile(main, read)
	if err != nil {
		return nil, err
	}
	return New(c, cpuPort), nil
}

var _ target.Loader = Load
