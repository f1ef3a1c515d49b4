package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fairfabric/fairfabric/p4switch/p4info"
	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

func init() {
	commands["p4info"] = command{summary: "p4info [-compare EXPECTED.txtpb] PROGRAM.p4: print the P4Info (protobuf text format, as p4c), or compare it with an expected one", run: runP4Info}
}

func runP4Info(args []string) int {
	fs := flag.NewFlagSet("p4info", flag.ContinueOnError)
	expected := fs.String("compare", "", "compare with this P4Info text file field by field instead of printing; exit 1 on a difference")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: p4switch p4info [-compare EXPECTED.txtpb] PROGRAM.p4")
		return 2
	}
	c, err := v1model.CompileFile(fs.Arg(0), nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if *expected == "" {
		fmt.Print(p4info.Text(c.P4Info))
		return 0
	}
	text, err := os.ReadFile(*expected)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	want, err := p4info.ParseText(string(text))
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", *expected, err)
		return 1
	}
	diffs := p4info.Diff(want, c.P4Info)
	for _, d := range diffs {
		fmt.Println(d)
	}
	if len(diffs) > 0 {
		return 1
	}
	fmt.Println("MATCH")
	return 0
}
