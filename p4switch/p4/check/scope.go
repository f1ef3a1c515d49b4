package check

import (
	"math/big"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
)

// ObjKind says what a name denotes.
type ObjKind int

const (
	ObjConst ObjKind = iota
	ObjVar           // local variable or control/parser-local variable
	ObjParam         // parameter of an action, function, parser or control
	ObjType
	ObjAction
	ObjFunction
	ObjExternFunc
	ObjTable
	ObjInstance // extern, parser or control instance
	ObjBlock    // parser or control declaration (instantiable type)
	ObjValueSet
	ObjState
)

// Object is a named entity.
type Object struct {
	Kind      ObjKind
	Name      string
	Type      Type
	Decl      ast.Node // declaring node (*ast.VarDecl, *ast.Param, *ast.ActionDecl, ...)
	Value     *big.Int // ObjConst with a scalar value
	ValueExpr ast.Expr // ObjConst initialiser
	Overloads []*ast.Method
}

// Scope maps names to objects.
type Scope struct {
	Parent *Scope
	Objs   map[string]*Object
}

func newScope(parent *Scope) *Scope { return &Scope{Parent: parent, Objs: map[string]*Object{}} }

// Lookup finds name in s or its parents.
func (s *Scope) Lookup(name string) *Object {
	for ; s != nil; s = s.Parent {
		if o, ok := s.Objs[name]; ok {
			return o
		}
	}
	return nil
}

func (s *Scope) root() *Scope {
	for s.Parent != nil {
		s = s.Parent
	}
	return s
}
