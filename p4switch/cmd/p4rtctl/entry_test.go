package main

import (
	"bytes"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
)

func TestParseValue(t *testing.T) {
	cases := []struct {
		in    string
		width int32
		want  []byte // nil: error
	}{
		{"0", 8, []byte{0}},
		{"511", 9, []byte{1, 0xff}},
		{"512", 9, nil},
		{"0x0a0b", 16, []byte{0x0a, 0x0b}},
		{"00:00:00:00:00:01", 48, []byte{1}},
		{"10.0.0.2", 32, []byte{10, 0, 0, 2}},
		{"10.0.0.256", 32, nil},
		{"-1", 8, nil},
		{"lots", 8, nil},
	}
	for _, c := range cases {
		got, err := parseValue(c.in, c.width)
		if (c.want == nil) != (err != nil) || !bytes.Equal(got, c.want) {
			t.Errorf("parseValue(%q, %d) = %x, %v; want %x", c.in, c.width, got, err, c.want)
		}
	}
}

func TestBuildEntry(t *testing.T) {
	info := &p4configv1.P4Info{
		Tables: []*p4configv1.Table{{Preamble: &p4configv1.Preamble{Id: 7, Name: "c.t", Alias: "t"},
			MatchFields: []*p4configv1.MatchField{
				{Id: 1, Name: "dst", Bitwidth: 32, Match: &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_LPM}},
				{Id: 2, Name: "proto", Bitwidth: 8, Match: &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_TERNARY}},
			}}},
		Actions: []*p4configv1.Action{{Preamble: &p4configv1.Preamble{Id: 9, Name: "c.fwd", Alias: "fwd"},
			Params: []*p4configv1.Action_Param{{Id: 1, Name: "port", Bitwidth: 9}}}},
	}
	e, err := buildEntry(info, "t", []string{"dst=10.0.0.0/8", "proto=6&&&0xff"}, "c.fwd", []string{"port=3"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if e.TableId != 7 || e.Priority != 5 || e.Match[0].GetLpm().PrefixLen != 8 || !bytes.Equal(e.Match[1].GetTernary().Mask, []byte{0xff}) ||
		e.GetAction().GetAction().ActionId != 9 || !bytes.Equal(e.GetAction().GetAction().Params[0].Value, []byte{3}) {
		t.Fatalf("entry %v", e)
	}
	bad := []struct {
		table, action string
		match, params []string
	}{
		{"nope", "fwd", nil, nil},
		{"t", "nope", nil, nil},
		{"t", "fwd", []string{"src=1"}, nil},
		{"t", "fwd", []string{"dst=10.0.0.0"}, nil},
		{"t", "fwd", []string{"proto=6"}, nil},
		{"t", "fwd", nil, []string{"port=512"}},
		{"t", "fwd", nil, []string{"vlan=1"}},
	}
	for _, b := range bad {
		if _, err := buildEntry(info, b.table, b.match, b.action, b.params, 0); err == nil {
			t.Errorf("buildEntry(%v) accepted", b)
		}
	}
}
