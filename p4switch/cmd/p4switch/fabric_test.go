package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

func TestFabricConfigValidation(t *testing.T) {
	sw := func(name string, id uint64, addr string, ports map[uint32]string) switchSpec {
		return switchSpec{Name: name, DeviceID: id, GRPCAddr: addr, Ports: ports}
	}
	cases := []struct {
		name string
		cfg  fabricConfig
		want string
	}{
		{"empty", fabricConfig{}, "no switches"},
		{"no name", fabricConfig{[]switchSpec{sw("", 1, "a:1", nil)}}, "has no name"},
		{"same name", fabricConfig{[]switchSpec{sw("s", 1, "a:1", nil), sw("s", 2, "a:2", nil)}}, "given twice"},
		{"device id 0", fabricConfig{[]switchSpec{sw("s", 0, "a:1", nil)}}, "device_id must be"},
		{"same device id", fabricConfig{[]switchSpec{sw("s", 1, "a:1", nil), sw("t", 1, "a:2", nil)}}, "device_id 1 given twice"},
		{"same address", fabricConfig{[]switchSpec{sw("s", 1, "a:1", nil), sw("t", 2, "a:1", nil)}}, "address a:1 given twice"},
		{"shared interface", fabricConfig{[]switchSpec{sw("s", 1, "a:1", map[uint32]string{1: "x"}), sw("t", 2, "a:2", map[uint32]string{1: "x"})}}, "interface x is a port of both"},
		{"ok", fabricConfig{[]switchSpec{sw("s", 1, "a:0", map[uint32]string{1: "x"}), sw("t", 2, "a:0", map[uint32]string{1: "y"})}}, ""},
	}
	for _, c := range cases {
		err := c.cfg.validate()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestFabricServesEverySwitch runs the built binary in fabric mode with two
// switches and checks that each endpoint serves its own device id and program.
func TestFabricServesEverySwitch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	program, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "l3router", "l3router.p4"))
	cfg := fabricConfig{}
	for i, name := range []string{"s1", "s2"} {
		cfg.Switches = append(cfg.Switches, switchSpec{Name: name, DeviceID: uint64(i + 1), GRPCAddr: "127.0.0.1:0",
			CPUPort: 255, P4: program, AddrFile: filepath.Join(dir, name+".addr")})
	}
	raw, _ := json.Marshal(cfg)
	cfgPath := filepath.Join(dir, "fabric.json")
	if err := os.WriteFile(cfgPath, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	// --loops 0: each switch with its own goroutines; 1: both on one epoll loop.
	for _, loops := range []string{"0", "1"} {
		ready := filepath.Join(dir, "ready-"+loops)
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "fabric", "--config", cfgPath, "--ready-file", ready, "--loops", loops)
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		defer func() {
			if cmd.ProcessState == nil {
				cmd.Process.Kill()
				<-exited
			}
		}()
		deadline := time.Now().Add(90 * time.Second)
		for {
			if _, err := os.Stat(ready); err == nil {
				break
			}
			select {
			case err := <-exited:
				t.Fatalf("p4switch fabric exited: %v\n%s", err, stderr.String())
			case <-time.After(50 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				t.Fatalf("not ready within 90 s\n%s", stderr.String())
			}
		}
		for i, name := range []string{"s1", "s2"} {
			addr, err := os.ReadFile(filepath.Join(dir, name+".addr"))
			if err != nil {
				t.Fatal(err)
			}
			conn, err := grpc.Dial(string(addr), grpc.WithTransportCredentials(insecure.NewCredentials()))
			if err != nil {
				t.Fatal(err)
			}
			client := p4v1.NewP4RuntimeClient(conn)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			resp, err := client.GetForwardingPipelineConfig(ctx, &p4v1.GetForwardingPipelineConfigRequest{
				DeviceId: uint64(i + 1), ResponseType: p4v1.GetForwardingPipelineConfigRequest_P4INFO_AND_COOKIE})
			if err != nil || len(resp.GetConfig().GetP4Info().GetTables()) == 0 {
				t.Errorf("%s: device %d: %v (tables %d)", name, i+1, err, len(resp.GetConfig().GetP4Info().GetTables()))
			}
			other := uint64(2 - i)
			_, err = client.GetForwardingPipelineConfig(ctx, &p4v1.GetForwardingPipelineConfigRequest{DeviceId: other})
			if status.Code(err) != codes.NotFound {
				t.Errorf("%s answers for device %d: %v, want NOT_FOUND", name, other, err)
			}
			cancel()
			conn.Close()
		}
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				t.Fatalf("exit after SIGTERM: %v\n%s", err, stderr.String())
			}
		case <-time.After(15 * time.Second):
			t.Fatal("did not stop within 15 s of SIGTERM")
		}
	}
}
