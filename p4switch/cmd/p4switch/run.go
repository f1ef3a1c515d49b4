package main

import (
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fairfabric/fairfabric/p4switch/bundle"
	"github.com/fairfabric/fairfabric/p4switch/target"
	"github.com/fairfabric/fairfabric/p4switch/tm"
	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

func init() {
	commands["run"] = command{summary: "run the switch: P4Runtime server, ports, traffic manager", run: runCmd}
}

// portFlag collects repeated `-i PORT@IFNAME`.
type portFlag map[uint32]string

func (p portFlag) String() string { return fmt.Sprint(map[uint32]string(p)) }
func (p portFlag) Set(v string) error {
	num, ifname, ok := strings.Cut(v, "@")
	n, err := strconv.ParseUint(num, 10, 32)
	if !ok || err != nil || ifname == "" || n == 0 {
		return fmt.Errorf("want PORT@IFNAME with PORT ≥ 1, got %q", v)
	}
	if _, dup := p[uint32(n)]; dup {
		return fmt.Errorf("port %d given twice", n)
	}
	p[uint32(n)] = ifname
	return nil
}

// perPortFlag collects repeated `--port-X PORT=VALUE` as tm settings.
type perPortFlag struct {
	key      string
	settings map[uint32][]string
}

func (p perPortFlag) String() string { return "" }
func (p perPortFlag) Set(v string) error {
	num, val, ok := strings.Cut(v, "=")
	n, err := strconv.ParseUint(num, 10, 32)
	if !ok || err != nil {
		return fmt.Errorf("want PORT=VALUE, got %q", v)
	}
	p.settings[uint32(n)] = append(p.settings[uint32(n)], p.key+"="+val)
	return nil
}

func runCmd(args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: p4switch run [flags] -i PORT@IFNAME ...\n\nflags:")
		fs.PrintDefaults()
	}
	deviceID := fs.Uint64("device-id", 1, "P4Runtime device id")
	grpcAddr := fs.String("grpc-addr", "127.0.0.1:9559", "P4Runtime gRPC listen address")
	cpuPort := fs.Uint("cpu-port", 0, "CPU port number for packet-in/out (0 = none; BMv2 uses 255 or 510)")
	adminAddr := fs.String("admin-addr", "127.0.0.1:9560", "traffic manager admin HTTP address (empty = off)")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error")
	program := fs.String("p4", "", "P4 program to load at start (as a P4Runtime client's VERIFY_AND_COMMIT would)")
	addrFile := fs.String("grpc-addr-file", "", "write the gRPC listen address here once listening (for --grpc-addr with port 0)")
	pprofAddr := fs.String("pprof-addr", "", "serve Go's /debug/pprof/ profiles on this address (e.g. 127.0.0.1:6060)")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()), "random seed for link loss")
	pollSpin := fs.Duration("poll-spin", 0, "keep polling idle ports this long before sleeping (e.g. 20us; 0 = sleep at once)")
	portStatus := fs.Bool("port-status", true, "inject a port-status frame into the pipeline when a port's carrier goes down or up (docs/p4switch.md \"Port status\")")
	loop := fs.String("loop", "goroutines", "how the switch waits for frames: goroutines (a waiter and a writer per port) or epoll (one event loop reads, runs the pipeline and writes; docs/p4switch.md)")
	tlsOpts := addTLSFlags(fs)
	ports := portFlag{}
	fs.Var(ports, "i", "`PORT@IFNAME`: attach interface IFNAME as port PORT (repeatable)")
	defaults := map[string]*string{}
	perPort := map[uint32][]string{}
	for _, f := range []struct{ key, def, help string }{
		{"rate", "0", "queue service rate in bits/s (k/M/G suffixes; 0 = unlimited)"},
		{"depth", strconv.Itoa(tm.DefaultDepth), "queue depth in packets"},
		{"delay", "0", "propagation delay (e.g. 2ms)"},
		{"loss", "0", "random loss probability (e.g. 0.01 or 1%)"},
	} {
		defaults[f.key] = fs.String(f.key, f.def, "default "+f.help+" of every port")
		fs.Var(perPortFlag{f.key, perPort}, "port-"+f.key, "the "+f.help+" of one port, as `PORT="+strings.ToUpper(f.key)+"` (repeatable)")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "p4switch run: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(os.Stderr, "p4switch run: bad --log-level %q\n", *logLevel)
		return 2
	}
	if os.Getenv("GOGC") == "" {
		// Packets are short-lived garbage; collecting less often is cheaper
		// and memory is not the constraint for a software switch.
		debug.SetGCPercent(400)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "p4switch run: "+format+"\n", a...)
		return 1
	}

	spec := switchSpec{DeviceID: *deviceID, GRPCAddr: *grpcAddr, AdminAddr: *adminAddr, CPUPort: uint32(*cpuPort),
		P4: *program, Ports: ports, PerPort: perPort, Seed: *seed, PollSpin: *pollSpin, AddrFile: *addrFile,
		TLSCert: *tlsOpts.cert, TLSKey: *tlsOpts.key, Loop: *loop, NoPortStatus: !*portStatus}
	for _, k := range []string{"rate", "depth", "delay", "loss"} {
		spec.Defaults = append(spec.Defaults, k+"="+*defaults[k])
	}
	if *pprofAddr != "" {
		if err := servePprof(*pprofAddr, log); err != nil {
			return fail("--pprof-addr: %v", err)
		}
	}
	in, err := startInstance(spec, log, nil)
	if err != nil {
		return fail("%v", err)
	}
	got := waitSignal()
	log.Info("shutting down", "signal", got.String())
	in.stop()
	return 0
}

// waitSignal waits for SIGTERM or SIGINT.
func waitSignal() os.Signal {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	return <-sig
}

// servePprof serves Go's /debug/pprof/ profiles on addr.
func servePprof(addr string, log *slog.Logger) error {
	pl, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	go (&http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}).Serve(pl)
	log.Info("pprof listening", "addr", pl.Addr().String())
	return nil
}

// pipelineLoader turns a device config (a P4 source bundle) into a pipeline.
var pipelineLoader target.Loader = v1model.Load

// programBundle makes the device config for a program file and its includes.
func programBundle(path string) ([]byte, error) { return bundle.Create(path) }
