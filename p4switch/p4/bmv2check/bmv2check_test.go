package bmv2check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairfabric/fairfabric/p4switch/p4/bmv2check"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
	"github.com/fairfabric/fairfabric/p4switch/p4/frontend"
)

// program is a v1model program with the given parts; each test case fills
// in what it is about.
type program struct {
	top     string // top-level declarations
	meta    string // fields of struct meta_t
	states  string // parser states (default: start accepts)
	locals  string // ingress locals
	apply   string // ingress apply body
	inParam string // extra ingress parameter name clash tests use it
}

func (p program) source() string {
	states := p.states
	if states == "" {
		states = "state start { pkt.extract(hdr.eth); transition accept; }"
	}
	return `#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
struct headers_t { eth_t eth; }
struct pair_t { bit<8> a; bit<8> b; }
struct meta_t { bit<8> x; bit<16> y; pair_t pair; ` + p.meta + ` }
` + p.top + `
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    ` + states + `
}
control VC(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    ` + p.locals + `
    apply { ` + p.apply + ` }
}
control Egr(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t meta) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), Ing(), Egr(), CC(), D()) main;
`
}

func run(t *testing.T, src string) (frontEnd, bmv2 error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "prog.p4")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := frontend.ParseFile(path, nil)
	if err != nil {
		return err, nil
	}
	info, err := check.Check(prog)
	if err != nil {
		return err, nil
	}
	return nil, bmv2check.Check(info)
}

const tableWithPriorities = `
    action a(bit<8> v) { meta.x = v; }
    table t {
        key = { hdr.eth.type : %KIND%; }
        actions = { a; }
        %PROPS%
        entries = { %ENTRIES% }
    }`

func prioTable(kind, props, entries string) string {
	r := strings.NewReplacer("%KIND%", kind, "%PROPS%", props, "%ENTRIES%", entries)
	return r.Replace(tableWithPriorities)
}

// TestRejects: each program is accepted by p4switch's front end (it runs on
// p4switch) but p4c-bm2-ss rejects it; the check gives p4c's reason.
func TestRejects(t *testing.T) {
	cases := []struct {
		name string
		prog program
		want string
	}{
		{"instance in an apply block", program{apply: "VC() inner; inner.apply(hdr, meta);"},
			"inner: Invalid inner: instances cannot be in a control 'apply' block"},
		{"two default labels",
			program{locals: "action a() {} action b() {} table t { actions = { a; b; } }",
				apply: "switch (t.apply().action_run) { a: { sm.egress_spec = 1; } default: { sm.egress_spec = 2; } default: { sm.egress_spec = 3; } }"},
			"switch has multiple 'default' labels"},
		{"parser loops for ever",
			program{states: "state start { transition s1; } state s1 { transition s2; } state s2 { transition s1; }"},
			"parser P: Parser never reaches accept or reject state"},
		{"literal gives a type parameter no width",
			program{apply: "hash(meta.y, HashAlgorithm.crc16, 16w0, { hdr.eth.src }, 0xFFFF);"},
			"0xffff: could not infer a width"},
		{"default action argument is not constant",
			program{locals: "action a(bit<8> v) { meta.x = v; } table t { actions = { a; } default_action = a((bit<8>) meta.y); }",
				apply: "t.apply();"},
			"(bit<8>)meta.y: action argument must be a compile-time constant"},
		{"priorities on an exact table", program{locals: prioTable("exact", "", "priority=5: 0x800 : a(1); 0x806 : a(2);"), apply: "t.apply();"},
			"Key key match type does not require priorities, but some are specified"},
		{"priorities on an lpm table", program{locals: prioTable("lpm", "", "0x800 : a(1); priority=3: 0x806 : a(2);"), apply: "t.apply();"},
			"does not require priorities"},
		{"first entry without a priority", program{locals: prioTable("ternary", "", "0x800 &&& 0xF00 : a(1); priority=3: 0x806 : a(2);"), apply: "t.apply();"},
			"Entry entry must have a priority"},
		{"computed priority below 1",
			program{locals: prioTable("ternary", "priority_delta = 4;", "priority=6: 0x800 &&& 0xF00 : a(1); 0x806 : a(2); 0x1 : a(3);"), apply: "t.apply();"},
			"t Overflow in priority computation"},
		{"struct read out of a register",
			program{locals: "register<pair_t>(4) r;", apply: "r.read(meta.pair, 0);"},
			"meta.pair: writing to a structure is not supported on this target"},
		{"struct action data",
			program{locals: "action a(pair_t p) { meta.pair = p; } table t { actions = { a; NoAction; } default_action = NoAction(); }", apply: "t.apply();"},
			"Action parameter p has a type which is not bit<>, int<>, bool, type or serializable enum"},
		{"extern function returning a struct",
			program{top: "extern pair_t make_pair(in bit<8> a);", apply: "meta.pair = make_pair(meta.x);"},
			"make_pair: functions or methods returning structures are not supported on this target"},
		{"table property shadows a parameter",
			program{top: "control Sized(inout meta_t m)(bit<32> size) { action a() {} table t { actions = { a; } size = size; } apply { t.apply(); } }",
				locals: "Sized(16) sized;", apply: "sized.apply(meta);"},
			"declaration of 'size' shadows a parameter 'size'"},
		{"shift by 16 bits",
			program{apply: "bit<64> bits = 0; bits = bits >> meta.y;"},
			"bits >> meta.y: shift amount limited to 8 bits on this target"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fe, err := run(t, c.prog.source())
			if fe != nil {
				t.Fatalf("p4switch's front end rejects the program (the case must be one it accepts): %v", fe)
			}
			if err == nil {
				t.Fatalf("accepted, want %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %q, want %q", err, c.want)
			}
		})
	}
}

// TestAccepts: the nearby programs p4c-bm2-ss compiles.
func TestAccepts(t *testing.T) {
	cases := []struct {
		name string
		prog program
	}{
		{"instance among the locals", program{locals: "VC() inner;", apply: "inner.apply(hdr, meta);"}},
		{"one default label",
			program{locals: "action a() {} action b() {} table t { actions = { a; b; } }",
				apply: "switch (t.apply().action_run) { a: { sm.egress_spec = 1; } default: { sm.egress_spec = 2; } }"}},
		{"loop that a select may leave",
			program{states: "state start { pkt.extract(hdr.eth); transition select(hdr.eth.type) { 0x800: start; } }"}},
		{"sized literal binds the type parameter",
			program{apply: "hash(meta.y, HashAlgorithm.crc16, 16w0, { hdr.eth.src }, 32w0xFFFF);"}},
		{"constant default action argument",
			program{locals: "const bit<8> K = 3; action a(bit<8> v) { meta.x = v; } table t { actions = { a; } default_action = a(K + 1); }",
				apply: "t.apply();"}},
		{"priorities on a ternary table", program{locals: prioTable("ternary", "", "priority=5: 0x800 &&& 0xF00 : a(1); 0x806 : a(2);"), apply: "t.apply();"}},
		{"no priorities on an exact table", program{locals: prioTable("exact", "", "0x800 : a(1); 0x806 : a(2);"), apply: "t.apply();"}},
		{"bit register", program{locals: "register<bit<8>>(4) r;", apply: "r.read(meta.x, 0);"}},
		{"8-bit and constant shifts",
			program{apply: "bit<64> bits = 0; bits = bits >> (bit<8>) meta.y; bits = bits << 40; bits = bits >> meta.x;"}},
		{"action parameter named like nothing else",
			program{top: "control Sized(inout meta_t m)(bit<32> entries_count) { action a() {} table t { actions = { a; } size = entries_count; } apply { t.apply(); } }",
				locals: "Sized(16) sized;", apply: "sized.apply(meta);"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fe, err := run(t, c.prog.source())
			if fe != nil {
				t.Fatalf("front end: %v", fe)
			}
			if err != nil {
				t.Fatalf("rejected: %v", err)
			}
		})
	}
}

// TestProjectPrograms: the programs this project deploys or tests with
// compile with p4c-bm2-ss.
func TestProjectPrograms(t *testing.T) {
	for _, path := range []string{
		"../../../pipeconfs/p4/fabric.p4",
		"../../../pipeconfs/p4/tests/fabric_test.p4",
		"../../testdata/l3router/l3router.p4",
	} {
		prog, err := frontend.ParseFile(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		info, err := check.Check(prog)
		if err != nil {
			t.Fatal(err)
		}
		if err := bmv2check.Check(info); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}
