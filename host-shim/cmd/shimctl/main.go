// Command shimctl is the host shim's companion for operators and tests: publish a
// rates table, read the shim's topics, and a traffic sink/source that counts bytes
// the way an application does.
package main

import (
	"fmt"
	"os"
	"sort"
)

type command struct {
	summary string
	run     func(args []string) error
}

var commands = map[string]command{}

func main() {
	if len(os.Args) < 2 || commands[os.Args[1]].run == nil {
		fmt.Fprintln(os.Stderr, "usage: shimctl COMMAND [flags]")
		names := make([]string, 0, len(commands))
		for n := range commands {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(os.Stderr, "  %-10s %s\n", n, commands[n].summary)
		}
		os.Exit(2)
	}
	if err := commands[os.Args[1]].run(os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "shimctl "+os.Args[1]+":", err)
		os.Exit(1)
	}
}
