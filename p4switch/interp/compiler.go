package interp

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
	"github.com/fairfabric/fairfabric/p4switch/p4/token"
)

// CompileError is an error found while compiling (an unsupported construct).
type CompileError struct {
	Pos token.Pos
	Msg string
}

func (e *CompileError) Error() string { return e.Pos.String() + ": " + e.Msg }

type compiler struct {
	info       *check.Info
	prog       *Program
	layouts    map[check.Type]*Layout
	topEnv     *env
	digests    map[string]*DigestType
	fnStack    []*fnFrame
	actionEnvs map[*Action]*env
	curBlock   int
	declOrder  map[*ast.ActionDecl]int
	actOrder   map[*Action][3]int
	funcs      map[*ast.FunctionDecl]*funcInst
	touching   []*touchSet // innermost last: the block instances being compiled
	lvDepth    int         // nesting of lvalue calls (only the outermost records)
	noTouch    int         // > 0: lvalue records nothing
}

// env maps declarations to storage and runtime objects within one block instance.
type env struct {
	parent *env
	prefix string // control-plane name prefix, e.g. "MyIngress."
	vars   map[ast.Node]int
	consts map[ast.Node]*big.Int
	objs   map[ast.Node]any
	acts   map[*ast.ActionDecl]*Action
	// inAction is set inside action bodies: an action called only from
	// other actions is inlined by p4c and not visible to the control plane
	inAction bool
}

func newEnv(parent *env, prefix string) *env {
	e := &env{parent: parent, prefix: prefix, vars: map[ast.Node]int{}, consts: map[ast.Node]*big.Int{}, objs: map[ast.Node]any{}, acts: map[*ast.ActionDecl]*Action{}}
	if parent != nil {
		e.inAction = parent.inAction
	}
	return e
}

func (e *env) slot(d ast.Node) (int, bool) {
	for ; e != nil; e = e.parent {
		if o, ok := e.vars[d]; ok {
			return o, true
		}
	}
	return 0, false
}

func (e *env) obj(d ast.Node) any {
	for ; e != nil; e = e.parent {
		if o, ok := e.objs[d]; ok {
			return o
		}
	}
	return nil
}

func (e *env) constant(d ast.Node) (*big.Int, bool) {
	for ; e != nil; e = e.parent {
		if v, ok := e.consts[d]; ok {
			return v, true
		}
	}
	return nil, false
}

type bailout struct{ err error }

func (c *compiler) fail(pos token.Pos, format string, a ...any) {
	panic(bailout{&CompileError{Pos: pos, Msg: fmt.Sprintf(format, a...)}})
}

func (c *compiler) alloc(n int) int {
	off := c.prog.Slots
	c.prog.Slots += n
	return off
}

// Compile builds the runnable program from a checked v1model program.
func Compile(info *check.Info) (prog *Program, err error) {
	c := &compiler{info: info, layouts: map[check.Type]*Layout{}, digests: map[string]*DigestType{}, actionEnvs: map[*Action]*env{}, funcs: map[*ast.FunctionDecl]*funcInst{}}
	c.prog = &Program{Info: info, FieldLists: map[int][]FieldRef{}, StdField: map[string]int{}, ErrorCodes: map[string]int{}}
	for i, e := range info.Errors {
		c.prog.ErrorCodes[e] = i
	}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			prog, err = nil, b.err
		}
	}()
	c.topEnv = newEnv(nil, "")
	c.declOrder, c.actOrder = map[*ast.ActionDecl]int{}, map[*Action][3]int{}
	for i, d := range info.Program.Decls {
		switch d := d.(type) {
		case *ast.ActionDecl:
			c.declOrder[d] = i * 10000
		case *ast.ControlDecl:
			for j, l := range d.Locals {
				if a, ok := l.(*ast.ActionDecl); ok {
					c.declOrder[a] = i*10000 + j + 1
				}
			}
		}
	}
	c.topLevelInstances()
	c.main()
	sort.SliceStable(c.prog.Actions, func(i, j int) bool {
		a, b := c.actOrder[c.prog.Actions[i]], c.actOrder[c.prog.Actions[j]]
		for k := range a {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return false
	})
	return c.prog, nil
}

// main instantiates the V1Switch package.
func (c *compiler) main() {
	m := c.info.Main
	pkg, ok := c.info.DeclTypes[m].(*check.Block)
	if !ok || pkg.Name != "V1Switch" {
		c.fail(m.Pos, "main must be a V1Switch package (v1model)")
	}
	if len(m.Args) != 6 {
		c.fail(m.Pos, "V1Switch needs 6 arguments")
	}
	var blocks []*blockRef
	for _, a := range m.Args {
		blocks = append(blocks, c.blockArg(a.Value))
	}
	pd, ok := blocks[0].decl.(*ast.ParserDecl)
	if !ok {
		c.fail(m.Args[0].Value.Position(), "first V1Switch argument must be a parser")
	}
	if len(pd.Params) != 4 {
		c.fail(pd.Pos, "v1model parser needs 4 parameters")
	}
	hdrT := c.info.DeclTypes[pd.Params[1]]
	metaT := c.info.DeclTypes[pd.Params[2]]
	stdT := c.info.DeclTypes[pd.Params[3]]
	p := c.prog
	p.HdrType, p.MetaType = hdrT, metaT
	p.HdrLayout, p.MetaLayout, p.StdLayout = c.layoutOf(hdrT), c.layoutOf(metaT), c.layoutOf(stdT)
	p.Hdr = c.alloc(p.HdrLayout.Size)
	p.Meta = c.alloc(p.MetaLayout.Size)
	p.Std = c.alloc(p.StdLayout.Size)
	p.Zeroed = c.prog.Slots
	for _, f := range p.StdLayout.Fields {
		p.StdField[f.Name] = p.Std + f.Off
	}
	c.fieldLists(metaT)
	fixed := [][]int{
		{-1, p.Hdr, p.Meta, p.Std}, // parser(packet_in, out H, inout M, inout std)
		{p.Hdr, p.Meta},            // verify checksum
		{p.Hdr, p.Meta, p.Std},     // ingress
		{p.Hdr, p.Meta, p.Std},     // egress
		{p.Hdr, p.Meta},            // compute checksum
		{-1, p.Hdr},                // deparser(packet_out, in H)
	}
	for i, b := range blocks {
		var n int
		switch d := b.decl.(type) {
		case *ast.ParserDecl:
			n = len(d.Params)
		case *ast.ControlDecl:
			n = len(d.Params)
		}
		if n != len(fixed[i]) {
			c.fail(m.Args[i].Value.Position(), "V1Switch argument %d must have %d parameters", i+1, len(fixed[i]))
		}
	}
	var fns []func(*State)
	for i, b := range blocks {
		c.curBlock = i
		run := c.instantiate(b, fixed[i])
		fns = append(fns, func(st *State) { run(st) })
	}
	p.Parser, p.VerifyChecksum, p.Ingress, p.Egress, p.ComputeChecksum, p.Deparser = fns[0], fns[1], fns[2], fns[3], fns[4], fns[5]
}

// topLevelInstances creates extern instances declared outside any control
// (as p4c's P4_14 translations do); their names carry no prefix.
func (c *compiler) topLevelInstances() {
	for _, d := range c.info.Program.Decls {
		inst, ok := d.(*ast.Instance)
		if !ok || inst == c.info.Main {
			continue
		}
		if _, isExtern := c.info.DeclTypes[inst].(*check.Extern); isExtern {
			c.topEnv.objs[inst] = c.instance(c.topEnv, inst)
		}
	}
}

// fieldLists records metadata fields annotated with @field_list(i, ...).
func (c *compiler) fieldLists(metaT check.Type) {
	st, ok := check.Underlying(metaT).(*check.Struct)
	if !ok {
		return
	}
	l := c.prog.MetaLayout
	for i, f := range st.Fields {
		a := f.Annos.Get("field_list")
		if a == nil {
			continue
		}
		for _, e := range a.Args {
			if n, ok := e.(*ast.IntLit); ok {
				idx := int(n.Value.Int64())
				fl := l.Fields[i]
				c.prog.FieldLists[idx] = append(c.prog.FieldLists[idx], FieldRef{Off: c.prog.Meta + fl.Off, Size: fl.Layout.Size})
			}
		}
	}
}

// blockRef is a parser or control to instantiate with constructor arguments.
type blockRef struct {
	decl  ast.Decl
	name  string // control-plane name of the instance
	args  []ast.Arg
	annos ast.Annotations
	site  *env // where the instance is declared: resolves instance names passed as constructor arguments (nil: top level)
}

func (c *compiler) blockArg(e ast.Expr) *blockRef {
	switch e := e.(type) {
	case *ast.Call:
		ci := c.info.Calls[e]
		if ci == nil || ci.Kind != check.CallConstructor {
			break
		}
		b, ok := ci.Ret.(*check.Block)
		if !ok {
			break
		}
		return &blockRef{decl: b.Decl, name: b.Name, args: e.Args}
	case *ast.Ident:
		o := c.info.Uses[e]
		if o != nil && o.Kind == check.ObjInstance {
			inst := o.Decl.(*ast.Instance)
			if b, ok := c.info.DeclTypes[inst].(*check.Block); ok {
				return &blockRef{decl: b.Decl, name: cpName(inst.Annos, inst.Name, ""), args: inst.Args, annos: inst.Annos}
			}
		}
	}
	c.fail(e.Position(), "V1Switch arguments must be parser or control instances")
	return nil
}

// cpName computes a control-plane name: @name wins; a leading "." makes it absolute.
func cpName(annos ast.Annotations, local, prefix string) string {
	if n, ok := annos.String("name"); ok {
		if strings.HasPrefix(n, ".") {
			return n[1:]
		}
		return prefix + n
	}
	return prefix + local
}

// instantiate compiles one parser/control instance. params gives fixed slot
// offsets for parameters (-1: packet_in/packet_out) or nil to allocate fresh ones.
func (c *compiler) instantiate(b *blockRef, params []int) func(*State) int {
	switch d := b.decl.(type) {
	case *ast.ParserDecl:
		e := c.blockEnv(b, d.Params, d.CtorParams, params)
		return c.parser(e, d)
	case *ast.ControlDecl:
		e := c.blockEnv(b, d.Params, d.CtorParams, params)
		init := c.locals(e, d.Locals)
		body := c.block(e, d.Body)
		return func(st *State) int {
			init(st)
			r := body(st)
			return r
		}
	}
	c.fail(b.decl.Position(), "cannot instantiate %s", b.decl.DeclName())
	return nil
}

func (c *compiler) blockEnv(b *blockRef, ps, ctor []*ast.Param, fixed []int) *env {
	e := newEnv(c.topEnv, b.name+".")
	for i, p := range ps {
		if fixed != nil {
			if fixed[i] >= 0 {
				e.vars[p] = fixed[i]
			}
			continue
		}
		e.vars[p] = c.alloc(c.layoutOf(c.info.DeclTypes[p]).Size)
	}
	site := b.site
	if site == nil {
		site = c.topEnv
	}
	// constructor parameters: bind constant arguments
	for i, p := range ctor {
		var a ast.Expr
		for j, arg := range b.args {
			if arg.Name == p.Name || arg.Name == "" && j == i {
				a = arg.Value
			}
		}
		if a == nil {
			a = p.Default
		}
		if a == nil {
			c.fail(p.Pos, "no argument for constructor parameter %s", p.Name)
		}
		if v, ok := c.info.Consts[a]; ok {
			e.consts[p] = v
			continue
		}
		// extern or block instance passed as constructor argument
		if call, ok := a.(*ast.Call); ok {
			e.objs[p] = c.anonInstance(site, call, b.name+"."+p.Name)
			continue
		}
		if id, ok := a.(*ast.Ident); ok {
			if o := c.info.Uses[id]; o != nil {
				if obj := site.obj(o.Decl); obj != nil {
					e.objs[p] = obj
					continue
				}
			}
		}
		c.fail(a.Position(), "unsupported constructor argument")
	}
	return e
}

// locals creates local objects and returns the per-apply initialiser of local variables.
func (c *compiler) locals(e *env, ds []ast.Decl) func(*State) {
	var inits []func(*State) int
	for _, d := range ds {
		switch d := d.(type) {
		case *ast.ActionDecl:
			// the Action is created on first use so that unused actions are not control-plane visible
			e.objs[d] = actionMarker{}
		case *ast.TableDecl:
			e.objs[d] = c.table(e, d)
		case *ast.Instance:
			e.objs[d] = c.instance(e, d)
		case *ast.VarDecl:
			inits = append(inits, c.varDecl(e, d))
		case *ast.ConstDecl:
			c.constDecl(e, d)
		case *ast.ValueSetDecl:
			e.objs[d] = c.valueSet(e, d)
		default:
			c.fail(d.Position(), "unsupported local declaration")
		}
	}
	// tables reference actions; compile them after all locals exist
	for _, d := range ds {
		if t, ok := d.(*ast.TableDecl); ok {
			c.finishTable(e, t, e.objs[d].(*Table))
		}
	}
	return func(st *State) {
		for _, f := range inits {
			f(st)
		}
	}
}

func (c *compiler) constDecl(e *env, d *ast.ConstDecl) {
	// scalar constants are folded by the checker; aggregates become read-only variables
	if _, ok := c.info.Consts[d.Value]; ok {
		return
	}
	l := c.layoutOf(c.info.DeclTypes[d])
	off := c.alloc(l.Size)
	e.vars[d] = off
	v := c.expr(e, d.Value)
	store := c.storeFn(v, l)
	c.prog.constInits = append(c.prog.constInits, func(st *State) { store(st, st.S[off:off+l.Size]) })
}

func (c *compiler) varDecl(e *env, d *ast.VarDecl) func(*State) int {
	l := c.layoutOf(c.info.DeclTypes[d])
	off := c.alloc(l.Size)
	e.vars[d] = off
	if d.Init == nil {
		n := l.Size
		return func(st *State) int {
			clear(st.S[off : off+n])
			return 0
		}
	}
	v := c.expr(e, d.Init)
	store := c.storeFn(v, l)
	return func(st *State) int {
		store(st, st.S[off:off+l.Size])
		return 0
	}
}

// action returns the Action object for decl in env e (created on first use).
func (c *compiler) action(e *env, d *ast.ActionDecl) *Action {
	// find the env that declares the action (top level or a control)
	owner := e
	for owner != nil {
		if owner.parent == nil {
			break
		}
		if owner.declares(d) {
			break
		}
		owner = owner.parent
	}
	if a, ok := owner.acts[d]; ok {
		a.ControlPlane = a.ControlPlane || !e.inAction
		return a
	}
	prefix := owner.prefix
	a := &Action{Name: cpName(d.Annos, d.Name, prefix), Annos: d.Annos, Decl: d, ControlPlane: !e.inAction}
	owner.acts[d] = a
	ae := newEnv(owner, owner.prefix)
	ae.inAction = true
	for _, p := range d.Params {
		l := c.layoutOf(c.info.DeclTypes[p])
		off := c.alloc(l.Size)
		ae.vars[p] = off
		if p.Dir == "" {
			name := cpName(p.Annos, p.Name, "")
			a.Params = append(a.Params, &ActionParam{Name: name, Width: l.Width, Annos: p.Annos, Off: off, Layout: l, Type: c.info.DeclTypes[p]})
		}
	}
	c.actionEnvs[a] = ae
	top := 1
	if owner.parent == nil {
		top = 0
	}
	c.actOrder[a] = [3]int{c.curBlock, top, c.declOrder[d]}
	body := c.block(ae, d.Body)
	a.Run = func(st *State) int {
		if body(st) == exited {
			return exited
		}
		return next
	}
	// Actions may share a control-plane name (a P4-14 translation's
	// @name("._drop") in ingress and egress, or one declaration in two
	// instances of a control): all are kept, and p4info lists them as one
	// action when their parameters agree.
	c.prog.Actions = append(c.prog.Actions, a)
	return a
}

// declares reports whether the control that e belongs to declares d.
func (e *env) declares(d *ast.ActionDecl) bool {
	_, ok := e.objs[d]
	return ok
}

type actionMarker struct{}

// resolveRet returns the checked return type of a function (nil for void).
func (c *compiler) resolveRet(fd *ast.FunctionDecl) check.Type {
	t := c.info.DeclTypes[fd]
	if _, ok := t.(*check.Void); ok || t == nil {
		return nil
	}
	return t
}

type bigInt = big.Int
