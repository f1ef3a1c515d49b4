// Package check resolves names and computes the type of every expression of
// a parsed P4 program, reporting front-end errors with their positions.
package check

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
)

// Type is a resolved P4 type.
type Type interface{ String() string }

type (
	// Bits is bit<W> or int<W>.
	Bits struct {
		W      int
		Signed bool
	}
	// InfInt is the type of unsized integer constants.
	InfInt struct{}
	Bool   struct{}
	Varbit struct{ Max int }
	ErrorT struct{}
	String struct{}
	Void   struct{}
	// MatchKind is the type of match_kind members.
	MatchKind struct{}
	// DontCare is the type of "_".
	DontCare struct{}
	// Struct is a struct, header or header_union.
	Struct struct {
		Kind   string // struct, header, header_union
		Name   string
		Fields []*Field
		Decl   *ast.StructDecl
	}
	Field struct {
		Name  string
		Type  Type
		Annos ast.Annotations
	}
	Stack struct {
		Elem *Struct
		Size int
	}
	Enum struct {
		Name    string
		Base    *Bits // nil when not serializable
		Members []string
		Values  []uint64
		Decl    *ast.EnumDecl
	}
	Tuple struct{ Elems []Type }
	// List is the type of a {...} expression before it is converted.
	List struct{ Elems []Type }
	// StructLit is the type of a {a = x} expression.
	StructLit struct {
		Names []string
		Elems []Type
	}
	// Extern is an extern object type, possibly specialised.
	Extern struct {
		Decl *ast.ExternDecl
		Args []Type
	}
	// Block is a parser or control type (declared or prototype).
	Block struct {
		Kind   string // parser, control, package
		Name   string
		Params []*ast.Param
		Decl   ast.Decl
		Args   []Type
	}
	// TypeVar is an unbound type parameter.
	TypeVar struct{ Name string }
	// NewType is "type T N;".
	NewType struct {
		Name string
		Base Type
	}
	// Method is the type of a callable member or function (resolved at call time).
	Method struct{ Name string }
	// Table is the type of a table.
	Table struct{ Decl *ast.TableDecl }
	// ApplyResult is the type of t.apply().
	ApplyResult struct{ Table *ast.TableDecl }
	// ActionEnum is the type of t.apply().action_run.
	ActionEnum struct{ Table *ast.TableDecl }
	// TypeName is the "type" of an expression that names a type (enum, error, ...).
	TypeName struct{ T Type }
	// ValueSet is a parser value_set.
	ValueSet struct {
		Elem Type
		Size int
	}
)

func (t *Bits) String() string {
	if t.Signed {
		return fmt.Sprintf("int<%d>", t.W)
	}
	return fmt.Sprintf("bit<%d>", t.W)
}
func (*InfInt) String() string    { return "int" }
func (*Bool) String() string      { return "bool" }
func (t *Varbit) String() string  { return fmt.Sprintf("varbit<%d>", t.Max) }
func (*ErrorT) String() string    { return "error" }
func (*String) String() string    { return "string" }
func (*Void) String() string      { return "void" }
func (*MatchKind) String() string { return "match_kind" }
func (*DontCare) String() string  { return "_" }
func (t *Struct) String() string  { return t.Kind + " " + t.Name }
func (t *Stack) String() string   { return fmt.Sprintf("%s[%d]", t.Elem.Name, t.Size) }
func (t *Enum) String() string    { return "enum " + t.Name }
func (t *Tuple) String() string   { return "tuple<" + join(t.Elems) + ">" }
func (t *List) String() string    { return "{" + join(t.Elems) + "}" }
func (t *StructLit) String() string {
	return "{...}"
}
func (t *Extern) String() string      { return "extern " + t.Decl.Name }
func (t *Block) String() string       { return t.Kind + " " + t.Name }
func (t *TypeVar) String() string     { return t.Name }
func (t *NewType) String() string     { return t.Name }
func (t *Method) String() string      { return "method " + t.Name }
func (t *Table) String() string       { return "table " + t.Decl.Name }
func (t *ApplyResult) String() string { return "apply result" }
func (t *ActionEnum) String() string  { return "action_run" }
func (t *TypeName) String() string    { return "type " + t.T.String() }
func (t *ValueSet) String() string    { return "value_set" }

func join(ts []Type) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.String())
	}
	return strings.Join(s, ", ")
}

// Field returns the field called name, or nil.
func (t *Struct) Field(name string) *Field {
	for _, f := range t.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Underlying strips new types.
func Underlying(t Type) Type {
	for {
		n, ok := t.(*NewType)
		if !ok {
			return t
		}
		t = n.Base
	}
}

// Width returns the bit width of a fixed-size type (0 when it has none).
func Width(t Type) int {
	switch t := Underlying(t).(type) {
	case *Bits:
		return t.W
	case *Bool:
		return 1
	case *Enum:
		if t.Base != nil {
			return t.Base.W
		}
		return 32
	case *ErrorT:
		return 32
	case *Varbit:
		return t.Max
	case *Struct:
		w := 0
		for _, f := range t.Fields {
			w += Width(f.Type)
		}
		return w
	case *Stack:
		return Width(t.Elem) * t.Size
	}
	return 0
}

// Same reports whether two types are identical.
func Same(a, b Type) bool {
	a, b = Underlying(a), Underlying(b)
	switch x := a.(type) {
	case *Bits:
		y, ok := b.(*Bits)
		return ok && *x == *y
	case *Varbit:
		y, ok := b.(*Varbit)
		return ok && x.Max == y.Max
	case *Stack:
		y, ok := b.(*Stack)
		return ok && x.Size == y.Size && Same(x.Elem, y.Elem)
	case *Tuple:
		y, ok := b.(*Tuple)
		if !ok || len(x.Elems) != len(y.Elems) {
			return false
		}
		for i := range x.Elems {
			if !Same(x.Elems[i], y.Elems[i]) {
				return false
			}
		}
		return true
	}
	if isSingleton(a) {
		return reflect.TypeOf(a) == reflect.TypeOf(b)
	}
	return a == b // named types are identical when they are the same declaration
}

func isSingleton(t Type) bool {
	switch t.(type) {
	case *Bool, *ErrorT, *String, *Void, *InfInt, *MatchKind:
		return true
	}
	return false
}
