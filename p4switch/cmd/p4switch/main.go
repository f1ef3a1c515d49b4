// Command p4switch runs P4_16 v1model programs as a P4Runtime software switch.
package main

import (
	"fmt"
	"os"
	"sort"
)

// command is one p4switch subcommand; each lives in its own file and
// registers itself in init.
type command struct {
	summary string
	run     func(args []string) int
}

var commands = map[string]command{}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	cmd, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "p4switch: unknown command %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	os.Exit(cmd.run(os.Args[2:]))
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: p4switch <command> [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", name, commands[name].summary)
	}
}
