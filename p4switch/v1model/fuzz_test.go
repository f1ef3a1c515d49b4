package v1model

import (
	"math/rand"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"

	"github.com/fairfabric/fairfabric/p4switch/bundle"
	"github.com/fairfabric/fairfabric/p4switch/target"
)

// TestRandomInputsNeverCrash feeds random and mutated programs to the
// compiler, random packets to every test program, and random updates to
// the P4Runtime entry points. Errors are fine; panics are not.
func TestRandomInputsNeverCrash(t *testing.T) {
	rnd := rand.New(rand.NewSource(7))
	mutations := 25
	if n, err := strconv.Atoi(os.Getenv("P4SWITCH_FUZZ_MUTATIONS")); err == nil {
		mutations = n // longer local runs
	}
	files, _ := filepath.Glob("../testdata/*.p4")
	if len(files) == 0 {
		t.Fatal("no programs")
	}
	dir := t.TempDir()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// mutated sources: cut, delete a span, duplicate a span, flip bytes
		for i := 0; i < mutations; i++ {
			m := mutate(rnd, src)
			path := filepath.Join(dir, "m.p4")
			os.WriteFile(path, m, 0o644)
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("compiler panic on a mutation of %s: %v\n%s\n%s", f, r, debug.Stack(), m)
					}
				}()
				CompileFile(path, nil)
			}()
		}
		if strings.Contains(f, "arith") {
			continue // large; covered by the STF suite
		}
		c, err := CompileFile(f, nil)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		p := New(c, 0)
		for i := 0; i < 300; i++ {
			pkt := make([]byte, rnd.Intn(120))
			rnd.Read(pkt)
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%s: panic on packet %x: %v", f, pkt, r)
					}
				}()
				res := p.Ingress(target.Arrival{Port: uint32(rnd.Intn(8)), Data: pkt})
				for _, q := range res.Queued {
					p.Egress(q, target.QueueMeta{})
				}
			}()
		}
		for i := 0; i < 300; i++ {
			b := make([]byte, rnd.Intn(200))
			rnd.Read(b)
			u := &p4v1.Update{}
			if proto.Unmarshal(b, u) != nil {
				u = randomUpdate(rnd, c)
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%s: panic on update %v: %v", f, u, r)
					}
				}()
				p.Write(u)
				p.Read(u.Entity, func(*p4v1.Entity) error { return nil })
			}()
		}
	}
	// random device configs
	for i := 0; i < 50; i++ {
		b := make([]byte, rnd.Intn(2048))
		rnd.Read(b)
		if i%2 == 0 {
			copy(b[min(257, len(b)):], "ustar")
		}
		if _, _, err := bundle.Open(b); err == nil && len(b) > 0 {
			Load(b, 0)
		}
	}
}

func mutate(rnd *rand.Rand, src []byte) []byte {
	m := append([]byte(nil), src...)
	if len(m) == 0 {
		return m
	}
	switch rnd.Intn(4) {
	case 0:
		return m[:rnd.Intn(len(m))]
	case 1:
		i := rnd.Intn(len(m))
		j := i + rnd.Intn(40)
		if j > len(m) {
			j = len(m)
		}
		return append(m[:i], m[j:]...)
	case 2:
		i := rnd.Intn(len(m))
		j := i + rnd.Intn(40)
		if j > len(m) {
			j = len(m)
		}
		return append(m[:j], append(append([]byte(nil), m[i:j]...), m[j:]...)...)
	}
	const alphabet = "{}();:<>[]=&|+-*/.,0123456789abc#\"@ \n"
	for k := 0; k < 5; k++ {
		m[rnd.Intn(len(m))] = alphabet[rnd.Intn(len(alphabet))]
	}
	return m
}

// randomUpdate builds a structurally valid update with random contents.
func randomUpdate(rnd *rand.Rand, c *Compiled) *p4v1.Update {
	rb := func() []byte {
		b := make([]byte, rnd.Intn(20))
		rnd.Read(b)
		return b
	}
	var tid, aid uint32
	if len(c.P4Info.Tables) > 0 {
		tid = c.P4Info.Tables[rnd.Intn(len(c.P4Info.Tables))].Preamble.Id
	}
	if len(c.P4Info.Actions) > 0 {
		aid = c.P4Info.Actions[rnd.Intn(len(c.P4Info.Actions))].Preamble.Id
	}
	te := &p4v1.TableEntry{TableId: tid, Priority: int32(rnd.Intn(3)), IsDefaultAction: rnd.Intn(4) == 0,
		Match: []*p4v1.FieldMatch{{FieldId: uint32(rnd.Intn(3)), FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: rb(), Mask: rb()}}},
			{FieldId: uint32(rnd.Intn(3)), FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: rb()}}}},
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: aid, Params: []*p4v1.Action_Param{{ParamId: 1, Value: rb()}}}}}}
	return &p4v1.Update{Type: p4v1.Update_Type(rnd.Intn(5)), Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: te}}}
}
