package main

import (
	"fmt"
	"os"

	"github.com/fairfabric/fairfabric/p4switch/p4/check"
	"github.com/fairfabric/fairfabric/p4switch/p4/frontend"
)

func init() {
	commands["check"] = command{summary: "check PROGRAM.p4: report front-end errors (file:line:col: message)", run: runCheck}
}

func runCheck(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: p4switch check PROGRAM.p4")
		return 2
	}
	prog, err := frontend.ParseFile(args[0], nil)
	if err == nil {
		_, err = check.Check(prog)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
