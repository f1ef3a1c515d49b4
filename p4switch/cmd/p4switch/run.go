package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"

	"github.com/fairfabric/fairfabric/p4switch/bundle"
	"github.com/fairfabric/fairfabric/p4switch/netio"
	"github.com/fairfabric/fairfabric/p4switch/server"
	sw "github.com/fairfabric/fairfabric/p4switch/switch"
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
	security, err := tlsOpts.serverOptions()
	if err != nil {
		return fail("%v", err)
	}

	queues := map[uint32]tm.PortConfig{}
	base := tm.DefaultConfig()
	for _, k := range []string{"rate", "depth", "delay", "loss"} {
		if err := base.Apply(k + "=" + *defaults[k]); err != nil {
			return fail("--%s: %v", k, err)
		}
	}
	for n := range ports {
		queues[n] = base
	}
	if *cpuPort != 0 {
		queues[uint32(*cpuPort)] = base
	}
	for n, settings := range perPort {
		c, ok := queues[n]
		if !ok {
			return fail("per-port setting for port %d, which is neither an -i port nor the CPU port", n)
		}
		if err := c.Apply(settings...); err != nil {
			return fail("port %d: %v", n, err)
		}
		queues[n] = c
	}
	if *cpuPort > 511 {
		log.Warn("CPU port does not fit v1model's 9-bit port numbers", "cpu_port", *cpuPort)
	}

	opened := map[uint32]netio.Port{}
	closeAll := func() {
		for _, p := range opened {
			p.Close()
		}
	}
	nums := make([]uint32, 0, len(ports))
	for n := range ports {
		nums = append(nums, n)
	}
	sort.Slice(nums, func(i, j int) bool { return nums[i] < nums[j] })
	for _, n := range nums {
		p, err := netio.OpenAFPacket(ports[n])
		if err != nil {
			closeAll()
			return fail("port %d: %v", n, err)
		}
		opened[n] = p
	}
	if *pollSpin < 0 || *pollSpin > time.Second {
		closeAll()
		return fail("--poll-spin %v out of range 0..1s", *pollSpin)
	}
	s, err := sw.New(sw.Config{Ports: opened, Queues: queues, CPUPort: uint32(*cpuPort), Seed: *seed, Log: log, PollSpin: *pollSpin})
	if err != nil {
		closeAll()
		return fail("%v", err)
	}
	loader := func(config []byte, cpuPort uint32) (target.Pipeline, error) {
		p, err := pipelineLoader(config, cpuPort)
		if vp, ok := p.(*v1model.Pipeline); ok && err == nil {
			vp.Log = func(msg string) { log.Debug("P4 log_msg", "msg", msg) }
		}
		return p, err
	}
	srv := server.New(server.Options{DeviceID: *deviceID, Loader: loader, Switch: s, Log: log})
	// Committing a pipeline hands it to the switch's pipeline goroutine, so
	// the switch runs before --p4 is loaded; from here on s.Stop closes the ports.
	s.Start()
	if *program != "" {
		config, err := programBundle(*program)
		if err == nil {
			err = srv.LoadAndCommit(config)
		}
		if err != nil {
			s.Stop()
			return fail("--p4 %s: %v", *program, err)
		}
	}
	lis, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		s.Stop()
		return fail("gRPC listen: %v", err)
	}
	g := grpc.NewServer(append(security, grpc.MaxRecvMsgSize(256<<20), grpc.UnaryInterceptor(srv.TimeWrites))...)
	srv.Register(g)
	var admin *http.Server
	if *adminAddr != "" {
		al, err := net.Listen("tcp", *adminAddr)
		if err != nil {
			lis.Close()
			s.Stop()
			return fail("admin listen: %v", err)
		}
		admin = &http.Server{Handler: tm.AdminHandler(s.TM()), ReadHeaderTimeout: 5 * time.Second}
		go admin.Serve(al)
	}
	if *pprofAddr != "" {
		pl, err := net.Listen("tcp", *pprofAddr)
		if err != nil {
			lis.Close()
			s.Stop()
			return fail("--pprof-addr: %v", err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		go (&http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}).Serve(pl)
		log.Info("pprof listening", "addr", pl.Addr().String())
	}
	go g.Serve(lis)
	if *addrFile != "" {
		if err := os.WriteFile(*addrFile, []byte(lis.Addr().String()), 0o644); err != nil {
			return fail("--grpc-addr-file: %v", err)
		}
	}
	log.Info("p4switch running", "device_id", *deviceID, "grpc", lis.Addr().String(), "admin", *adminAddr,
		"ports", len(opened), "cpu_port", *cpuPort)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	got := <-sig
	log.Info("shutting down", "signal", got.String())
	stopped := make(chan struct{})
	go func() { g.GracefulStop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(2 * time.Second): // streams stay open until clients go
		g.Stop()
	}
	if admin != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		admin.Shutdown(ctx)
		cancel()
	}
	srv.Close()
	s.Stop()
	if srv.Latencies.PacketInMade.Count() > 0 || srv.Latencies.WriteHandled.Count() > 0 {
		for _, line := range srv.Latencies.Lines() {
			log.Info("P4TE stage " + line)
		}
	}
	return 0
}

// pipelineLoader turns a device config (a P4 source bundle) into a pipeline.
var pipelineLoader target.Loader = v1model.Load

// programBundle makes the device config for a program file and its includes.
func programBundle(path string) ([]byte, error) { return bundle.Create(path) }
