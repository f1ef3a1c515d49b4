package v1model

import (
	"bytes"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// TestSharedActionName: actions sharing a control-plane name are one P4Info
// action, and an entry's action id runs the body of its table's control.
func TestSharedActionName(t *testing.T) {
	c, err := CompileFile("../testdata/shared_action_name.p4", nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, a := range c.P4Info.Actions {
		names[a.Preamble.Name]++
	}
	if names["_mark"] != 1 || names["I.set"] != 1 || len(c.P4Info.Actions) != 3 {
		t.Fatalf("actions: %v", names)
	}
	type write struct {
		table, action string
		arg           byte // the parameter of I.set
	}
	cases := []struct {
		name   string
		writes []write
		want   []byte // k, a, b, c after the pipeline
	}{
		{"ingress _mark", []write{{"I.ti", "_mark", 0}}, []byte{1, 0xaa, 0, 0}},
		{"egress _mark", []write{{"E.te", "_mark", 0}}, []byte{1, 0, 0, 0xee}},
		{"both _mark", []write{{"I.ti", "_mark", 0}, {"E.te", "_mark", 0}}, []byte{1, 0xaa, 0, 0xee}},
		{"I.set per table", []write{{"I.ti", "I.set", 0x11}, {"I.tc", "I.set", 0x22}}, []byte{1, 0, 0x11, 0x22}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := &fixture{t: t, p: New(c, 0), info: c.P4Info}
			for _, w := range tc.writes {
				a := &p4v1.Action{ActionId: f.id(w.action)}
				if w.action == "I.set" {
					a.Params = []*p4v1.Action_Param{{ParamId: 1, Value: []byte{w.arg}}}
				}
				te := &p4v1.TableEntry{TableId: f.id(w.table),
					Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{1}}}}},
					Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: a}}}
				if err := f.write(p4v1.Update_INSERT, tableEntity(te)); err != nil {
					t.Fatal(err)
				}
				got := f.read(tableEntity(&p4v1.TableEntry{TableId: te.TableId}))
				if len(got) != 1 || got[0].GetTableEntry().GetAction().GetAction().GetActionId() != a.ActionId {
					t.Fatalf("read back %s: %v", w.table, got)
				}
			}
			res := f.p.Ingress(target.Arrival{Port: 0, Data: []byte{1, 0, 0, 0}})
			if len(res.Queued) != 1 {
				t.Fatalf("%d queued", len(res.Queued))
			}
			if out := f.p.Egress(res.Queued[0], target.QueueMeta{}).Out; !bytes.Equal(out.Data, tc.want) {
				t.Errorf("got %x, want %x", out.Data, tc.want)
			}
		})
	}
	f := &fixture{t: t, p: New(c, 0), info: c.P4Info}
	te := &p4v1.TableEntry{TableId: f.id("E.te"),
		Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{1}}}}},
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: f.id("I.set"), Params: []*p4v1.Action_Param{{ParamId: 1, Value: []byte{1}}}}}}}
	wantCode(t, f.write(p4v1.Update_INSERT, tableEntity(te)), codes.InvalidArgument, "not an action of table E.te")
}
