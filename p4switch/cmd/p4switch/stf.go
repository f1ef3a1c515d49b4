package main

import (
	"fmt"
	"os"

	"github.com/fairfabric/fairfabric/p4switch/stf"
)

func init() {
	commands["stf"] = command{summary: "stf PROGRAM.p4 TEST.stf: run a p4c STF test (exit 0 iff every expectation holds)", run: runSTF}
}

func runSTF(args []string) int {
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: p4switch stf PROGRAM.p4 TEST.stf")
		return 2
	}
	if err := stf.RunFile(args[0], args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("PASS")
	return 0
}
