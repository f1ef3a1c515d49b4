package p4info_test

import (
	"flag"
	"os"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/fairfabric/fairfabric/p4switch/interp"
	"github.com/fairfabric/fairfabric/p4switch/p4info"
	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

var update = flag.Bool("update", false, "rewrite golden files")

func compile(t *testing.T, path string) *p4configv1.P4Info {
	t.Helper()
	c, err := v1model.CompileFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c.P4Info
}

// TestIDsMatchP4c checks ids against the values p4c assigns to the same
// fully qualified names (taken from p4c's expected P4Info outputs).
func TestIDsMatchP4c(t *testing.T) {
	info := compile(t, "../testdata/p4info_names.p4")
	ids := map[string]uint32{}
	aliases := map[string]string{}
	add := func(p *p4configv1.Preamble) {
		ids[p.Name] = p.Id
		aliases[p.Name] = p.Alias
	}
	for _, x := range info.Tables {
		add(x.Preamble)
	}
	for _, x := range info.Actions {
		add(x.Preamble)
	}
	for _, x := range info.Digests {
		add(x.Preamble)
	}
	for _, x := range info.ControllerPacketMetadata {
		add(x.Preamble)
	}
	want := map[string]uint32{
		// p4c hashes a controller header's type name (packet_in_t), not
		// its @controller_header name; values from p4c-bm2-ss on fabric.p4.
		"packet_in":             80671331,
		"packet_out":            75327753,
		"MyIngress.forward":     46460945,
		"MyIngress.ipv4_lpm":    37375156,
		"MyEgress.send_frame":   49202009,
		"NoAction":              21257015,
		"MyIngress.set_dmac":    33025127,
		"MyIngress.drop":        25652968,
		"MyIngress.set_nhop":    24952588,
		"MyIngress.send_digest": 23592486,
		"MyEgress.rewrite_mac":  22398708,
		"test_digest_t":         387015589,
		"test_digest2_t":        392468736,
		"test_digest3_t":        399106899,
		"MyIngress.pinned":      0x01000042,
	}
	for name, id := range want {
		if ids[name] != id {
			t.Errorf("%s: id %d, want %d", name, ids[name], id)
		}
	}
	if _, ok := ids["MyIngress.renamed"]; !ok {
		t.Errorf("@name(\"renamed\") table missing: %v", ids)
	}
	if _, ok := ids["global_name"]; !ok {
		t.Errorf("@name(\".global_name\") table missing")
	}
	if aliases["MyIngress.forward"] != "forward" || aliases["NoAction"] != "NoAction" {
		t.Errorf("aliases: %v", aliases)
	}
	if len(info.ControllerPacketMetadata) != 2 || info.ControllerPacketMetadata[0].Preamble.Name != "packet_in" ||
		info.ControllerPacketMetadata[0].Metadata[0].Name != "ingress_port" || info.ControllerPacketMetadata[0].Metadata[0].Bitwidth != 9 {
		t.Errorf("controller_packet_metadata: %v", info.ControllerPacketMetadata)
	}
	if len(info.Counters) != 1 || len(info.DirectCounters) != 1 || len(info.Meters) != 1 || len(info.Registers) != 1 || len(info.ActionProfiles) != 1 {
		t.Errorf("externs: counters %d direct %d meters %d registers %d profiles %d",
			len(info.Counters), len(info.DirectCounters), len(info.Meters), len(info.Registers), len(info.ActionProfiles))
	}
	se := info.GetTypeInfo().GetSerializableEnums()["MySerEnum1"]
	if se == nil || len(se.Members) != 2 || string(se.Members[0].Value) != "\x1c" {
		t.Errorf("serializable enum type_info: %v", se)
	}
	for _, tb := range info.Tables {
		if tb.Preamble.Name == "MyIngress.renamed" {
			if tb.MatchFields[0].Name != "etype" || tb.ActionRefs[1].Scope != p4configv1.ActionRef_DEFAULT_ONLY {
				t.Errorf("renamed table: %v", tb)
			}
		}
	}
}

// TestProfileIDsMatchP4c checks inline implementations named by @name.
func TestProfileIDsMatchP4c(t *testing.T) {
	info := compile(t, "../testdata/profiles.p4")
	got := map[string]uint32{}
	for _, x := range info.Tables {
		got[x.Preamble.Name] = x.Preamble.Id
	}
	for _, x := range info.Actions {
		got[x.Preamble.Name] = x.Preamble.Id
	}
	for _, x := range info.ActionProfiles {
		got[x.Preamble.Name] = x.Preamble.Id
	}
	want := map[string]uint32{
		"IngressI.indirect": 46872340, "IngressI.indirect_ws": 38116258, "IngressI.drop": 23455883,
		"ap": 294074782, "ap_ws": 300324846, "NoAction": 21257015,
	}
	for name, id := range want {
		if got[name] != id {
			t.Errorf("%s: id %d, want %d (all: %v)", name, got[name], id, got)
		}
	}
	if len(info.ActionProfiles) != 2 || !info.ActionProfiles[1].WithSelector || info.ActionProfiles[0].Size != 128 ||
		info.Tables[0].ConstDefaultActionId != 21257015 || info.Tables[0].ImplementationId != 294074782 {
		t.Errorf("profiles: %v", info.ActionProfiles)
	}
}

// TestGolden compares the text output with golden files.
func TestGolden(t *testing.T) {
	for _, name := range []string{"l3", "p4info_names"} {
		t.Run(name, func(t *testing.T) {
			got := p4info.Text(compile(t, "../testdata/"+name+".p4"))
			golden := "../testdata/golden/" + name + ".p4info.txtpb"
			if *update {
				os.MkdirAll("../testdata/golden", 0o755)
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("P4Info differs from %s; rerun with -update after checking", golden)
			}
		})
	}
}

// TestConstEntriesAreInitialEntries: p4c marks a table with const entries
// both is_const_table and has_initial_entries.
func TestConstEntriesAreInitialEntries(t *testing.T) {
	info := compile(t, "../testdata/tables.p4")
	n := 0
	for _, tb := range info.Tables {
		if tb.IsConstTable {
			n++
			if !tb.HasInitialEntries {
				t.Errorf("%s: const table without has_initial_entries", tb.Preamble.Name)
			}
		}
	}
	if n == 0 {
		t.Fatal("tables.p4 has no const table")
	}
}

// TestDefaults checks what p4c writes for default actions: arguments of
// initial_default_action at full width, and a @defaultonly NoAction for a
// table without default_action; and that actions called only from actions
// are left out.
func TestDefaults(t *testing.T) {
	info := compile(t, "../testdata/compat.p4")
	tables := map[string]*p4configv1.Table{}
	for _, tb := range info.Tables {
		tables[tb.Preamble.Alias] = tb
	}
	args := tables["with_args"].GetInitialDefaultAction().GetArguments()
	if len(args) != 2 || string(args[0].Value) != "\x07" || string(args[1].Value) != "\x01\x02" || args[1].ParamId != 2 {
		t.Errorf("with_args: arguments %v", args)
	}
	var noAction uint32
	for _, a := range info.Actions {
		switch a.Preamble.Name {
		case "NoAction":
			noAction = a.Preamble.Id
		case "ig.widen":
			t.Error("ig.widen is only called by another action and must not be in P4Info")
		}
	}
	refs := tables["without_default"].GetActionRefs()
	last := refs[len(refs)-1]
	if noAction == 0 || last.Id != noAction || last.Scope != p4configv1.ActionRef_DEFAULT_ONLY || len(last.Annotations) != 1 || last.Annotations[0] != "@defaultonly" {
		t.Errorf("without_default: action refs %v (NoAction id %d)", refs, noAction)
	}
	if mf := tables["without_default"].GetMatchFields(); len(mf) != 2 || mf[1].Name != "hdr.h.$valid$" || mf[1].Bitwidth != 1 {
		t.Errorf("without_default: match fields %v", mf)
	}
	if d := tables["without_default"].GetInitialDefaultAction(); d.GetActionId() != noAction || tables["without_default"].ConstDefaultActionId != 0 {
		t.Errorf("without_default: default %v", d)
	}
}

// TestInitialEntries: "entries" with a per-entry const and explicit
// priorities (P4 1.2.4); only the const entry is read-only, and
// largest_priority_wins = false reverses the order of the priorities.
func TestInitialEntries(t *testing.T) {
	c, err := v1model.CompileFile("../testdata/compat.p4", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range c.Prog.Tables {
		if tb.Name != "ig.prio_spec" {
			continue
		}
		if tb.ConstEntries {
			t.Error("prio_spec has non-const entries")
		}
		byArg := map[uint64]*interp.Entry{}
		for _, en := range tb.Entries() {
			byArg[en.Call.Args[0][0]] = en
		}
		if len(byArg) != 3 || !byArg[1].IsConst || byArg[2].IsConst || byArg[3].IsConst {
			t.Fatalf("const flags wrong: %+v", byArg)
		}
		// priorities 30, 10, 20 with the smallest winning
		if !(byArg[2].Priority > byArg[3].Priority && byArg[3].Priority > byArg[1].Priority) {
			t.Errorf("priorities %d %d %d", byArg[1].Priority, byArg[2].Priority, byArg[3].Priority)
		}
		return
	}
	t.Fatal("no table ig.prio_spec")
}
