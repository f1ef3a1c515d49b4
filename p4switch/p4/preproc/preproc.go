// Package preproc implements the subset of the C preprocessor that P4
// programs use: #include, object-like #define/#undef, #ifdef/#ifndef/#if
// (defined(X), !, &&, ||, integer constants)/#elif/#else/#endif, #line and #error.
package preproc

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fairfabric/fairfabric/p4switch/p4/scanner"
	"github.com/fairfabric/fairfabric/p4switch/p4/token"
)

// Source reads files; the built-in include directory serves <...> includes.
type Source struct {
	System fs.FS                             // <core.p4>, <v1model.p4>
	Read   func(path string) ([]byte, error) // "..." includes and the main file; os.ReadFile when nil
}

// Result is the preprocessed text and, for every output line, where it came from.
type Result struct {
	Text  string
	Lines scanner.LineMap
}

type pp struct {
	src      Source
	defines  map[string]string
	funcs    map[string]*funcMacro
	out      strings.Builder
	lines    scanner.LineMap
	depth    int
	included map[string]int
}

type cond struct {
	active, taken, parentActive bool
	pos                         token.Pos
}

// File preprocesses the file at path.
func File(src Source, path string) (*Result, error) {
	if src.Read == nil {
		src.Read = os.ReadFile
	}
	data, err := src.Read(path)
	if err != nil {
		return nil, err
	}
	return Text(src, path, string(data))
}

// Text preprocesses text as if it were the file named path.
func Text(src Source, path, text string) (*Result, error) {
	if src.Read == nil {
		src.Read = os.ReadFile
	}
	p := &pp{src: src, defines: map[string]string{}, funcs: map[string]*funcMacro{}, included: map[string]int{}}
	if err := p.file(path, text); err != nil {
		return nil, err
	}
	return &Result{Text: p.out.String(), Lines: p.lines}, nil
}

func (p *pp) emit(line string, pos token.Pos) {
	p.out.WriteString(line)
	p.out.WriteByte('\n')
	p.lines = append(p.lines, pos)
}

func (p *pp) file(path, text string) error {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 50 {
		return fmt.Errorf("%s: #include nested too deeply", path)
	}
	lines := strings.Split(text, "\n")
	name, lineNo := path, 1
	var stack []cond
	active := func() bool { return len(stack) == 0 || stack[len(stack)-1].active }
	inComment := false
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r")
		pos := token.Pos{File: name, Line: lineNo}
		// join continuation lines
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			lineNo++
			line = line[:len(line)-1] + strings.TrimRight(lines[i], "\r")
			p.emit("", token.Pos{File: name, Line: lineNo})
		}
		lineNo++
		trim := strings.TrimSpace(line)
		if !inComment && strings.HasPrefix(trim, "#") {
			errf := func(format string, a ...any) error {
				return &token.Error{Pos: token.Pos{File: pos.File, Line: pos.Line, Col: 1}, Msg: fmt.Sprintf(format, a...)}
			}
			dir, rest := splitDirective(trim[1:])
			rest = stripComment(rest)
			switch dir {
			case "ifdef", "ifndef":
				_, def := p.defines[strings.TrimSpace(rest)]
				if _, fdef := p.funcs[strings.TrimSpace(rest)]; fdef {
					def = true
				}
				ok := def == (dir == "ifdef")
				stack = append(stack, cond{active: active() && ok, taken: ok, parentActive: active(), pos: token.Pos{File: pos.File, Line: pos.Line, Col: 1}})
			case "if":
				v, err := p.evalCond(rest)
				if err != nil {
					return errf("%v", err)
				}
				stack = append(stack, cond{active: active() && v, taken: v, parentActive: active(), pos: token.Pos{File: pos.File, Line: pos.Line, Col: 1}})
			case "elif":
				if len(stack) == 0 {
					return errf("#elif without #if")
				}
				top := &stack[len(stack)-1]
				v, err := p.evalCond(rest)
				if err != nil {
					return errf("%v", err)
				}
				top.active = top.parentActive && !top.taken && v
				top.taken = top.taken || v
			case "else":
				if len(stack) == 0 {
					return errf("#else without #if")
				}
				top := &stack[len(stack)-1]
				top.active = top.parentActive && !top.taken
				top.taken = true
			case "endif":
				if len(stack) == 0 {
					return errf("#endif without #if")
				}
				stack = stack[:len(stack)-1]
			default:
				if !active() {
					break
				}
				switch dir {
				case "include":
					if err := p.include(strings.TrimSpace(rest), name, errf); err != nil {
						return err
					}
				case "define":
					if err := p.define(strings.TrimSpace(rest)); err != nil {
						return errf("%v", err)
					}
				case "undef":
					delete(p.defines, strings.TrimSpace(rest))
					delete(p.funcs, strings.TrimSpace(rest))
				case "line", "":
					f := strings.Fields(rest)
					if len(f) == 0 {
						break
					}
					n, err := strconv.Atoi(f[0])
					if err != nil {
						if dir == "" {
							break
						}
						return errf("bad #line")
					}
					lineNo = n
					if len(f) > 1 {
						name = strings.Trim(f[1], `"`)
					}
				case "error":
					return errf("#error %s", strings.TrimSpace(rest))
				case "pragma", "warning":
				default:
					return errf("unknown directive #%s", dir)
				}
			}
			p.emit("", pos)
			continue
		}
		if !active() {
			p.emit("", pos)
			continue
		}
		inComment = tracksComment(line, inComment)
		p.emit(p.expand(line, 0), pos)
	}
	if len(stack) != 0 {
		return &token.Error{Pos: stack[len(stack)-1].pos, Msg: "missing #endif for this #if"}
	}
	return nil
}

func (p *pp) include(arg, from string, errf func(string, ...any) error) error {
	if arg == "" {
		return errf("#include needs a file name")
	}
	var data []byte
	var err error
	var path string
	switch {
	case arg[0] == '<' && strings.HasSuffix(arg, ">"):
		path = arg[1 : len(arg)-1]
		if p.src.System == nil {
			return errf("no include directory for <%s>", path)
		}
		data, err = fs.ReadFile(p.src.System, path)
		if err != nil {
			return errf("cannot include <%s>: not in the built-in include directory", path)
		}
	case arg[0] == '"' && len(arg) > 1 && strings.HasSuffix(arg, `"`):
		rel := arg[1 : len(arg)-1]
		path = filepath.Join(filepath.Dir(from), rel)
		data, err = p.src.Read(path)
		if err != nil && p.src.System != nil {
			if d, e2 := fs.ReadFile(p.src.System, rel); e2 == nil {
				data, err, path = d, nil, rel
			}
		}
		if err != nil {
			return errf("cannot include %q: %v", rel, err)
		}
	default:
		return errf("bad #include argument %s", arg)
	}
	p.included[path]++
	if p.included[path] > 20 {
		return errf("%s included too often (include loop?)", path)
	}
	return p.file(path, string(data))
}

func splitDirective(s string) (string, string) {
	s = strings.TrimLeft(s, " \t")
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z') {
		i++
	}
	return s[:i], s[i:]
}

func stripComment(s string) string {
	if i := strings.Index(s, "//"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "/*"); i >= 0 {
		s = s[:i]
	}
	return s
}

// tracksComment reports whether a block comment is still open after line.
func tracksComment(line string, in bool) bool {
	for i := 0; i < len(line); i++ {
		if in {
			if strings.HasPrefix(line[i:], "*/") {
				in = false
				i++
			}
			continue
		}
		if strings.HasPrefix(line[i:], "//") {
			return false
		}
		if line[i] == '"' {
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
			continue
		}
		if strings.HasPrefix(line[i:], "/*") {
			in = true
			i++
		}
	}
	return in
}

// expand substitutes defined identifiers outside strings and comments.
func (p *pp) expand(line string, depth int) string {
	if len(p.defines) == 0 && len(p.funcs) == 0 || depth > 20 {
		return line
	}
	var sb strings.Builder
	changed := false
	for i := 0; i < len(line); {
		c := line[i]
		if c == '"' {
			j := i + 1
			for j < len(line) && line[j] != '"' {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(line) {
				j++
			}
			sb.WriteString(line[i:j])
			i = j
			continue
		}
		if strings.HasPrefix(line[i:], "//") {
			sb.WriteString(line[i:])
			break
		}
		if isIdentStart(c) {
			j := i
			for j < len(line) && (isIdentStart(line[j]) || line[j] >= '0' && line[j] <= '9') {
				j++
			}
			if fm, ok := p.funcs[line[i:j]]; ok {
				if args, end, ok := macroArgs(line, j); ok && len(args) == len(fm.params) {
					sb.WriteString(fm.apply(args))
					changed = true
					i = end
					continue
				}
			}
			if v, ok := p.defines[line[i:j]]; ok {
				sb.WriteString(v)
				changed = true
			} else {
				sb.WriteString(line[i:j])
			}
			i = j
			continue
		}
		if c >= '0' && c <= '9' {
			j := i
			for j < len(line) && (isIdentStart(line[j]) || line[j] >= '0' && line[j] <= '9') {
				j++
			}
			sb.WriteString(line[i:j])
			i = j
			continue
		}
		sb.WriteByte(c)
		i++
	}
	if changed {
		return p.expand(sb.String(), depth+1)
	}
	return sb.String()
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
