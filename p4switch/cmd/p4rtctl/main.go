// Command p4rtctl is a small P4Runtime client for p4switch (and any
// P4Runtime target): push a program, add table entries by name, read
// tables, and measure batched insert throughput.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/bundle"
	"google.golang.org/protobuf/encoding/prototext"
)

const usage = `usage: p4rtctl [--addr HOST:PORT] [--device-id N] [--election-id N] COMMAND ...

commands:
  push PROGRAM.p4                        load and commit a program (VERIFY_AND_COMMIT)
  add TABLE [FIELD=VALUE ...] action=ACTION [PARAM=VALUE ...] [priority=N]
                                         insert a table entry; values are numbers,
                                         MACs or IPv4 addresses; lpm VALUE/LEN,
                                         ternary VALUE&&&MASK, range LOW..HIGH
  set-default TABLE action=ACTION [PARAM=VALUE ...]
                                         modify a table's default action
  read TABLE                             print a table's entries (text format)
  counter NAME                           print an indirect counter's non-zero cells
                                         (index, packets, bytes)
  clone-session ID PORT                  insert a clone session with one replica
  direct-meter TABLE [FIELD=VALUE ...] cir=N cburst=N pir=N pburst=N
                                         configure the direct meter of an entry
  bench-insert [-count N] [-batch N] TABLE FIELD action=ACTION [PARAM=VALUE ...]
                                         insert N entries with distinct FIELD values
                                         in batches, print inserts per second
`

func main() {
	fs := flag.NewFlagSet("p4rtctl", flag.ExitOnError)
	fs.Usage = func() { fmt.Fprint(os.Stderr, usage); fs.PrintDefaults() }
	addr := fs.String("addr", "127.0.0.1:9559", "P4Runtime server address")
	device := fs.Uint64("device-id", 1, "device id")
	election := fs.Uint64("election-id", 1, "election id (must make this client primary)")
	fs.Parse(os.Args[1:])
	args := fs.Args()
	if len(args) == 0 {
		fs.Usage()
		os.Exit(2)
	}
	readOnly := args[0] == "read" || args[0] == "counter"
	c, err := dial(*addr, *device, *election, !readOnly)
	if err != nil {
		fatal(err)
	}
	defer c.close()
	switch args[0] {
	case "push":
		if len(args) != 2 {
			fatal(fmt.Errorf("push takes one program"))
		}
		config, err := deviceConfig(args[1])
		if err == nil {
			err = c.push(config)
		}
		check(err)
	case "add", "set-default":
		if len(args) < 3 {
			fatal(fmt.Errorf("%s needs a table and an action", args[0]))
		}
		info, err := c.p4info()
		check(err)
		match, action, params, priority, err := splitEntryArgs(args[2:])
		check(err)
		e, err := buildEntry(info, args[1], match, action, params, priority)
		check(err)
		typ := p4v1.Update_INSERT
		if args[0] == "set-default" {
			e.IsDefaultAction, typ = true, p4v1.Update_MODIFY
		}
		check(c.write(&p4v1.Update{Type: typ, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: e}}}))
	case "read":
		if len(args) != 2 {
			fatal(fmt.Errorf("read takes one table"))
		}
		info, err := c.p4info()
		check(err)
		t, err := findTable(info, args[1])
		check(err)
		es, err := c.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: t.Preamble.Id}}})
		check(err)
		for _, e := range es {
			fmt.Println(prototext.MarshalOptions{}.Format(e.GetTableEntry()))
		}
		fmt.Printf("%d entries\n", len(es))
	case "counter":
		if len(args) != 2 {
			fatal(fmt.Errorf("counter takes one counter"))
		}
		info, err := c.p4info()
		check(err)
		check(printCounter(c, info, args[1]))
	case "clone-session":
		u, err := cloneSessionUpdate(args[1:])
		check(err)
		check(c.write(u))
	case "direct-meter":
		info, err := c.p4info()
		check(err)
		u, err := directMeterUpdate(info, args[1:])
		check(err)
		check(c.write(u))
	case "bench-insert":
		check(benchInsert(c, args[1:]))
	default:
		fatal(fmt.Errorf("unknown command %q", args[0]))
	}
}

// splitEntryArgs separates match fields, action=, params and priority=.
func splitEntryArgs(args []string) (match []string, action string, params []string, priority int32, err error) {
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "action="):
			action = strings.TrimPrefix(a, "action=")
		case strings.HasPrefix(a, "priority="):
			var p int
			if _, err := fmt.Sscan(strings.TrimPrefix(a, "priority="), &p); err != nil {
				return nil, "", nil, 0, fmt.Errorf("bad %q", a)
			}
			priority = int32(p)
		case action == "":
			match = append(match, a)
		default:
			params = append(params, a)
		}
	}
	if action == "" {
		err = fmt.Errorf("no action=NAME given")
	}
	return
}

func benchInsert(c *client, args []string) error {
	fs := flag.NewFlagSet("bench-insert", flag.ExitOnError)
	count := fs.Int("count", 100000, "entries to insert")
	batch := fs.Int("batch", 1000, "updates per WriteRequest")
	fs.Parse(args)
	rest := fs.Args()
	if len(rest) < 3 {
		return fmt.Errorf("bench-insert needs TABLE FIELD action=ACTION [PARAM=VALUE ...]")
	}
	info, err := c.p4info()
	if err != nil {
		return err
	}
	_, action, params, _, err := splitEntryArgs(rest[2:])
	if err != nil {
		return err
	}
	tmpl, err := buildEntry(info, rest[0], nil, action, params, 0)
	if err != nil {
		return err
	}
	t, _ := findTable(info, rest[0])
	var width int32
	var lpm bool
	var fieldID uint32
	for _, f := range t.MatchFields {
		if f.Name == rest[1] {
			width, lpm, fieldID = f.Bitwidth, f.GetMatchType().String() == "LPM", f.Id
		}
	}
	if fieldID == 0 {
		return fmt.Errorf("table %s has no match field %q", rest[0], rest[1])
	}
	if width < 32 && *count > 1<<width {
		return fmt.Errorf("field %s is %d bits wide: at most %d distinct entries", rest[1], width, 1<<width)
	}
	updates := make([]*p4v1.Update, 0, *batch)
	start := time.Now()
	for i := 0; i < *count; i++ {
		v := uint32(i + 1)
		b := []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
		for len(b) > 1 && b[0] == 0 {
			b = b[1:]
		}
		fm := &p4v1.FieldMatch{FieldId: fieldID}
		if lpm {
			fm.FieldMatchType = &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: b, PrefixLen: width}}
		} else {
			fm.FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: b}}
		}
		e := &p4v1.TableEntry{TableId: tmpl.TableId, Match: []*p4v1.FieldMatch{fm}, Action: tmpl.Action}
		updates = append(updates, &p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: e}}})
		if len(updates) == *batch || i == *count-1 {
			if err := c.write(updates...); err != nil {
				return err
			}
			updates = updates[:0]
		}
	}
	secs := time.Since(start).Seconds()
	fmt.Printf("p4runtime inserts: %d entries in batches of %d: %.3f s, %.0f inserts/s\n", *count, *batch, secs, float64(*count)/secs)
	return nil
}

func check(err error) {
	if err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "p4rtctl:", err)
	os.Exit(1)
}

// deviceConfig makes the SetForwardingPipelineConfig device config (a P4
// source bundle) for a program file and its includes.
func deviceConfig(path string) ([]byte, error) { return bundle.Create(path) }
