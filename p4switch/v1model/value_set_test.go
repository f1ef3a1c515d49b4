package v1model

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

func exactFM(id uint32, v ...byte) *p4v1.FieldMatch {
	return &p4v1.FieldMatch{FieldId: id, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: v}}}
}

func ternaryFM(id uint32, v, m byte) *p4v1.FieldMatch {
	return &p4v1.FieldMatch{FieldId: id, FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: []byte{v}, Mask: []byte{m}}}}
}

// TestValueSetLayout: members are written and read in the layout P4Info
// declares (one field per struct field; value_set<bit<W>> one exact field),
// and a struct value set matches a select of as many keys field by field.
func TestValueSetLayout(t *testing.T) {
	c, err := CompileFile("../testdata/value_sets.p4", nil)
	if err != nil {
		t.Fatal(err)
	}
	pairs, kinds := c.P4Info.ValueSets[0].Preamble.Id, c.P4Info.ValueSets[1].Preamble.Id
	type pkt struct {
		a    uint16
		b    byte // b[7:5] is the second select key
		kind byte
		hit  bool // the value sets send it to parse_x
	}
	cases := []struct {
		name   string
		set    uint32
		member []*p4v1.FieldMatch
		pkts   []pkt
	}{
		{"pair exact and ternary", pairs, []*p4v1.FieldMatch{exactFM(1, 0x08, 0x10), ternaryFM(2, 1, 7)},
			[]pkt{{0x0810, 0x20, 0, true}, {0x0810, 0x3f, 0, true}, {0x0810, 0x40, 0, false}, {0x0811, 0x20, 0, false}}},
		{"pair ternary bits", pairs, []*p4v1.FieldMatch{exactFM(1, 0x08, 0x10), ternaryFM(2, 4, 4)},
			[]pkt{{0x0810, 0x80, 0, true}, {0x0810, 0xe0, 0, true}, {0x0810, 0x60, 0, false}}},
		{"pair ternary left out", pairs, []*p4v1.FieldMatch{exactFM(1, 0x08, 0x10)},
			[]pkt{{0x0810, 0x00, 0, true}, {0x0810, 0xe0, 0, true}, {0x0800, 0x00, 0, false}}},
		{"bit<8> exact", kinds, []*p4v1.FieldMatch{exactFM(1, 7)},
			[]pkt{{0, 0, 7, true}, {0, 0, 6, false}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := &fixture{t: t, p: New(c, 0), info: c.P4Info}
			e := &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{
				ValueSetId: tc.set, Members: []*p4v1.ValueSetMember{{Match: tc.member}}}}}
			if err := f.write(p4v1.Update_MODIFY, e); err != nil {
				t.Fatal(err)
			}
			got := f.read(&p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: tc.set}}})
			if len(got) != 1 || !proto.Equal(got[0], e) {
				t.Errorf("read %v, wrote %v", got, e)
			}
			for _, pk := range tc.pkts {
				res := f.p.Ingress(target.Arrival{Port: 0, Data: []byte{byte(pk.a >> 8), byte(pk.a), pk.b, pk.kind, 0x40}})
				if len(res.Queued) != 1 {
					t.Fatalf("%d queued", len(res.Queued))
				}
				out := f.p.Egress(res.Queued[0], target.QueueMeta{}).Out.Data
				if hit := out[4] == 0x41; hit != pk.hit {
					t.Errorf("packet %+v: matched %v (%x)", pk, hit, out)
				}
			}
		})
	}
	errs := []struct {
		name   string
		set    uint32
		member []*p4v1.FieldMatch
		want   string
	}{
		{"exact field as ternary", kinds, []*p4v1.FieldMatch{ternaryFM(1, 7, 0xff)}, "expected a exact match, got ternary"},
		{"exact field missing", pairs, []*p4v1.FieldMatch{ternaryFM(2, 1, 7)}, "exact match field 1 is missing"},
		{"ternary field as exact", pairs, []*p4v1.FieldMatch{exactFM(1, 1), exactFM(2, 1)}, "expected a ternary match, got exact"},
		{"no such field", pairs, []*p4v1.FieldMatch{exactFM(1, 1), exactFM(3, 1)}, "no match field with id 3"},
		{"field given twice", pairs, []*p4v1.FieldMatch{exactFM(1, 1), exactFM(1, 2)}, "match field 1 given twice"},
		{"too wide", pairs, []*p4v1.FieldMatch{exactFM(1, 1), ternaryFM(2, 8, 8)}, "does not fit in 3 bits"},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			f := &fixture{t: t, p: New(c, 0), info: c.P4Info}
			good := &p4v1.ValueSetEntry{ValueSetId: tc.set, Members: []*p4v1.ValueSetMember{{Match: []*p4v1.FieldMatch{exactFM(1, 9)}}}}
			if err := f.write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: good}}); err != nil {
				t.Fatal(err)
			}
			err := f.write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{
				ValueSetId: tc.set, Members: []*p4v1.ValueSetMember{{Match: tc.member}}}}})
			wantCode(t, err, codes.InvalidArgument, tc.want)
			// a rejected write changes nothing
			got := f.read(&p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: tc.set}}})
			if len(got) != 1 || !proto.Equal(got[0].GetValueSetEntry(), good) {
				t.Errorf("after a rejected write: %v", got)
			}
		})
	}
}
