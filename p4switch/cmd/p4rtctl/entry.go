package main

import (
	"fmt"
	"math/big"
	"net"
	"strconv"
	"strings"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// findTable finds a table by full name or alias.
func findTable(info *p4configv1.P4Info, name string) (*p4configv1.Table, error) {
	for _, t := range info.Tables {
		if t.Preamble.Name == name || t.Preamble.Alias == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("no table %q", name)
}

func findAction(info *p4configv1.P4Info, name string) (*p4configv1.Action, error) {
	for _, a := range info.Actions {
		if a.Preamble.Name == name || a.Preamble.Alias == name {
			return a, nil
		}
	}
	return nil, fmt.Errorf("no action %q", name)
}

// parseValue reads a number (decimal or 0x hex), a MAC (aa:bb:..) or an
// IPv4 address into a canonical bytestring of at most width bits.
func parseValue(s string, width int32) ([]byte, error) {
	v := new(big.Int)
	switch {
	case strings.Count(s, ":") == 5:
		mac, err := net.ParseMAC(s)
		if err != nil {
			return nil, err
		}
		v.SetBytes(mac)
	case strings.Count(s, ".") == 3:
		ip := net.ParseIP(s).To4()
		if ip == nil {
			return nil, fmt.Errorf("bad IPv4 address %q", s)
		}
		v.SetBytes(ip)
	default:
		if _, ok := v.SetString(s, 0); !ok {
			return nil, fmt.Errorf("bad value %q", s)
		}
	}
	if v.Sign() < 0 || v.BitLen() > int(width) {
		return nil, fmt.Errorf("value %s does not fit in %d bits", s, width)
	}
	b := v.Bytes()
	if len(b) == 0 {
		b = []byte{0}
	}
	return b, nil
}

// buildEntry makes a table entry from `FIELD=VALUE` match arguments
// (lpm: VALUE/LEN, ternary: VALUE&&&MASK, range: LOW..HIGH), an action name
// and `PARAM=VALUE` action arguments.
func buildEntry(info *p4configv1.P4Info, table string, match []string, action string, params []string, priority int32) (*p4v1.TableEntry, error) {
	t, err := findTable(info, table)
	if err != nil {
		return nil, err
	}
	e := &p4v1.TableEntry{TableId: t.Preamble.Id, Priority: priority}
	for _, m := range match {
		name, val, ok := strings.Cut(m, "=")
		if !ok {
			return nil, fmt.Errorf("match %q: want FIELD=VALUE", m)
		}
		var f *p4configv1.MatchField
		for _, mf := range t.MatchFields {
			if mf.Name == name {
				f = mf
			}
		}
		if f == nil {
			return nil, fmt.Errorf("table %s has no match field %q", t.Preamble.Name, name)
		}
		fm := &p4v1.FieldMatch{FieldId: f.Id}
		switch f.GetMatchType() {
		case p4configv1.MatchField_EXACT:
			b, err := parseValue(val, f.Bitwidth)
			if err != nil {
				return nil, err
			}
			fm.FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: b}}
		case p4configv1.MatchField_LPM:
			addr, plen, ok := strings.Cut(val, "/")
			n, err := strconv.Atoi(plen)
			if !ok || err != nil {
				return nil, fmt.Errorf("lpm match %q: want VALUE/PREFIXLEN", m)
			}
			b, err := parseValue(addr, f.Bitwidth)
			if err != nil {
				return nil, err
			}
			fm.FieldMatchType = &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: b, PrefixLen: int32(n)}}
		case p4configv1.MatchField_TERNARY:
			value, mask, ok := strings.Cut(val, "&&&")
			if !ok {
				return nil, fmt.Errorf("ternary match %q: want VALUE&&&MASK", m)
			}
			vb, err := parseValue(value, f.Bitwidth)
			if err != nil {
				return nil, err
			}
			mb, err := parseValue(mask, f.Bitwidth)
			if err != nil {
				return nil, err
			}
			fm.FieldMatchType = &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: vb, Mask: mb}}
		case p4configv1.MatchField_RANGE:
			lo, hi, ok := strings.Cut(val, "..")
			if !ok {
				return nil, fmt.Errorf("range match %q: want LOW..HIGH", m)
			}
			lb, err := parseValue(lo, f.Bitwidth)
			if err != nil {
				return nil, err
			}
			hb, err := parseValue(hi, f.Bitwidth)
			if err != nil {
				return nil, err
			}
			fm.FieldMatchType = &p4v1.FieldMatch_Range_{Range: &p4v1.FieldMatch_Range{Low: lb, High: hb}}
		default:
			return nil, fmt.Errorf("match field %s: match type %v is not supported here", name, f.GetMatchType())
		}
		e.Match = append(e.Match, fm)
	}
	act, err := buildAction(info, action, params)
	if err != nil {
		return nil, err
	}
	e.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: act}}
	return e, nil
}

func buildAction(info *p4configv1.P4Info, action string, params []string) (*p4v1.Action, error) {
	a, err := findAction(info, action)
	if err != nil {
		return nil, err
	}
	act := &p4v1.Action{ActionId: a.Preamble.Id}
	for _, p := range params {
		name, val, ok := strings.Cut(p, "=")
		if !ok {
			return nil, fmt.Errorf("param %q: want NAME=VALUE", p)
		}
		var ap *p4configv1.Action_Param
		for _, x := range a.Params {
			if x.Name == name {
				ap = x
			}
		}
		if ap == nil {
			return nil, fmt.Errorf("action %s has no parameter %q", a.Preamble.Name, name)
		}
		b, err := parseValue(val, ap.Bitwidth)
		if err != nil {
			return nil, fmt.Errorf("param %s: %v", name, err)
		}
		act.Params = append(act.Params, &p4v1.Action_Param{ParamId: ap.Id, Value: b})
	}
	return act, nil
}
