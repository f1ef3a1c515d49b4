// Package scanner turns preprocessed P4 source into tokens.
package scanner

import (
	"strings"

	"github.com/fairfabric/fairfabric/p4switch/p4/token"
)

// LineMap maps a line of the preprocessed text (0-based index) to its origin.
type LineMap []token.Pos

// puncts is ordered longest first so that the scanner takes maximal munch.
var puncts = []string{
	"|+|=", "|-|=", "<<=", ">>=", "&&&", "|+|", "|-|", "...",
	"==", "!=", "<=", ">=", "&&", "||", "++", "<<", "..", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
	"{", "}", "(", ")", "[", "]", "<", ">", ";", ":", ",", ".", "=", "+", "-", "*", "/", "%",
	"&", "|", "^", "~", "!", "?", "@", "_",
}

// Scan tokenises src; positions are translated through lines when given.
// Note ">>" is never produced: the parser joins two ">" (for nested type arguments).
func Scan(src string, lines LineMap, file string) ([]token.Token, error) {
	var toks []token.Token
	line, col := 0, 1
	pos := func() token.Pos {
		if line < len(lines) {
			p := lines[line]
			p.Col = col
			return p
		}
		return token.Pos{File: file, Line: line + 1, Col: col}
	}
	i := 0
	adv := func(n int) {
		for k := 0; k < n; k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f':
			adv(1)
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				adv(1)
			}
		case strings.HasPrefix(src[i:], "/*"):
			p := pos()
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return nil, &token.Error{Pos: p, Msg: "unterminated comment"}
			}
			adv(j + 4)
		case isLetter(c):
			p := pos()
			j := i
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			word := src[i:j]
			kind := token.Ident
			if token.Keywords[word] {
				kind = token.Keyword
			}
			if word == "_" {
				kind = token.Punct
			}
			toks = append(toks, token.Token{Kind: kind, Text: word, Pos: p})
			adv(j - i)
		case isDigit(c):
			p := pos()
			j := scanNumber(src, i)
			toks = append(toks, token.Token{Kind: token.Int, Text: src[i:j], Pos: p})
			adv(j - i)
		case c == '"':
			p := pos()
			j := i + 1
			var sb strings.Builder
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' && j+1 < len(src) {
					j++
					switch src[j] {
					case 'n':
						sb.WriteByte('\n')
					case 't':
						sb.WriteByte('\t')
					default:
						sb.WriteByte(src[j])
					}
					j++
					continue
				}
				if src[j] == '\n' {
					return nil, &token.Error{Pos: p, Msg: "unterminated string"}
				}
				sb.WriteByte(src[j])
				j++
			}
			if j >= len(src) {
				return nil, &token.Error{Pos: p, Msg: "unterminated string"}
			}
			toks = append(toks, token.Token{Kind: token.String, Text: sb.String(), Pos: p})
			adv(j + 1 - i)
		default:
			p := pos()
			found := ""
			for _, s := range puncts {
				if strings.HasPrefix(src[i:], s) {
					found = s
					break
				}
			}
			if found == "" {
				return nil, &token.Error{Pos: p, Msg: "unexpected character " + quoteByte(c)}
			}
			toks = append(toks, token.Token{Kind: token.Punct, Text: found, Pos: p})
			adv(len(found))
		}
	}
	toks = append(toks, token.Token{Kind: token.EOF, Pos: pos()})
	return toks, nil
}

// scanNumber accepts 123, 0x1F, 0b101, 0o17, 8w255, 8s-? (no sign), 16w0xFFFF, with '_' separators.
func scanNumber(src string, i int) int {
	j := i
	for j < len(src) && isDigit(src[j]) {
		j++
	}
	if j < len(src) && (src[j] == 'w' || src[j] == 's') && j+1 < len(src) && isDigit(src[j+1]) {
		j++
		for j < len(src) && isDigit(src[j]) {
			j++
		}
	}
	for j < len(src) && (isDigit(src[j]) || isLetter(src[j])) {
		j++
	}
	return j
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

func quoteByte(c byte) string {
	if c >= 32 && c < 127 {
		return "'" + string(c) + "'"
	}
	return "byte 0x" + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15])
}
