package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

// buildBinary builds this command as a user's `go build` would.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "p4switch")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestRunServesTheProgramGivenWithP4 starts the built binary with --p4, as
// the Mininet class does, and checks that it listens and serves that
// program's P4Info over P4Runtime, then stops cleanly on SIGTERM.
func TestRunServesTheProgramGivenWithP4(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	program := filepath.Join("..", "..", "testdata", "l3router", "l3router.p4")
	addrFile := filepath.Join(t.TempDir(), "addr")
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "run", "--p4", program, "--device-id", "7", "--cpu-port", "255",
		"--grpc-addr", "127.0.0.1:0", "--grpc-addr-file", addrFile, "--admin-addr", "")
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

	var addr string
	deadline := time.Now().Add(60 * time.Second)
	for addr == "" {
		select {
		case err := <-exited:
			t.Fatalf("p4switch exited before listening: %v\n%s", err, stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			addr = string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("p4switch did not listen within 60 s (the --p4 start-up deadlock)\n%s", stderr.String())
		}
	}

	conn, err := grpc.Dial(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := p4v1.NewP4RuntimeClient(conn).GetForwardingPipelineConfig(ctx, &p4v1.GetForwardingPipelineConfigRequest{
		DeviceId: 7, ResponseType: p4v1.GetForwardingPipelineConfigRequest_P4INFO_AND_COOKIE})
	if err != nil {
		t.Fatalf("GetForwardingPipelineConfig: %v", err)
	}
	want, err := v1model.CompileFile(program, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.GetConfig().GetP4Info(); !proto.Equal(got, want.P4Info) {
		t.Fatalf("served P4Info differs from l3router.p4's (%d tables served, %d compiled)",
			len(got.GetTables()), len(want.P4Info.GetTables()))
	}

	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("p4switch did not stop within 15 s of SIGTERM\n%s", stderr.String())
	}
}

// TestRunFailsOnABadP4 checks that a program that does not compile ends the
// binary at once with exit 1 and the compiler's reason, instead of hanging.
func TestRunFailsOnABadP4(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	bad := filepath.Join(t.TempDir(), "bad.p4")
	if err := os.WriteFile(bad, []byte("#include <v1model.p4>\ncontrol c() { apply { x = 1; } }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, program := range []string{bad, filepath.Join(t.TempDir(), "missing.p4")} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		out, err := exec.CommandContext(ctx, bin, "run", "--p4", program, "--grpc-addr", "127.0.0.1:0", "--admin-addr", "").CombinedOutput()
		timedOut := ctx.Err() != nil
		cancel()
		if timedOut {
			t.Fatalf("--p4 %s: still running after 60 s", program)
		}
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "--p4 "+program) {
			t.Errorf("--p4 %s: err %v, output %q; want exit 1 naming the program", program, err, out)
		}
	}
}
