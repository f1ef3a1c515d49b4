// Package ast declares the syntax tree of P4_16 programs.
package ast

import (
	"math/big"

	"github.com/fairfabric/fairfabric/p4switch/p4/token"
)

// Node is any syntax tree node.
type Node interface{ Position() token.Pos }

// Annotation is @name or @name(args).
type Annotation struct {
	Pos  token.Pos
	Name string
	Args []Expr // parsed arguments when they are expressions
	Raw  []token.Token
}

// Annotations is a list of annotations with lookup helpers.
type Annotations []*Annotation

// Get returns the annotation called name, or nil.
func (as Annotations) Get(name string) *Annotation {
	for _, a := range as {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// String returns the first string argument of annotation name.
func (as Annotations) String(name string) (string, bool) {
	if a := as.Get(name); a != nil {
		for _, e := range a.Args {
			if s, ok := e.(*StringLit); ok {
				return s.Value, true
			}
		}
		for _, t := range a.Raw {
			if t.Kind == token.String {
				return t.Text, true
			}
		}
	}
	return "", false
}

// Int returns the first integer argument of annotation name.
func (as Annotations) Int(name string) (*big.Int, bool) {
	if a := as.Get(name); a != nil && len(a.Args) > 0 {
		if n, ok := a.Args[0].(*IntLit); ok {
			return n.Value, true
		}
	}
	return nil, false
}

// ---- Types ----

// Type is a type expression.
type Type interface {
	Node
	typeNode()
}

type (
	// NamedType refers to a declared type, possibly specialised: T or T<A, B>.
	NamedType struct {
		Pos  token.Pos
		Name string
		Args []Type
	}
	// BitType is bit<W> (Signed false) or int<W> (Signed true).
	BitType struct {
		Pos    token.Pos
		Width  Expr
		Signed bool
	}
	VarbitType struct {
		Pos   token.Pos
		Width Expr
	}
	IntType      struct{ Pos token.Pos } // arbitrary-precision int
	BoolType     struct{ Pos token.Pos }
	ErrorType    struct{ Pos token.Pos }
	StringType   struct{ Pos token.Pos }
	VoidType     struct{ Pos token.Pos }
	DontCareType struct{ Pos token.Pos }
	StackType    struct {
		Pos  token.Pos
		Elem Type
		Size Expr
	}
	TupleType struct {
		Pos   token.Pos
		Elems []Type
	}
)

func (t *NamedType) Position() token.Pos    { return t.Pos }
func (t *BitType) Position() token.Pos      { return t.Pos }
func (t *VarbitType) Position() token.Pos   { return t.Pos }
func (t *IntType) Position() token.Pos      { return t.Pos }
func (t *BoolType) Position() token.Pos     { return t.Pos }
func (t *ErrorType) Position() token.Pos    { return t.Pos }
func (t *StringType) Position() token.Pos   { return t.Pos }
func (t *VoidType) Position() token.Pos     { return t.Pos }
func (t *DontCareType) Position() token.Pos { return t.Pos }
func (t *StackType) Position() token.Pos    { return t.Pos }
func (t *TupleType) Position() token.Pos    { return t.Pos }
func (*NamedType) typeNode()                {}
func (*BitType) typeNode()                  {}
func (*VarbitType) typeNode()               {}
func (*IntType) typeNode()                  {}
func (*BoolType) typeNode()                 {}
func (*ErrorType) typeNode()                {}
func (*StringType) typeNode()               {}
func (*VoidType) typeNode()                 {}
func (*DontCareType) typeNode()             {}
func (*StackType) typeNode()                {}
func (*TupleType) typeNode()                {}

// ---- Expressions ----

// Expr is an expression.
type Expr interface {
	Node
	exprNode()
}

type (
	Ident struct {
		Pos  token.Pos
		Name string
		Dot  bool // .name (top-level scope)
	}
	IntLit struct {
		Pos      token.Pos
		Value    *big.Int
		Width    int // 0 when no width prefix
		Signed   bool
		HasWidth bool
	}
	BoolLit struct {
		Pos   token.Pos
		Value bool
	}
	StringLit struct {
		Pos   token.Pos
		Value string
	}
	Member struct {
		Pos  token.Pos
		X    Expr
		Name string
	}
	Index struct {
		Pos   token.Pos
		X     Expr
		Index Expr
	}
	Slice struct {
		Pos    token.Pos
		X      Expr
		Hi, Lo Expr
	}
	Call struct {
		Pos      token.Pos
		Fun      Expr
		TypeArgs []Type
		Args     []Arg
	}
	Unary struct {
		Pos token.Pos
		Op  string // - ~ !
		X   Expr
	}
	Binary struct {
		Pos  token.Pos
		Op   string
		X, Y Expr
	}
	Ternary struct {
		Pos              token.Pos
		Cond, Then, Else Expr
	}
	Cast struct {
		Pos  token.Pos
		Type Type
		X    Expr
	}
	// ListExpr is {a, b, c} (tuple/struct/header initialiser or keyset tuple).
	ListExpr struct {
		Pos   token.Pos
		Elems []Expr
	}
	// StructExpr is {a = 1, b = 2}.
	StructExpr struct {
		Pos    token.Pos
		Type   Type // optional (T){...} is a Cast instead
		Names  []string
		Values []Expr
	}
	Mask struct { // a &&& b
		Pos         token.Pos
		Value, Mask Expr
	}
	Range struct { // a .. b
		Pos    token.Pos
		Lo, Hi Expr
	}
	Default  struct{ Pos token.Pos } // default keyset
	DontCare struct{ Pos token.Pos } // _
	// TypeExpr is a type used where an expression is expected (e.g. bit<8>.minSizeInBits, or constructor call head).
	TypeExpr struct {
		Pos  token.Pos
		Type Type
	}
	This struct{ Pos token.Pos }
)

// Arg is a call argument, optionally named.
type Arg struct {
	Name  string
	Value Expr // *DontCare for _
}

func (e *Ident) Position() token.Pos      { return e.Pos }
func (e *IntLit) Position() token.Pos     { return e.Pos }
func (e *BoolLit) Position() token.Pos    { return e.Pos }
func (e *StringLit) Position() token.Pos  { return e.Pos }
func (e *Member) Position() token.Pos     { return e.Pos }
func (e *Index) Position() token.Pos      { return e.Pos }
func (e *Slice) Position() token.Pos      { return e.Pos }
func (e *Call) Position() token.Pos       { return e.Pos }
func (e *Unary) Position() token.Pos      { return e.Pos }
func (e *Binary) Position() token.Pos     { return e.Pos }
func (e *Ternary) Position() token.Pos    { return e.Pos }
func (e *Cast) Position() token.Pos       { return e.Pos }
func (e *ListExpr) Position() token.Pos   { return e.Pos }
func (e *StructExpr) Position() token.Pos { return e.Pos }
func (e *Mask) Position() token.Pos       { return e.Pos }
func (e *Range) Position() token.Pos      { return e.Pos }
func (e *Default) Position() token.Pos    { return e.Pos }
func (e *DontCare) Position() token.Pos   { return e.Pos }
func (e *TypeExpr) Position() token.Pos   { return e.Pos }
func (e *This) Position() token.Pos       { return e.Pos }
func (*Ident) exprNode()                  {}
func (*IntLit) exprNode()                 {}
func (*BoolLit) exprNode()                {}
func (*StringLit) exprNode()              {}
func (*Member) exprNode()                 {}
func (*Index) exprNode()                  {}
func (*Slice) exprNode()                  {}
func (*Call) exprNode()                   {}
func (*Unary) exprNode()                  {}
func (*Binary) exprNode()                 {}
func (*Ternary) exprNode()                {}
func (*Cast) exprNode()                   {}
func (*ListExpr) exprNode()               {}
func (*StructExpr) exprNode()             {}
func (*Mask) exprNode()                   {}
func (*Range) exprNode()                  {}
func (*Default) exprNode()                {}
func (*DontCare) exprNode()               {}
func (*TypeExpr) exprNode()               {}
func (*This) exprNode()                   {}

// ---- Statements ----

// Stmt is a statement (or a local declaration inside a block).
type Stmt interface {
	Node
	stmtNode()
}

type (
	Assign struct {
		Pos token.Pos
		LHS Expr
		Op  string // "=" or compound "+=" etc.
		RHS Expr
	}
	CallStmt struct {
		Pos  token.Pos
		Call *Call
	}
	If struct {
		Pos  token.Pos
		Cond Expr
		Then Stmt
		Else Stmt
	}
	Block struct {
		Pos   token.Pos
		Stmts []Stmt
	}
	Switch struct {
		Pos   token.Pos
		X     Expr
		Cases []*SwitchCase
	}
	Exit   struct{ Pos token.Pos }
	Return struct {
		Pos   token.Pos
		Value Expr
	}
	Empty    struct{ Pos token.Pos }
	DeclStmt struct {
		Pos  token.Pos
		Decl Decl // *VarDecl, *ConstDecl, *Instance
	}
)

// SwitchCase is one label list with its body; Body nil means fall through to the next case.
type SwitchCase struct {
	Pos    token.Pos
	Labels []Expr // *Default for default
	Body   *Block
}

func (s *Assign) Position() token.Pos   { return s.Pos }
func (s *CallStmt) Position() token.Pos { return s.Pos }
func (s *If) Position() token.Pos       { return s.Pos }
func (s *Block) Position() token.Pos    { return s.Pos }
func (s *Switch) Position() token.Pos   { return s.Pos }
func (s *Exit) Position() token.Pos     { return s.Pos }
func (s *Return) Position() token.Pos   { return s.Pos }
func (s *Empty) Position() token.Pos    { return s.Pos }
func (s *DeclStmt) Position() token.Pos { return s.Pos }
func (*Assign) stmtNode()               {}
func (*CallStmt) stmtNode()             {}
func (*If) stmtNode()                   {}
func (*Block) stmtNode()                {}
func (*Switch) stmtNode()               {}
func (*Exit) stmtNode()                 {}
func (*Return) stmtNode()               {}
func (*Empty) stmtNode()                {}
func (*DeclStmt) stmtNode()             {}

// ---- Declarations ----

// Decl is a declaration.
type Decl interface {
	Node
	DeclName() string
}

// Param is a parameter with direction "", "in", "out" or "inout".
type Param struct {
	Pos     token.Pos
	Annos   Annotations
	Dir     string
	Type    Type
	Name    string
	Default Expr
}

// Field is a struct/header field.
type Field struct {
	Pos   token.Pos
	Annos Annotations
	Type  Type
	Name  string
}

type (
	ConstDecl struct {
		Pos   token.Pos
		Annos Annotations
		Type  Type
		Name  string
		Value Expr
	}
	VarDecl struct {
		Pos   token.Pos
		Annos Annotations
		Type  Type
		Name  string
		Init  Expr
	}
	// TypedefDecl is typedef T N; (IsNewType for "type T N;").
	TypedefDecl struct {
		Pos       token.Pos
		Annos     Annotations
		Type      Type
		Name      string
		IsNewType bool
	}
	// StructDecl is a struct, header or header_union.
	StructDecl struct {
		Pos    token.Pos
		Annos  Annotations
		Kind   string // "struct", "header", "header_union"
		Name   string
		Fields []*Field
	}
	EnumDecl struct {
		Pos     token.Pos
		Annos   Annotations
		Name    string
		Base    Type // nil unless serializable
		Members []string
		Values  []Expr
	}
	ErrorDecl struct {
		Pos     token.Pos
		Members []string
	}
	MatchKindDecl struct {
		Pos     token.Pos
		Members []string
	}
	// Method is an extern method, constructor or function prototype.
	Method struct {
		Pos        token.Pos
		Annos      Annotations
		Ret        Type // nil for constructors
		Name       string
		TypeParams []string
		Params     []*Param
		Abstract   bool
	}
	ExternDecl struct {
		Pos        token.Pos
		Annos      Annotations
		Name       string
		TypeParams []string
		Methods    []*Method
	}
	// ExternFunc is a top-level extern function prototype.
	ExternFunc struct {
		Method
	}
	// TypeProto is a parser/control/package type declaration without a body.
	TypeProto struct {
		Pos        token.Pos
		Annos      Annotations
		Kind       string // "parser", "control", "package"
		Name       string
		TypeParams []string
		Params     []*Param
	}
	ParserDecl struct {
		Pos        token.Pos
		Annos      Annotations
		Name       string
		TypeParams []string
		Params     []*Param
		CtorParams []*Param
		Locals     []Decl
		States     []*State
	}
	ControlDecl struct {
		Pos        token.Pos
		Annos      Annotations
		Name       string
		TypeParams []string
		Params     []*Param
		CtorParams []*Param
		Locals     []Decl
		Body       *Block
	}
	ActionDecl struct {
		Pos    token.Pos
		Annos  Annotations
		Name   string
		Params []*Param
		Body   *Block
	}
	FunctionDecl struct {
		Pos        token.Pos
		Annos      Annotations
		Ret        Type
		Name       string
		TypeParams []string
		Params     []*Param
		Body       *Block
	}
	TableDecl struct {
		Pos   token.Pos
		Annos Annotations
		Name  string
		Props []*TableProp
	}
	// Instance is Type(args) name; possibly with an initializer block for abstract methods.
	Instance struct {
		Pos   token.Pos
		Annos Annotations
		Type  Type
		Args  []Arg
		Name  string
		Init  []Decl // implementations of abstract methods
	}
	ValueSetDecl struct {
		Pos   token.Pos
		Annos Annotations
		Elem  Type
		Size  Expr
		Name  string
	}
)

func (d *ConstDecl) Position() token.Pos     { return d.Pos }
func (d *VarDecl) Position() token.Pos       { return d.Pos }
func (d *TypedefDecl) Position() token.Pos   { return d.Pos }
func (d *StructDecl) Position() token.Pos    { return d.Pos }
func (d *EnumDecl) Position() token.Pos      { return d.Pos }
func (d *ErrorDecl) Position() token.Pos     { return d.Pos }
func (d *MatchKindDecl) Position() token.Pos { return d.Pos }
func (d *Method) Position() token.Pos        { return d.Pos }
func (d *ExternDecl) Position() token.Pos    { return d.Pos }
func (d *TypeProto) Position() token.Pos     { return d.Pos }
func (d *ParserDecl) Position() token.Pos    { return d.Pos }
func (d *ControlDecl) Position() token.Pos   { return d.Pos }
func (d *ActionDecl) Position() token.Pos    { return d.Pos }
func (d *FunctionDecl) Position() token.Pos  { return d.Pos }
func (d *TableDecl) Position() token.Pos     { return d.Pos }
func (d *Instance) Position() token.Pos      { return d.Pos }
func (d *ValueSetDecl) Position() token.Pos  { return d.Pos }
func (d *ConstDecl) DeclName() string        { return d.Name }
func (d *VarDecl) DeclName() string          { return d.Name }
func (d *TypedefDecl) DeclName() string      { return d.Name }
func (d *StructDecl) DeclName() string       { return d.Name }
func (d *EnumDecl) DeclName() string         { return d.Name }
func (d *ErrorDecl) DeclName() string        { return "error" }
func (d *MatchKindDecl) DeclName() string    { return "match_kind" }
func (d *Method) DeclName() string           { return d.Name }
func (d *ExternDecl) DeclName() string       { return d.Name }
func (d *TypeProto) DeclName() string        { return d.Name }
func (d *ParserDecl) DeclName() string       { return d.Name }
func (d *ControlDecl) DeclName() string      { return d.Name }
func (d *ActionDecl) DeclName() string       { return d.Name }
func (d *FunctionDecl) DeclName() string     { return d.Name }
func (d *TableDecl) DeclName() string        { return d.Name }
func (d *Instance) DeclName() string         { return d.Name }
func (d *ValueSetDecl) DeclName() string     { return d.Name }

// State is a parser state.
type State struct {
	Pos   token.Pos
	Annos Annotations
	Name  string
	Stmts []Stmt
	// Next is the transition target when Select is nil.
	Next   string
	Select *Select
}

// Select is transition select(Exprs) { cases }.
type Select struct {
	Pos   token.Pos
	Exprs []Expr
	Cases []*SelectCase
}

// SelectCase is keyset: state;
type SelectCase struct {
	Pos    token.Pos
	Keyset Expr // *ListExpr for tuples
	Next   string
}

// TableProp is one table property. Exactly one of the fields is set according to Name.
type TableProp struct {
	Pos     token.Pos
	Annos   Annotations
	Name    string // key, actions, default_action, entries, size, implementation, ...
	Const   bool
	Keys    []*KeyElem
	Actions []*ActionRef
	Entries []*Entry
	Value   Expr // default_action (a *Call or *Ident) and other properties
}

// KeyElem is expr : match_kind.
type KeyElem struct {
	Pos       token.Pos
	Annos     Annotations
	Expr      Expr
	MatchKind string
}

// ActionRef is an action in a table's action list; Call has bound arguments when any.
type ActionRef struct {
	Pos   token.Pos
	Annos Annotations
	Name  Expr // *Ident
	Args  []Arg
}

// Entry is a const table entry.
type Entry struct {
	Pos      token.Pos
	Annos    Annotations
	Keys     []Expr
	Action   *ActionRef
	Priority Expr
	Const    bool // "const" before an entry of a non-const entries list
}

// Program is a parsed P4 program.
type Program struct {
	Decls []Decl
}

func (p *Param) Position() token.Pos      { return p.Pos }
func (f *Field) Position() token.Pos      { return f.Pos }
func (s *State) Position() token.Pos      { return s.Pos }
func (k *KeyElem) Position() token.Pos    { return k.Pos }
func (e *Entry) Position() token.Pos      { return e.Pos }
func (a *ActionRef) Position() token.Pos  { return a.Pos }
func (c *SwitchCase) Position() token.Pos { return c.Pos }

// Has reports whether annotation name is present.
func (as Annotations) Has(name string) bool { return as.Get(name) != nil }

// For is for (Init; Cond; Update) Body.
type For struct {
	Pos    token.Pos
	Init   []Stmt
	Cond   Expr // nil: true
	Update []Stmt
	Body   Stmt
}

// ForIn is for (Type Name in Lo .. Hi) Body.
type ForIn struct {
	Pos    token.Pos
	Var    *VarDecl
	Lo, Hi Expr
	Body   Stmt
}

// Break and Continue end or restart the innermost loop.
type (
	Break    struct{ Pos token.Pos }
	Continue struct{ Pos token.Pos }
)

func (s *For) Position() token.Pos      { return s.Pos }
func (s *ForIn) Position() token.Pos    { return s.Pos }
func (s *Break) Position() token.Pos    { return s.Pos }
func (s *Continue) Position() token.Pos { return s.Pos }
func (*For) stmtNode()                  {}
func (*ForIn) stmtNode()                {}
func (*Break) stmtNode()                {}
func (*Continue) stmtNode()             {}
