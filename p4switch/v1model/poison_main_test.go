package v1model

import (
	"flag"
	"os"
	"testing"

	"github.com/fairfabric/fairfabric/p4switch/interp"
)

// TestMain runs the tests with every slot the interpreter does not clear
// per packet poisoned, so that a program reading one before writing it
// fails its expectations instead of passing by luck. Benchmarks run
// without the poison (it costs a write per slot per packet).
func TestMain(m *testing.M) {
	flag.Parse()
	interp.PoisonScratch = flag.Lookup("test.bench").Value.String() == ""
	os.Exit(m.Run())
}
