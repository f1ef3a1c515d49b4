package preproc

import (
	"fmt"
	"strings"
)

// funcMacro is a function-like macro: #define NAME(a, b) body.
type funcMacro struct {
	params []string
	body   string
}

// define handles the text after "#define".
func (p *pp) define(rest string) error {
	if rest == "" {
		return fmt.Errorf("#define needs a name")
	}
	i := 0
	for i < len(rest) && (isIdentStart(rest[i]) || rest[i] >= '0' && rest[i] <= '9') {
		i++
	}
	name := rest[:i]
	if name == "" || !isIdentStart(name[0]) {
		return fmt.Errorf("bad macro name in #define %s", rest)
	}
	if i < len(rest) && rest[i] == '(' {
		end := strings.IndexByte(rest[i:], ')')
		if end < 0 {
			return fmt.Errorf("missing ) in macro parameters")
		}
		var params []string
		for _, q := range strings.Split(rest[i+1:i+end], ",") {
			if q = strings.TrimSpace(q); q != "" {
				params = append(params, q)
			}
		}
		p.funcs[name] = &funcMacro{params: params, body: strings.TrimSpace(rest[i+end+1:])}
		delete(p.defines, name)
		return nil
	}
	p.defines[name] = strings.TrimSpace(rest[i:])
	delete(p.funcs, name)
	return nil
}

// macroArgs parses "(a, b)" starting at line[j] (after optional spaces);
// it returns the arguments and the index after ")".
func macroArgs(line string, j int) ([]string, int, bool) {
	for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
		j++
	}
	if j >= len(line) || line[j] != '(' {
		return nil, 0, false
	}
	depth := 0
	var args []string
	start := j + 1
	for k := j; k < len(line); k++ {
		switch line[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				if a := strings.TrimSpace(line[start:k]); a != "" || len(args) > 0 {
					args = append(args, a)
				}
				return args, k + 1, true
			}
		case ',':
			if depth == 1 {
				args = append(args, strings.TrimSpace(line[start:k]))
				start = k + 1
			}
		}
	}
	return nil, 0, false
}

// apply substitutes the arguments for the parameters in the body.
func (m *funcMacro) apply(args []string) string {
	var sb strings.Builder
	b := m.body
	for i := 0; i < len(b); {
		if isIdentStart(b[i]) {
			j := i
			for j < len(b) && (isIdentStart(b[j]) || b[j] >= '0' && b[j] <= '9') {
				j++
			}
			word := b[i:j]
			replaced := false
			for k, prm := range m.params {
				if prm == word {
					sb.WriteString(args[k])
					replaced = true
					break
				}
			}
			if !replaced {
				sb.WriteString(word)
			}
			i = j
			continue
		}
		sb.WriteByte(b[i])
		i++
	}
	return sb.String()
}
