package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fairfabric/fairfabric/p4switch/bundle"
	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

func init() {
	commands["bundle"] = command{summary: "bundle PROGRAM.p4 -o FILE: write the device config for SetForwardingPipelineConfig", run: runBundle}
}

func runBundle(args []string) int {
	fs := flag.NewFlagSet("bundle", flag.ContinueOnError)
	out := fs.String("o", "", "output file")
	var prog string
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		prog, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if prog == "" && fs.NArg() == 1 {
		prog = fs.Arg(0)
	}
	if prog == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: p4switch bundle PROGRAM.p4 -o FILE")
		return 2
	}
	data, err := bundle.Create(prog)
	if err == nil {
		// refuse to write a bundle that would not load
		_, err = v1model.Load(data, 0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
