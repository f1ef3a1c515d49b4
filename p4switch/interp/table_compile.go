package interp

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
)

// table creates the table object and its keys.
func (c *compiler) table(e *env, d *ast.TableDecl) *Table {
	t := &Table{Name: cpName(d.Annos, d.Name, e.prefix), Annos: d.Annos, Decl: d, Size: 1024, entries: map[string]*Entry{}}
	c.prog.Tables = append(c.prog.Tables, t)
	return t
}

func (c *compiler) prop(d *ast.TableDecl, name string) *ast.TableProp {
	for _, p := range d.Props {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// finishTable compiles keys, actions, default action, entries and properties.
func (c *compiler) finishTable(e *env, d *ast.TableDecl, t *Table) {
	if p := c.prop(d, "key"); p != nil {
		for _, k := range p.Keys {
			if k.MatchKind == "selector" {
				continue
			}
			v := c.expr(e, k.Expr)
			kt := c.typeOf(k.Expr)
			l := c.layoutOf(kt)
			name, ok := k.Annos.String("name")
			if !ok {
				name = c.keyName(k.Expr)
			}
			tk := &TableKey{Name: name, MatchKind: k.MatchKind, Width: l.Width, Type: kt, Annos: k.Annos, words: words(l.Width)}
			store := c.storeFn(v, l)
			tk.load = func(st *State, dst []uint64) { store(st, dst) }
			t.Keys = append(t.Keys, tk)
		}
	}
	t.classify()
	if p := c.prop(d, "actions"); p != nil {
		for _, r := range p.Actions {
			o := c.info.Uses[r.Name.(*ast.Ident)]
			a := c.action(e, o.Decl.(*ast.ActionDecl))
			ta := &TableAction{Action: a, Annos: r.Annos, DefaultOnly: r.Annos.Has("defaultonly"), TableOnly: r.Annos.Has("tableonly")}
			if len(r.Args) > 0 {
				offs := c.paramOffsets(a)
				in, out := c.bindArgs(e, r.Args, a.Decl.Params[:len(r.Args)], offs[:len(r.Args)], nil)
				ta.bind, ta.bindOut = in, out
			}
			t.Actions = append(t.Actions, ta)
		}
	}
	if p := c.prop(d, "default_action"); p != nil {
		ref := check.ActionRefOf(p.Value)
		t.Default = c.constActionCall(e, t, ref)
		t.ConstDefault = p.Const
	} else {
		// as p4c's front end: a table without default_action gets
		// "default_action = NoAction()", and NoAction joins its action
		// list as @defaultonly when it is not there already
		na := c.noAction(e)
		t.Default = &ActionCall{Action: na}
		if !slices.ContainsFunc(t.Actions, func(ta *TableAction) bool { return ta.Action == na }) {
			t.Actions = append(t.Actions, &TableAction{Action: na, Annos: ast.Annotations{{Name: "defaultonly"}}, DefaultOnly: true})
		}
	}
	t.InitDefault = t.Default
	if p := c.prop(d, "size"); p != nil {
		if v, ok := c.info.Consts[p.Value]; ok {
			t.Size = int(v.Int64())
		}
	}
	if p := c.prop(d, "implementation"); p != nil {
		t.Profile = c.profileOf(e, p, t)
	}
	if p := c.prop(d, "counters"); p != nil {
		if ctr, ok := c.objOf(e, p.Value).(*Counter); ok {
			ctr.Table = t
			t.DirectCounter = ctr
		}
	}
	if p := c.prop(d, "meters"); p != nil {
		if m, ok := c.objOf(e, p.Value).(*Meter); ok {
			m.Table = t
			t.DirectMeter = m
		}
	}
	if p := c.prop(d, "support_timeout"); p != nil {
		if v, ok := c.info.Consts[p.Value]; ok && v.Sign() != 0 {
			t.SupportsIdle = true
		}
	}
	if p := c.prop(d, "entries"); p != nil {
		t.ConstEntries = p.Const
		prios := c.entryPriorities(d, p.Entries)
		for i, en := range p.Entries {
			ent := &Entry{IsConst: p.Const || en.Const, Priority: prios[i]}
			for k, ks := range en.Keys {
				if k < len(t.Keys) {
					ent.Matches = append(ent.Matches, c.constMatch(t.Keys[k], ks))
				}
			}
			ent.Call = c.constActionCall(e, t, en.Action)
			if !t.Insert(ent) {
				c.fail(en.Pos, "duplicate entry in table %s", d.Name)
			}
		}
	}
	c.compileApply(e, t)
}

// entryPriorities gives the entries of a table's "entries" property their
// priorities in P4Runtime's order (the largest wins):
//   - with "priority = N:" on some entry, the P4 specification's rules: an
//     entry without one gets the previous entry's priority plus
//     priority_delta (default 1) when largest_priority_wins is false, minus
//     it otherwise; a first entry without one gets 1 (smallest wins) or
//     priority_delta times the number of entries (largest wins);
//   - with "@priority(N)" after the action (older p4c syntax), BMv2's rule:
//     the smallest N wins and an entry without one counts as its 1-based
//     position;
//   - otherwise the first entry wins.
func (c *compiler) entryPriorities(d *ast.TableDecl, entries []*ast.Entry) []int32 {
	n := len(entries)
	prios := make([]int64, n)
	smallestWins := false
	switch {
	case slices.ContainsFunc(entries, func(en *ast.Entry) bool { return en.Priority != nil }):
		largest, delta := true, int64(1)
		if p := c.prop(d, "largest_priority_wins"); p != nil {
			if v, ok := c.info.Consts[p.Value]; ok {
				largest = v.Sign() != 0
			}
		}
		if p := c.prop(d, "priority_delta"); p != nil {
			if v, ok := c.info.Consts[p.Value]; ok {
				delta = v.Int64()
			}
		}
		smallestWins = !largest
		for i, en := range entries {
			switch {
			case en.Priority != nil:
				prios[i] = c.info.Consts[en.Priority].Int64()
			case i == 0 && largest:
				prios[i] = delta * int64(n)
			case i == 0:
				prios[i] = 1
			case largest:
				prios[i] = prios[i-1] - delta
			default:
				prios[i] = prios[i-1] + delta
			}
		}
	case slices.ContainsFunc(entries, func(en *ast.Entry) bool { return en.Annos.Has("priority") }):
		smallestWins = true
		for i, en := range entries {
			prios[i] = int64(i + 1)
			if v, ok := en.Annos.Int("priority"); ok {
				prios[i] = v.Int64()
			}
		}
	default:
		for i := range entries {
			prios[i] = int64(n - i)
		}
	}
	out := make([]int32, n)
	maxPrio := slices.Max(append([]int64{0}, prios...))
	for i, p := range prios {
		if smallestWins {
			p = maxPrio + 1 - p
		}
		out[i] = int32(p)
	}
	return out
}

func (c *compiler) noAction(e *env) *Action {
	o := c.info.Global.Lookup("NoAction")
	if o == nil || o.Kind != check.ObjAction {
		c.fail(nilPos, "NoAction is not declared")
	}
	return c.action(c.topEnv, o.Decl.(*ast.ActionDecl))
}

// constActionCall evaluates an action call with constant arguments (default action, const entries).
func (c *compiler) constActionCall(e *env, t *Table, ref *ast.ActionRef) *ActionCall {
	o := c.info.Uses[ref.Name.(*ast.Ident)]
	a := c.action(e, o.Decl.(*ast.ActionDecl))
	call := &ActionCall{Action: a}
	// arguments may be positional (all parameters, or only the
	// directionless ones) or named
	var dirless []*ast.Param
	for _, p := range a.Decl.Params {
		if p.Dir == "" {
			dirless = append(dirless, p)
		}
	}
	args := ref.Args
	if len(args) == len(a.Decl.Params) && len(args) > 0 && args[0].Name == "" {
		args = args[len(a.Decl.Params)-len(dirless):]
	}
	ordered := orderedArgs(args, dirless)
	for i, p := range a.Params {
		ws := make([]uint64, p.Layout.Words)
		if x := ordered[i]; x != nil {
			v, ok := c.info.Consts[x]
			if !ok {
				c.fail(x.Position(), "action arguments here must be constants")
			}
			wordsFromBig(v, p.Layout.Width, ws)
		}
		call.Args = append(call.Args, ws)
	}
	return call
}

// constMatch converts a const entry keyset element.
func (c *compiler) constMatch(k *TableKey, x ast.Expr) Match {
	n := words(k.Width)
	w := func(e ast.Expr) []uint64 {
		v, ok := c.info.Consts[e]
		if !ok {
			c.fail(e.Position(), "table entry keys must be constants")
		}
		ws := make([]uint64, n)
		wordsFromBig(v, k.Width, ws)
		return ws
	}
	all := PrefixMask(k.Width, k.Width, n)
	switch x := x.(type) {
	case *ast.DontCare, *ast.Default:
		m := Match{Value: make([]uint64, n), Wild: true}
		if k.MatchKind == "ternary" || k.MatchKind == "lpm" {
			m.Mask = make([]uint64, n)
		}
		return m
	case *ast.Mask:
		v, mk := w(x.Value), w(x.Mask)
		for i := range v {
			v[i] &= mk[i]
		}
		m := Match{Value: v, Mask: mk}
		if k.MatchKind == "lpm" {
			m.Plen = popcount(mk)
		}
		return m
	case *ast.Range:
		return Match{Value: w(x.Lo), High: w(x.Hi)}
	}
	v := w(x)
	switch k.MatchKind {
	case "ternary":
		return Match{Value: v, Mask: all}
	case "lpm":
		return Match{Value: v, Mask: all, Plen: k.Width}
	case "range":
		return Match{Value: v, High: append([]uint64(nil), v...)}
	}
	return Match{Value: v}
}

func popcount(ws []uint64) int {
	n := 0
	for _, w := range ws {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

// compileApply builds t.apply.
func (c *compiler) compileApply(e *env, t *Table) {
	keyWords := 0
	for _, k := range t.Keys {
		keyWords += k.words
	}
	buf := make([]uint64, keyWords)
	key := make([][]uint64, len(t.Keys))
	o := 0
	for i, k := range t.Keys {
		key[i] = buf[o : o+k.words]
		o += k.words
	}
	binds := map[*Action]*TableAction{}
	for _, ta := range t.Actions {
		if ta.bind != nil {
			binds[ta.Action] = ta
		}
	}
	keys := t.Keys
	dc, dm := t.DirectCounter, t.DirectMeter
	run := func(st *State, call *ActionCall) {
		a := call.Action
		for i, p := range a.Params {
			copy(st.S[p.Off:p.Off+p.Layout.Words], call.Args[i])
		}
		b := binds[a]
		if b != nil {
			b.bind(st)
		}
		if a.Run(st) == exited {
			st.exit = true
		}
		if b != nil {
			b.bindOut(st)
		}
	}
	t.apply = func(st *State) (bool, *Action) {
		for i, k := range keys {
			k.load(st, key[i])
		}
		en := t.lookup(key)
		if en == nil {
			call := t.GetDefault()
			st.meterColor = 0
			run(st, call)
			return false, call.Action
		}
		if dc != nil {
			en.Counter.Add(uint64(st.Length))
		}
		if t.SupportsIdle {
			en.LastHit.Store(Monotonic())
		}
		if dm != nil {
			st.meterColor = dm.executeCell(en.Meter, st, uint64(st.Length))
		}
		call := en.Call
		if en.UseMember || en.UseGroup {
			call = t.Profile.resolve(st, en)
			if call == nil {
				// an empty group: behave as a miss without running the default action
				return false, nil
			}
		}
		run(st, call)
		return true, call.Action
	}
}

func (c *compiler) tableApplyCall(e *env, call *ast.Call) func(*State) (bool, *Action) {
	ci := c.info.Calls[call]
	t, ok := c.objOf(e, ci.Recv).(*Table)
	if !ok {
		c.fail(call.Pos, "not a table")
	}
	return func(st *State) (bool, *Action) { return t.apply(st) }
}

// ExprString prints an expression as p4c names key fields.
// keyName is the control-plane name p4c gives a table key without @name:
// the expression as written, except that a struct or header field declared
// with @name("n") is called n (P4-14 translations name metadata this way).
func (c *compiler) keyName(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.Member:
		name := x.Name
		if st, ok := check.Underlying(c.typeOf(x.X)).(*check.Struct); ok {
			for _, f := range st.Fields {
				if f.Name == x.Name {
					if n, ok := f.Annos.String("name"); ok {
						name = n
					}
				}
			}
		}
		return c.keyName(x.X) + "." + name
	case *ast.Index:
		return c.keyName(x.X) + "[" + ExprString(x.Index) + "]"
	case *ast.Slice:
		return c.keyName(x.X) + "[" + ExprString(x.Hi) + ":" + ExprString(x.Lo) + "]"
	case *ast.Call:
		if m, ok := x.Fun.(*ast.Member); ok && m.Name == "isValid" && len(x.Args) == 0 {
			return c.keyName(m.X) + ".$valid$"
		}
	}
	return ExprString(x)
}

func ExprString(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.Member:
		return ExprString(x.X) + "." + x.Name
	case *ast.Index:
		return ExprString(x.X) + "[" + ExprString(x.Index) + "]"
	case *ast.Slice:
		return ExprString(x.X) + "[" + ExprString(x.Hi) + ":" + ExprString(x.Lo) + "]"
	case *ast.IntLit:
		return x.Value.String()
	case *ast.Call:
		if m, ok := x.Fun.(*ast.Member); ok && m.Name == "isValid" && len(x.Args) == 0 {
			return ExprString(m.X) + ".$valid$"
		}
		var args []string
		for _, a := range x.Args {
			args = append(args, ExprString(a.Value))
		}
		return ExprString(x.Fun) + "(" + strings.Join(args, ", ") + ")"
	case *ast.Cast:
		return ExprString(x.X)
	case *ast.Binary:
		return ExprString(x.X) + " " + x.Op + " " + ExprString(x.Y)
	}
	return "?"
}

// CounterCell is a packet and byte counter.
type CounterCell struct {
	Packets, Bytes atomic.Uint64
}

// Add counts one packet of n bytes.
func (cc *CounterCell) Add(n uint64) {
	cc.Packets.Add(1)
	cc.Bytes.Add(n)
}
