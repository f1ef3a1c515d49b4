package stf

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

func (r *runner) command(line string) error {
	word, rest := next(line)
	switch word {
	case "packet":
		port, data, err := portAndData(rest)
		if err != nil {
			return err
		}
		b, err := packetBytes(strings.TrimSuffix(data, "$"))
		if err != nil {
			return err
		}
		r.ports[port] = true
		r.send(port, b)
	case "expect":
		port, data, err := portAndData(rest)
		if err != nil {
			return err
		}
		r.ports[port] = true
		if data == "" {
			r.anyPort[port] = true
			return nil
		}
		exact := strings.HasSuffix(data, "$")
		data = strings.ToUpper(strings.TrimSuffix(data, "$"))
		for _, c := range data {
			if !strings.ContainsRune("0123456789ABCDEF*", c) {
				return fmt.Errorf("bad expected data %q", data)
			}
		}
		if _, ok := r.expected[port]; !ok {
			r.order = append(r.order, port)
		}
		r.expected[port] = append(r.expected[port], expectation{pattern: data, exact: exact, line: line})
	case "add":
		return r.add(rest)
	case "setdefault":
		return r.setDefault(rest)
	case "wait", "":
	case "mirroring_add":
		f := strings.Fields(rest)
		if len(f) != 2 {
			return fmt.Errorf("mirroring_add SESSION PORT")
		}
		sess, err1 := strconv.ParseUint(f[0], 0, 32)
		port, err2 := strconv.ParseUint(f[1], 0, 32)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("mirroring_add: bad numbers")
		}
		return r.cloneSession(uint32(sess), []replica{{uint32(port), 0}})
	case "mirroring_add_mc":
		f := strings.Fields(rest)
		if len(f) != 2 {
			return fmt.Errorf("mirroring_add_mc SESSION GROUP")
		}
		sess, _ := strconv.ParseUint(f[0], 0, 32)
		grp, _ := strconv.ParseUint(f[1], 0, 32)
		return r.cloneSession(uint32(sess), r.groups[uint32(grp)])
	case "mc_mgrp_create":
		id, err := strconv.ParseUint(strings.TrimSpace(rest), 0, 32)
		if err != nil {
			return fmt.Errorf("mc_mgrp_create: bad group %q", rest)
		}
		r.groups[uint32(id)] = nil
		return r.writeGroup(uint32(id), p4v1.Update_INSERT)
	case "mc_node_create":
		f := strings.Fields(rest)
		if len(f) < 2 {
			return fmt.Errorf("mc_node_create RID PORT...")
		}
		rid, err := strconv.ParseUint(f[0], 0, 32)
		if err != nil {
			return fmt.Errorf("mc_node_create: bad rid")
		}
		var reps []replica
		for _, s := range f[1:] {
			port, err := strconv.ParseUint(s, 0, 32)
			if err != nil {
				return fmt.Errorf("mc_node_create: bad port %q", s)
			}
			reps = append(reps, replica{uint32(port), uint32(rid)})
		}
		r.nodes[r.nextNode] = reps
		r.nextNode++
	case "mc_node_associate":
		f := strings.Fields(rest)
		if len(f) != 2 {
			return fmt.Errorf("mc_node_associate GROUP NODE")
		}
		grp, err1 := strconv.ParseUint(f[0], 0, 32)
		node, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("mc_node_associate: bad numbers")
		}
		reps, ok := r.nodes[node]
		if !ok {
			return fmt.Errorf("mc_node_associate: no node %d", node)
		}
		if _, ok := r.groups[uint32(grp)]; !ok {
			return fmt.Errorf("mc_node_associate: no group %d", grp)
		}
		r.groups[uint32(grp)] = append(r.groups[uint32(grp)], reps...)
		return r.writeGroup(uint32(grp), p4v1.Update_MODIFY)
	case "check_counter":
		return r.checkCounter(rest)
	case "register_write":
		return r.registerWrite(rest)
	case "direct_meter":
		return r.directMeter(rest)
	default:
		return fmt.Errorf("unknown STF command %q", word)
	}
	return nil
}

func next(s string) (string, string) {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i+1:])
}

func portAndData(s string) (uint32, string, error) {
	p, rest := next(s)
	port, err := strconv.ParseUint(p, 0, 32)
	if err != nil {
		return 0, "", fmt.Errorf("bad port %q", p)
	}
	return uint32(port), strings.Join(strings.Fields(rest), ""), nil
}

func (r *runner) write(typ p4v1.Update_Type, e *p4v1.Entity) error {
	return r.p.Write(&p4v1.Update{Type: typ, Entity: e})
}

func (r *runner) writeGroup(id uint32, typ p4v1.Update_Type) error {
	var reps []*p4v1.Replica
	for _, rp := range r.groups[id] {
		reps = append(reps, &p4v1.Replica{PortKind: &p4v1.Replica_EgressPort{EgressPort: rp.port}, Instance: rp.rid})
	}
	return r.write(typ, &p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{
		Type: &p4v1.PacketReplicationEngineEntry_MulticastGroupEntry{MulticastGroupEntry: &p4v1.MulticastGroupEntry{MulticastGroupId: id, Replicas: reps}}}}})
}

func (r *runner) cloneSession(id uint32, reps []replica) error {
	var rs []*p4v1.Replica
	for i, rp := range reps {
		rs = append(rs, &p4v1.Replica{PortKind: &p4v1.Replica_EgressPort{EgressPort: rp.port}, Instance: uint32(i + 1)})
	}
	e := &p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{
		Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: &p4v1.CloneSessionEntry{SessionId: id, Replicas: rs}}}}}
	if err := r.write(p4v1.Update_INSERT, e); err != nil {
		return r.write(p4v1.Update_MODIFY, e)
	}
	return nil
}

func (r *runner) info() *p4configv1.P4Info { return r.p.P4Info() }

// byName finds a P4Info object by full name or by unique suffix.
func byName[T any](items []T, name string, pre func(T) *p4configv1.Preamble) (T, error) {
	var zero T
	var cand []T
	for _, it := range items {
		n := pre(it).Name
		if n == name {
			return it, nil
		}
		if strings.HasSuffix(n, "."+name) || strings.HasSuffix(n, name) && strings.HasSuffix(name, "."+pre(it).Alias) {
			cand = append(cand, it)
		}
	}
	if len(cand) == 1 {
		return cand[0], nil
	}
	if len(cand) > 1 {
		return zero, fmt.Errorf("%s is ambiguous", name)
	}
	return zero, fmt.Errorf("no %s", name)
}

func (r *runner) table(name string) (*p4configv1.Table, error) {
	return byName(r.info().Tables, name, func(t *p4configv1.Table) *p4configv1.Preamble { return t.Preamble })
}

func (r *runner) action(t *p4configv1.Table, name string) (*p4configv1.Action, error) {
	var acts []*p4configv1.Action
	for _, ref := range t.ActionRefs {
		for _, a := range r.info().Actions {
			if a.Preamble.Id == ref.Id {
				acts = append(acts, a)
			}
		}
	}
	return byName(acts, name, func(a *p4configv1.Action) *p4configv1.Preamble { return a.Preamble })
}

// parseNumber parses decimal, 0x, 0b and 0o numbers.
func parseNumber(s string) (*big.Int, error) {
	v, ok := new(big.Int).SetString(strings.ReplaceAll(s, "_", ""), 0)
	if !ok {
		return nil, fmt.Errorf("bad number %q", s)
	}
	return v, nil
}

func bytesOf(v *big.Int, width int) []byte {
	if v.Sign() < 0 {
		v = new(big.Int).Add(v, new(big.Int).Lsh(big.NewInt(1), uint(width)))
	}
	b := v.Bytes()
	if len(b) == 0 {
		return []byte{0}
	}
	return b
}

// parseAction parses name(arg:value, ...).
func (r *runner) parseAction(t *p4configv1.Table, s string) (*p4v1.Action, error) {
	open := strings.Index(s, "(")
	if open < 0 || !strings.HasSuffix(s, ")") {
		return nil, fmt.Errorf("bad action %q", s)
	}
	a, err := r.action(t, strings.TrimSpace(s[:open]))
	if err != nil {
		return nil, err
	}
	act := &p4v1.Action{ActionId: a.Preamble.Id}
	args := strings.TrimSpace(s[open+1 : len(s)-1])
	if args == "" {
		return act, nil
	}
	for _, kv := range strings.Split(args, ",") {
		k, v, ok := strings.Cut(kv, ":")
		if !ok {
			return nil, fmt.Errorf("bad action argument %q", kv)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		var prm *p4configv1.Action_Param
		for _, p := range a.Params {
			if p.Name == k {
				prm = p
			}
		}
		if prm == nil {
			return nil, fmt.Errorf("action %s has no parameter %s", a.Preamble.Name, k)
		}
		n, err := parseNumber(v)
		if err != nil {
			return nil, err
		}
		act.Params = append(act.Params, &p4v1.Action_Param{ParamId: prm.Id, Value: bytesOf(n, int(prm.Bitwidth))})
	}
	sort.Slice(act.Params, func(i, j int) bool { return act.Params[i].ParamId < act.Params[j].ParamId })
	return act, nil
}
