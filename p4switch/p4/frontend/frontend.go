// Package frontend runs preprocessing, scanning, parsing and type checking.
package frontend

import (
	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/parser"
	"github.com/fairfabric/fairfabric/p4switch/p4/preproc"
	"github.com/fairfabric/fairfabric/p4switch/p4/scanner"
	"github.com/fairfabric/fairfabric/p4switch/p4include"
)

// ParseFile preprocesses and parses the program at path. read, when not
// nil, replaces os.ReadFile (e.g. to read from a bundle).
func ParseFile(path string, read func(string) ([]byte, error)) (*ast.Program, error) {
	res, err := preproc.File(preproc.Source{System: p4include.FS, Read: read}, path)
	if err != nil {
		return nil, err
	}
	toks, err := scanner.Scan(res.Text, res.Lines, path)
	if err != nil {
		return nil, err
	}
	prog, err := parser.Parse(toks)
	if err != nil {
		return nil, err
	}
	instantiateDirectCalls(prog)
	return prog, nil
}
