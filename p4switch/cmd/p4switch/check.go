package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fairfabric/fairfabric/p4switch/p4/bmv2check"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
	"github.com/fairfabric/fairfabric/p4switch/p4/frontend"
)

func init() {
	commands["check"] = command{summary: "check [--target bmv2] PROGRAM.p4: report front-end errors (file:line:col: message)", run: runCheck}
}

func runCheck(args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	target := fs.String("target", "", "also enforce a target's limits: bmv2 (what p4c-bm2-ss rejects)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: p4switch check [--target bmv2] PROGRAM.p4")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || (*target != "" && *target != "bmv2") {
		fs.Usage()
		return 2
	}
	if err := checkProgram(fs.Arg(0), *target); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// checkProgram runs the front end and, for target "bmv2", BMv2's limits.
func checkProgram(path, target string) error {
	prog, err := frontend.ParseFile(path, nil)
	if err != nil {
		return err
	}
	info, err := check.Check(prog)
	if err != nil {
		return err
	}
	if target == "bmv2" {
		return bmv2check.Check(info)
	}
	return nil
}
