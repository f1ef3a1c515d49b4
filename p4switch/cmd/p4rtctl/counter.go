package main

import (
	"fmt"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

func findCounter(info *p4configv1.P4Info, name string) (*p4configv1.Counter, error) {
	for _, k := range info.Counters {
		if k.Preamble.Name == name || k.Preamble.Alias == name {
			return k, nil
		}
	}
	return nil, fmt.Errorf("no counter %q", name)
}

// printCounter reads every cell of an indirect counter (a wildcard read) and
// prints the cells that counted something.
func printCounter(c *client, info *p4configv1.P4Info, name string) error {
	k, err := findCounter(info, name)
	if err != nil {
		return err
	}
	es, err := c.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: k.Preamble.Id}}})
	if err != nil {
		return err
	}
	for _, e := range es {
		ce := e.GetCounterEntry()
		if d := ce.GetData(); d.GetPacketCount() != 0 || d.GetByteCount() != 0 {
			fmt.Printf("%d %d %d\n", ce.GetIndex().GetIndex(), d.GetPacketCount(), d.GetByteCount())
		}
	}
	return nil
}
