package main

import (
	"fmt"
	"os"

	"github.com/fairfabric/fairfabric/p4switch/p4info"
	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

func init() {
	commands["p4info"] = command{summary: "p4info PROGRAM.p4: print the P4Info (protobuf text format, as p4c)", run: runP4Info}
}

func runP4Info(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: p4switch p4info PROGRAM.p4")
		return 2
	}
	c, err := v1model.CompileFile(args[0], nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Print(p4info.Text(c.P4Info))
	return 0
}
