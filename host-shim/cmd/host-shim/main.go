// Command host-shim is fairfabric's per-host agent: it enforces the controller's
// per-session, per-path rates in the kernel, pins sub-flows to paths (802.1Q VID =
// path id), and reports telemetry to Kafka (docs/host-shim.md, docs/kafka.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/agent"
	"github.com/fairfabric/fairfabric/host-shim/control"
	"github.com/fairfabric/fairfabric/host-shim/datapath"
	"github.com/fairfabric/fairfabric/host-shim/failover"
	"github.com/fairfabric/fairfabric/host-shim/telemetry"
)

func main() {
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "host-shim:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		host      = flag.String("host", "", "this host's name: the key of its rates table (required)")
		addr      = flag.String("addr", "", "this host's IPv4 address (required)")
		ifname    = flag.String("dev", "", "the host's interface to enforce on (required)")
		nsPath    = flag.String("netns", "", "network namespace of -dev, e.g. /proc/PID/ns/net (default: the shim's own)")
		procNet   = flag.String("proc-net", "/proc/self/net", "protocol counters of the host's namespace, e.g. /proc/PID/net")
		brokers   = flag.String("kafka", os.Getenv("FAIRFABRIC_KAFKA"), "Kafka bootstrap brokers, comma-separated (default $FAIRFABRIC_KAFKA)")
		mode      = flag.String("mode", string(datapath.Lossless), "lossless (backpressure) or lossy (tail-drop queues)")
		lossyQ    = flag.Uint("lossy-queue-bytes", 64*1514, "per session-path queue in lossy mode (bytes; at least one 64 KB GSO packet)")
		burst     = flag.Duration("burst", 2*time.Millisecond, "HTB burst of each session-path class, as time at its rate")
		window    = flag.Duration("edge-window", 0, "edge windows: each session-path may burst at most its rate times this (the fabric's base RTT, e.g. 20ms; 0 = off; needs -gso-max-segs 1; docs/host-shim.md)")
		gsoSegs   = flag.Int("gso-max-segs", 1, "segments per GSO packet on -dev while the shim runs (0: leave the interface's); 1 makes the per-packet path split per frame")
		period    = flag.Duration("period", time.Second, "telemetry period T")
		buffer    = flag.Int("telemetry-buffer", 1000, "records buffered while the broker is unreachable; beyond, records are dropped and counted")
		metrics   = flag.String("metrics", "127.0.0.1:9464", "health and metrics HTTP address (localhost)")
		stateFile = flag.String("state-file", "", "write the metrics address here once serving (for supervisors)")
		suffix    = flag.String("topic-suffix", "", "appended to every topic name (isolates test runs)")
	)
	flag.Parse()
	if *host == "" || *ifname == "" || *addr == "" {
		return errors.New("-host, -addr and -dev are required")
	}
	ip, err := netip.ParseAddr(*addr)
	if err != nil || !ip.Is4() {
		return fmt.Errorf("-addr %q is not an IPv4 address", *addr)
	}
	if *brokers == "" {
		return errors.New("no Kafka brokers: set -kafka or FAIRFABRIC_KAFKA")
	}
	if *period < 10*time.Millisecond {
		return fmt.Errorf("-period %v is below 10ms", *period)
	}
	if *buffer < 1 {
		return fmt.Errorf("-telemetry-buffer must be >= 1")
	}
	ln, err := net.Listen("tcp", *metrics)
	if err != nil {
		return fmt.Errorf("metrics endpoint: %w", err)
	}
	if a := ln.Addr().(*net.TCPAddr); !a.IP.IsLoopback() {
		return fmt.Errorf("metrics endpoint %s is not on localhost", a)
	}
	dp, err := datapath.Open(datapath.Config{NetnsPath: *nsPath, Ifname: *ifname, Mode: datapath.Mode(*mode), LossyQueueBytes: uint32(*lossyQ), Burst: *burst, GSOMaxSegs: *gsoSegs, EdgeWindow: *window})
	if err != nil {
		return err
	}
	defer dp.Close()
	brokerList := strings.Split(*brokers, ",")
	prod, err := telemetry.NewProducer(brokerList, *buffer)
	if err != nil {
		return err
	}
	defer func() {
		prod.Close(3 * time.Second)
		d := prod.Delivery()
		log.Printf("telemetry at exit: produced %d dropped %d unsent %d", d.Produced, d.Dropped, d.Buffered)
	}()

	ag := agent.New(agent.Config{Host: *host, Addr: ip, Period: *period, ProcNet: *procNet, Mode: datapath.Mode(*mode), Topics: agent.DefaultTopics(*suffix)}, dp, prod)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Handler: ag.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	if *stateFile != "" {
		if err := os.WriteFile(*stateFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
			return err
		}
	}
	go func() {
		if err := control.Consume(ctx, brokerList, control.TopicRates+*suffix, *host, ag.HandleRates); err != nil {
			log.Printf("rates consumer: %v", err)
			stop()
		}
	}()
	go func() { // dead paths (docs/kafka.md, ff.ctl.deadpaths.v1): failover to surviving paths
		if err := control.Consume(ctx, brokerList, failover.Topic+*suffix, *host, ag.HandleDeadPaths); err != nil {
			log.Printf("dead-paths consumer: %v", err)
		}
	}()
	log.Printf("host-shim %s (%s) on %s, mode %s, T=%v, metrics http://%s", *host, ip, *ifname, *mode, *period, ln.Addr())
	ag.Run(ctx)
	log.Printf("stopping: removing the datapath from %s", *ifname)
	return nil
}
