package main

import (
	"fmt"
	"strconv"
	"strings"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// cloneSessionUpdate builds `clone-session ID PORT`: insert clone session ID
// with one replica on PORT.
func cloneSessionUpdate(args []string) (*p4v1.Update, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("clone-session takes ID PORT")
	}
	id, err1 := strconv.ParseUint(args[0], 0, 32)
	port, err2 := strconv.ParseUint(args[1], 0, 32)
	if err1 != nil || err2 != nil || id == 0 {
		return nil, fmt.Errorf("clone-session: bad ID or PORT in %q", strings.Join(args, " "))
	}
	cs := &p4v1.CloneSessionEntry{SessionId: uint32(id), Replicas: []*p4v1.Replica{{PortKind: &p4v1.Replica_EgressPort{EgressPort: uint32(port)}, Instance: 1}}}
	return &p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{
		PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: cs}}}}}, nil
}

// directMeterUpdate builds `direct-meter TABLE FIELD=VALUE... cir=N cburst=N
// pir=N pburst=N`: the direct meter config of an existing entry.
func directMeterUpdate(info *p4configv1.P4Info, args []string) (*p4v1.Update, error) {
	if len(args) < 2 {
		return nil, fmt.Errorf("direct-meter needs TABLE FIELD=VALUE... cir=N cburst=N pir=N pburst=N")
	}
	var match []string
	rates := map[string]int64{}
	for _, a := range args[1:] {
		k, v, _ := strings.Cut(a, "=")
		switch k {
		case "cir", "cburst", "pir", "pburst":
			n, err := strconv.ParseInt(v, 0, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("direct-meter: bad %q", a)
			}
			rates[k] = n
		default:
			match = append(match, a)
		}
	}
	if len(rates) != 4 {
		return nil, fmt.Errorf("direct-meter needs cir=, cburst=, pir= and pburst=")
	}
	t, err := findTable(info, args[0])
	if err != nil {
		return nil, err
	}
	if len(t.ActionRefs) == 0 {
		return nil, fmt.Errorf("table %s has no actions", args[0])
	}
	// buildEntry wants an action; a DirectMeterEntry carries only the key.
	var action string
	for _, a := range info.Actions {
		if a.Preamble.Id == t.ActionRefs[0].Id {
			action = a.Preamble.Name
		}
	}
	e, err := buildEntry(info, args[0], match, action, nil, 0)
	if err != nil {
		return nil, err
	}
	e.Action = nil
	cfg := &p4v1.MeterConfig{Cir: rates["cir"], Cburst: rates["cburst"], Pir: rates["pir"], Pburst: rates["pburst"]}
	return &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: &p4v1.Entity{Entity: &p4v1.Entity_DirectMeterEntry{
		DirectMeterEntry: &p4v1.DirectMeterEntry{TableEntry: e, Config: cfg}}}}, nil
}
