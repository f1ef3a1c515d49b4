// Command fabricevents listens to one fabric switch's packet-ins and prints
// each as a JSON line (docs/pipeline.md, "Packet-in format"). It becomes the
// primary P4Runtime client (packet-ins go to the primary), optionally
// installs the CPU clone session the pipeline's events use, and exits after
// --duration or once --count events of --metric have arrived.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/fairfabric/fairfabric/pipeconfs/events"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9559", "P4Runtime server address")
	device := flag.Uint64("device-id", 1, "device id")
	election := flag.Uint64("election-id", 10, "election id (must make this client primary)")
	clone := flag.String("clone-session", "", "SESSION=PORT: install this clone session first (e.g. 511=255)")
	duration := flag.Duration("duration", 10*time.Second, "stop after this long")
	count := flag.Int("count", 0, "stop after this many events of --metric (0: never)")
	metric := flag.String("metric", "", "metric counted by --count (empty: any)")
	ready := flag.String("ready-file", "", "create this file once listening")
	flag.Parse()
	if err := run(*addr, *device, *election, *clone, *duration, *count, *metric, *ready); err != nil {
		fmt.Fprintln(os.Stderr, "fabricevents:", err)
		os.Exit(1)
	}
}

func run(addr string, device, election uint64, clone string, duration time.Duration, count int, metric, ready string) error {
	conn, err := grpc.Dial(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	rt := p4v1.NewP4RuntimeClient(conn)
	stream, err := rt.StreamChannel(ctx)
	if err != nil {
		return err
	}
	electionID := &p4v1.Uint128{Low: election}
	if err := stream.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: device, ElectionId: electionID}}}); err != nil {
		return err
	}
	for {
		m, err := stream.Recv()
		if err != nil {
			return err
		}
		if a := m.GetArbitration(); a != nil {
			if a.GetStatus().GetCode() != int32(codes.OK) {
				return fmt.Errorf("not primary: %s", a.GetStatus().GetMessage())
			}
			break
		}
	}
	cfg, err := rt.GetForwardingPipelineConfig(ctx, &p4v1.GetForwardingPipelineConfigRequest{
		DeviceId: device, ResponseType: p4v1.GetForwardingPipelineConfigRequest_P4INFO_AND_COOKIE})
	if err != nil {
		return fmt.Errorf("reading the P4Info: %v", err)
	}
	info := cfg.GetConfig().GetP4Info()
	if clone != "" {
		if err := installClone(ctx, rt, device, electionID, clone); err != nil {
			return err
		}
	}
	if ready != "" {
		if err := os.WriteFile(ready, []byte("ready\n"), 0o644); err != nil {
			return err
		}
	}
	out := json.NewEncoder(os.Stdout)
	seen := 0
	for {
		m, err := stream.Recv()
		if err != nil {
			if ctx.Err() != nil {
				return nil // --duration elapsed
			}
			return err
		}
		pin := m.GetPacket()
		if pin == nil {
			continue
		}
		e, err := events.Decode(info, pin)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fabricevents: skipping packet-in:", err)
			continue
		}
		if err := out.Encode(e); err != nil {
			return err
		}
		if count > 0 && (metric == "" || metric == e.Metric) {
			seen++
			if seen >= count {
				return nil
			}
		}
	}
}

func installClone(ctx context.Context, rt p4v1.P4RuntimeClient, device uint64, election *p4v1.Uint128, spec string) error {
	parts := strings.SplitN(spec, "=", 2)
	if len(parts) != 2 {
		return fmt.Errorf("--clone-session %q: want SESSION=PORT", spec)
	}
	session, err1 := strconv.ParseUint(parts[0], 10, 32)
	port, err2 := strconv.ParseUint(parts[1], 10, 32)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("--clone-session %q: want SESSION=PORT with numbers", spec)
	}
	entry := &p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{
		PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{
			Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: &p4v1.CloneSessionEntry{
				SessionId: uint32(session),
				Replicas:  []*p4v1.Replica{{PortKind: &p4v1.Replica_EgressPort{EgressPort: uint32(port)}, Instance: 1}},
			}}}}}
	_, err := rt.Write(ctx, &p4v1.WriteRequest{DeviceId: device, ElectionId: election,
		Updates: []*p4v1.Update{{Type: p4v1.Update_INSERT, Entity: entry}}})
	if err != nil {
		return fmt.Errorf("installing clone session %s: %v", spec, err)
	}
	return nil
}
