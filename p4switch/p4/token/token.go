// Package token defines the lexical tokens of P4_16 and source positions.
package token

import "fmt"

// Kind is the kind of a lexical token.
type Kind int

const (
	EOF Kind = iota
	Ident
	Int    // integer literal, possibly with width prefix (8w5, 4s3)
	String // "..."
	Punct  // operators and delimiters; Text holds the spelling
	Keyword
)

// Pos is a source position after preprocessing (#line-accurate).
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Token is one lexical token.
type Token struct {
	Kind Kind
	Text string
	Pos  Pos
}

func (t Token) String() string {
	if t.Kind == EOF {
		return "end of file"
	}
	return fmt.Sprintf("%q", t.Text)
}

// Keywords of P4_16.
var Keywords = map[string]bool{
	"action": true, "apply": true, "bit": true, "bool": true, "const": true, "control": true,
	"default": true, "else": true, "enum": true, "error": true, "exit": true, "extern": true,
	"false": true, "header": true, "header_union": true, "if": true, "in": true, "inout": true,
	"int": true, "match_kind": true, "out": true, "package": true, "parser": true, "return": true,
	"select": true, "state": true, "string": true, "struct": true, "switch": true, "table": true,
	"transition": true, "true": true, "tuple": true, "typedef": true, "type": true, "varbit": true,
	"void": true, "value_set": true, "list": true, "abstract": true, "entries": true, "key": true,
	"actions": true, "this": true,
}

// ContextualKeywords may also be used as identifiers.
var ContextualKeywords = map[string]bool{"key": true, "actions": true, "entries": true, "state": true, "type": true, "apply": true, "list": true, "this": true}

// Error is a positioned front-end error.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }
