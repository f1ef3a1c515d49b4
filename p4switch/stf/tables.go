package stf

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

var arrayIndex = regexp.MustCompile(`\$([0-9]+)`)

// matchField finds a key field by STF name (full, suffix, $valid$ and $N forms).
func matchField(t *p4configv1.Table, name string) (*p4configv1.MatchField, error) {
	name = arrayIndex.ReplaceAllString(name, "[$1]")
	cands := []string{name}
	// p4c names an isValid() key "hdr.$valid$"
	if strings.HasSuffix(name, ".isValid()") {
		cands = append(cands, strings.TrimSuffix(name, ".isValid()")+".$valid$")
	}
	if strings.HasSuffix(name, ".valid") {
		cands = append(cands, strings.TrimSuffix(name, ".valid")+".$valid$")
	}
	for _, c := range cands {
		for _, mf := range t.MatchFields {
			if mf.Name == c {
				return mf, nil
			}
		}
	}
	var found *p4configv1.MatchField
	for _, c := range cands {
		for _, mf := range t.MatchFields {
			if strings.HasSuffix(mf.Name, "."+c) {
				if found != nil && found != mf {
					return nil, fmt.Errorf("key %s is ambiguous in table %s", name, t.Preamble.Name)
				}
				found = mf
			}
		}
	}
	if found == nil {
		return nil, fmt.Errorf("table %s has no key %s", t.Preamble.Name, name)
	}
	return found, nil
}

func allOnes(w int) *big.Int {
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
}

// wildcardNumber parses a hex/binary/octal number with '*' digits into value and mask.
func wildcardNumber(s string, width int) (*big.Int, *big.Int, error) {
	if !strings.Contains(s, "*") {
		v, err := parseNumber(s)
		return v, allOnes(width), err
	}
	var bits int
	var digits string
	switch {
	case strings.HasPrefix(s, "0x"):
		bits, digits = 4, s[2:]
	case strings.HasPrefix(s, "0b"):
		bits, digits = 1, s[2:]
	case strings.HasPrefix(s, "0o"):
		bits, digits = 3, s[2:]
	default:
		return nil, nil, fmt.Errorf("wildcards need a 0x, 0b or 0o number: %q", s)
	}
	v, m := new(big.Int), new(big.Int)
	for _, d := range digits {
		v.Lsh(v, uint(bits))
		m.Lsh(m, uint(bits))
		if d == '*' {
			continue
		}
		x, err := strconv.ParseUint(string(d), 1<<bits, 8)
		if err != nil {
			return nil, nil, fmt.Errorf("bad digit in %q", s)
		}
		v.Or(v, big.NewInt(int64(x)))
		m.Or(m, big.NewInt(int64(1<<bits-1)))
	}
	return v, m, nil
}

func (r *runner) fieldMatch(mf *p4configv1.MatchField, value string) (*p4v1.FieldMatch, error) {
	w := int(mf.Bitwidth)
	fm := &p4v1.FieldMatch{FieldId: mf.Id}
	switch mf.GetMatchType() {
	case p4configv1.MatchField_EXACT:
		v, err := parseNumber(value)
		if err != nil {
			return nil, err
		}
		fm.FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: bytesOf(v, w)}}
	case p4configv1.MatchField_LPM:
		var v *big.Int
		var plen int
		if vs, ls, ok := strings.Cut(value, "/"); ok {
			var err error
			if v, err = parseNumber(vs); err != nil {
				return nil, err
			}
			if plen, err = strconv.Atoi(ls); err != nil {
				return nil, fmt.Errorf("bad prefix length %q", ls)
			}
		} else {
			val, _, err := wildcardNumber(value, w)
			if err != nil {
				return nil, err
			}
			v = val
			if !strings.Contains(value, "*") {
				plen = w
			} else {
				// digits given from the most significant end
				digits := len(value) - 2
				bits := 4
				if strings.HasPrefix(value, "0b") {
					bits = 1
				} else if strings.HasPrefix(value, "0o") {
					bits = 3
				}
				plen = (digits - strings.Count(value, "*")) * bits
			}
		}
		if plen == 0 {
			return nil, nil
		}
		v = new(big.Int).And(v, new(big.Int).Lsh(allOnes(plen), uint(w-plen)))
		fm.FieldMatchType = &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: bytesOf(v, w), PrefixLen: int32(plen)}}
	case p4configv1.MatchField_TERNARY:
		var v, m *big.Int
		if vs, ms, ok := strings.Cut(value, "&&&"); ok {
			var err error
			if v, err = parseNumber(vs); err != nil {
				return nil, err
			}
			if m, err = parseNumber(ms); err != nil {
				return nil, err
			}
		} else {
			var err error
			if v, m, err = wildcardNumber(value, w); err != nil {
				return nil, err
			}
		}
		m.And(m, allOnes(w))
		if m.Sign() == 0 {
			return nil, nil
		}
		v = new(big.Int).And(v, m)
		fm.FieldMatchType = &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: bytesOf(v, w), Mask: bytesOf(m, w)}}
	case p4configv1.MatchField_RANGE:
		lo, hi := value, value
		for _, sep := range []string{"..", "->", "-"} {
			if a, b, ok := strings.Cut(value, sep); ok {
				lo, hi = a, b
				break
			}
		}
		l, err := parseNumber(lo)
		if err != nil {
			return nil, err
		}
		h, err := parseNumber(hi)
		if err != nil {
			return nil, err
		}
		if l.Sign() == 0 && h.Cmp(allOnes(w)) == 0 {
			return nil, nil
		}
		fm.FieldMatchType = &p4v1.FieldMatch_Range_{Range: &p4v1.FieldMatch_Range{Low: bytesOf(l, w), High: bytesOf(h, w)}}
	case p4configv1.MatchField_OPTIONAL:
		if value == "*" {
			return nil, nil
		}
		v, err := parseNumber(value)
		if err != nil {
			return nil, err
		}
		fm.FieldMatchType = &p4v1.FieldMatch_Optional_{Optional: &p4v1.FieldMatch_Optional{Value: bytesOf(v, w)}}
	default:
		return nil, fmt.Errorf("unsupported match kind of %s", mf.Name)
	}
	return fm, nil
}

// addMatches appends the field matches of KEY:VALUE arguments to te (cmd names the STF command in errors).
func (r *runner) addMatches(te *p4v1.TableEntry, t *p4configv1.Table, keys []string, cmd string) error {
	for _, kv := range keys {
		k, v, ok := strings.Cut(kv, ":")
		if !ok {
			return fmt.Errorf("%s: bad key %q", cmd, kv)
		}
		mf, err := matchField(t, k)
		if err != nil {
			return err
		}
		fm, err := r.fieldMatch(mf, v)
		if err != nil {
			return fmt.Errorf("key %s: %v", k, err)
		}
		if fm != nil {
			te.Match = append(te.Match, fm)
		}
	}
	return nil
}

func (r *runner) add(rest string) error {
	tname, rest := next(rest)
	t, err := r.table(tname)
	if err != nil {
		return err
	}
	open := strings.Index(rest, "(")
	if open < 0 {
		return fmt.Errorf("add: missing action")
	}
	// the action is the last word before "("
	start := strings.LastIndexAny(rest[:open], " \t") + 1
	actText := strings.TrimSpace(rest[start:])
	if i := strings.Index(actText, "="); i >= 0 && !strings.Contains(actText[:i], "(") {
		actText = actText[:i]
	}
	keys := strings.Fields(rest[:start])
	te := &p4v1.TableEntry{TableId: t.Preamble.Id}
	if len(keys) > 0 {
		if n, err := strconv.Atoi(keys[0]); err == nil {
			te.Priority = int32(n)
			keys = keys[1:]
		}
	}
	if err := r.addMatches(te, t, keys, "add"); err != nil {
		return err
	}
	needsPrio := false
	for _, mf := range t.MatchFields {
		switch mf.GetMatchType() {
		case p4configv1.MatchField_TERNARY, p4configv1.MatchField_RANGE, p4configv1.MatchField_OPTIONAL:
			needsPrio = true
		}
	}
	if needsPrio && te.Priority == 0 {
		// entries without priority: earlier entries win
		if r.prio == 0 {
			r.prio = 1 << 24
		}
		te.Priority = r.prio
		r.prio--
	}
	if !needsPrio {
		te.Priority = 0
	}
	act, err := r.parseAction(t, actText)
	if err != nil {
		return err
	}
	te.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: act}}
	e := &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: te}}
	if err := r.write(p4v1.Update_INSERT, e); err != nil {
		// STF re-adding the same key replaces the entry
		if err2 := r.write(p4v1.Update_MODIFY, e); err2 == nil {
			return nil
		}
		return err
	}
	return nil
}

func (r *runner) setDefault(rest string) error {
	tname, rest := next(rest)
	t, err := r.table(tname)
	if err != nil {
		return err
	}
	act, err := r.parseAction(t, strings.TrimSpace(rest))
	if err != nil {
		return err
	}
	return r.write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
		TableId: t.Preamble.Id, IsDefaultAction: true, Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: act}}}}})
}

var counterRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.]*)\(([0-9a-fA-Fx]+)\)\s*(.*)$`)

func (r *runner) checkCounter(rest string) error {
	m := counterRE.FindStringSubmatch(strings.TrimSpace(rest))
	if m == nil {
		return fmt.Errorf("check_counter NAME(INDEX) [packets|bytes] [OP] VALUE")
	}
	c, err := byName(r.info().Counters, m[1], func(c *p4configv1.Counter) *p4configv1.Preamble { return c.Preamble })
	if err != nil {
		return err
	}
	idx, err := strconv.ParseInt(m[2], 0, 64)
	if err != nil {
		return fmt.Errorf("bad counter index")
	}
	f := strings.Fields(m[3])
	kind, op := "packets", "=="
	if len(f) > 0 && (f[0] == "packets" || f[0] == "bytes") {
		kind, f = f[0], f[1:]
	}
	if len(f) > 0 && strings.ContainsAny(f[0], "=<>!") {
		op, f = f[0], f[1:]
	}
	if len(f) != 1 {
		return fmt.Errorf("check_counter needs a value")
	}
	want, err := strconv.ParseInt(f[0], 0, 64)
	if err != nil {
		return fmt.Errorf("bad counter value %q", f[0])
	}
	var got int64
	err = r.p.Read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: c.Preamble.Id, Index: &p4v1.Index{Index: idx}}}},
		func(e *p4v1.Entity) error {
			d := e.GetCounterEntry().GetData()
			got = d.GetPacketCount()
			if kind == "bytes" {
				got = d.GetByteCount()
			}
			return nil
		})
	if err != nil {
		return err
	}
	ok := map[string]bool{"==": got == want, "!=": got != want, "<": got < want, ">": got > want, "<=": got <= want, ">=": got >= want}[op]
	if !ok {
		r.failures = append(r.failures, fmt.Sprintf("check_counter %s(%d) %s: got %d, want %s %d", m[1], idx, kind, got, op, want))
	}
	return nil
}

func (r *runner) registerWrite(rest string) error {
	f := strings.Fields(rest)
	if len(f) != 3 {
		return fmt.Errorf("register_write NAME INDEX VALUE")
	}
	reg, err := byName(r.info().Registers, f[0], func(x *p4configv1.Register) *p4configv1.Preamble { return x.Preamble })
	if err != nil {
		return err
	}
	idx, err := strconv.ParseInt(f[1], 0, 64)
	if err != nil {
		return fmt.Errorf("bad index")
	}
	v, err := parseNumber(f[2])
	if err != nil {
		return err
	}
	w := int(reg.TypeSpec.GetBitstring().GetBit().GetBitwidth())
	return r.write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: &p4v1.RegisterEntry{
		RegisterId: reg.Preamble.Id, Index: &p4v1.Index{Index: idx}, Data: &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: bytesOf(v, w)}}}}})
}
