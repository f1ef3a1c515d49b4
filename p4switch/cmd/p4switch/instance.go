package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sort"
	"time"

	"google.golang.org/grpc"

	"github.com/fairfabric/fairfabric/p4switch/netio"
	"github.com/fairfabric/fairfabric/p4switch/server"
	sw "github.com/fairfabric/fairfabric/p4switch/switch"
	"github.com/fairfabric/fairfabric/p4switch/target"
	"github.com/fairfabric/fairfabric/p4switch/tm"
	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

// switchSpec is one switch: `run` starts one, `fabric` several in one
// process, each with its own ports, device id and P4Runtime endpoint.
type switchSpec struct {
	Name      string              `json:"name"`
	DeviceID  uint64              `json:"device_id"`
	GRPCAddr  string              `json:"grpc_addr"`
	AdminAddr string              `json:"admin_addr"` // empty: no admin interface
	CPUPort   uint32              `json:"cpu_port"`
	P4        string              `json:"p4"`            // program to load at start (optional)
	Ports     map[uint32]string   `json:"ports"`         // port number -> interface name
	Defaults  []string            `json:"defaults"`      // tm settings of every port, e.g. "rate=100M"
	PerPort   map[uint32][]string `json:"port_settings"` // tm settings of one port
	Seed      uint64              `json:"seed"`
	PollSpin  time.Duration       `json:"poll_spin_ns"`
	AddrFile  string              `json:"grpc_addr_file"` // write the listen address here
	TLSCert   string              `json:"tls_cert"`       // with TLSKey: P4Runtime over TLS (tls.go)
	TLSKey    string              `json:"tls_key"`
	// Loop is how the switch waits for frames: "goroutines" (a waiter and
	// a writer goroutine per port, Go's netpoller) or "epoll" (a sw.Group
	// of its own); empty means "goroutines". `fabric --loops` puts switches
	// on shared groups instead.
	Loop string `json:"loop"`
	// NoPortStatus turns off the port-status frames injected into the
	// pipeline on a carrier change (server.PortStatus).
	NoPortStatus bool `json:"no_port_status"`
}

// instance is a running switch.
type instance struct {
	spec  switchSpec
	log   *slog.Logger
	sw    *sw.Switch
	srv   *server.Server
	grpc  *grpc.Server
	admin *http.Server
	addr  string
	group *sw.Group // the switch's own group (Loop "epoll" without a shared one)
	done  chan struct{}
}

// startInstance opens the ports, starts the switch (on group, if given),
// loads the program (if any) and serves P4Runtime and the admin interface.
// On an error nothing is left running.
func startInstance(spec switchSpec, log *slog.Logger, group *sw.Group) (*instance, error) {
	security, err := tlsServerOptions(spec.TLSCert, spec.TLSKey)
	if err != nil {
		return nil, err
	}
	queues := map[uint32]tm.PortConfig{}
	base := tm.DefaultConfig()
	if err := base.Apply(spec.Defaults...); err != nil {
		return nil, err
	}
	for n := range spec.Ports {
		queues[n] = base
	}
	if spec.CPUPort != 0 {
		queues[spec.CPUPort] = base
	}
	for n, settings := range spec.PerPort {
		c, ok := queues[n]
		if !ok {
			return nil, fmt.Errorf("per-port setting for port %d, which is neither an -i port nor the CPU port", n)
		}
		if err := c.Apply(settings...); err != nil {
			return nil, fmt.Errorf("port %d: %v", n, err)
		}
		queues[n] = c
	}
	if spec.CPUPort > 511 {
		log.Warn("CPU port does not fit v1model's 9-bit port numbers", "cpu_port", spec.CPUPort)
	}
	if spec.PollSpin < 0 || spec.PollSpin > time.Second {
		return nil, fmt.Errorf("--poll-spin %v out of range 0..1s", spec.PollSpin)
	}
	switch spec.Loop {
	case "", "goroutines", "epoll":
	default:
		return nil, fmt.Errorf("--loop %q: want goroutines or epoll", spec.Loop)
	}
	polled := group != nil || spec.Loop == "epoll"
	open := netio.OpenAFPacket
	if polled {
		open = func(ifname string) (*netio.AFPacket, error) { return netio.OpenAFPacketPollable(ifname) }
	}
	opened := map[uint32]netio.Port{}
	closeAll := func() {
		for _, p := range opened {
			p.Close()
		}
	}
	nums := make([]uint32, 0, len(spec.Ports))
	for n := range spec.Ports {
		nums = append(nums, n)
	}
	sort.Slice(nums, func(i, j int) bool { return nums[i] < nums[j] })
	for _, n := range nums {
		p, err := open(spec.Ports[n])
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("port %d: %v", n, err)
		}
		opened[n] = p
	}
	s, err := sw.New(sw.Config{Ports: opened, Queues: queues, CPUPort: spec.CPUPort, Seed: spec.Seed, Log: log, PollSpin: spec.PollSpin})
	if err != nil {
		closeAll()
		return nil, err
	}
	loader := func(config []byte, cpuPort uint32) (target.Pipeline, error) {
		p, err := pipelineLoader(config, cpuPort)
		if vp, ok := p.(*v1model.Pipeline); ok && err == nil {
			vp.Log = func(msg string) { log.Debug("P4 log_msg", "msg", msg) }
		}
		return p, err
	}
	in := &instance{spec: spec, log: log, sw: s, done: make(chan struct{})}
	in.srv = server.New(server.Options{DeviceID: spec.DeviceID, Loader: loader, Switch: s, Log: log})
	// Committing a pipeline hands it to the switch's pipeline goroutine, so
	// the switch runs before the program is loaded; from here on s.Stop
	// closes the ports.
	fail := func(format string, a ...any) (*instance, error) {
		in.stop()
		return nil, fmt.Errorf(format, a...)
	}
	if polled {
		if group == nil {
			if in.group, err = sw.NewGroup(1); err != nil {
				return fail("%v", err)
			}
			group = in.group
		}
		if err := group.Add(s); err != nil {
			return fail("%v", err)
		}
	} else {
		s.Start()
	}
	if spec.P4 != "" {
		config, err := programBundle(spec.P4)
		if err == nil {
			err = in.srv.LoadAndCommit(config)
		}
		if err != nil {
			return fail("--p4 %s: %v", spec.P4, err)
		}
	}
	if !spec.NoPortStatus && len(spec.Ports) > 0 {
		err := netio.WatchCarrier(spec.Ports, in.done, func(port uint32, up bool) {
			err := in.srv.PortStatus(port, up)
			log.Info("carrier changed", "port", port, "up", up, "port_status_frame", err == nil, "err", err)
		})
		if err != nil {
			return fail("carrier watch: %v", err)
		}
	}
	lis, err := net.Listen("tcp", spec.GRPCAddr)
	if err != nil {
		return fail("gRPC listen: %v", err)
	}
	in.addr = lis.Addr().String()
	in.grpc = grpc.NewServer(append(security, grpc.MaxRecvMsgSize(256<<20), grpc.UnaryInterceptor(in.srv.TimeWrites))...)
	in.srv.Register(in.grpc)
	if spec.AdminAddr != "" {
		al, err := net.Listen("tcp", spec.AdminAddr)
		if err != nil {
			lis.Close()
			return fail("admin listen: %v", err)
		}
		in.admin = &http.Server{Handler: tm.AdminHandler(s.TM()), ReadHeaderTimeout: 5 * time.Second}
		go in.admin.Serve(al)
	}
	go in.grpc.Serve(lis)
	if spec.AddrFile != "" {
		if err := os.WriteFile(spec.AddrFile, []byte(in.addr), 0o644); err != nil {
			return fail("--grpc-addr-file: %v", err)
		}
	}
	log.Info("p4switch running", "device_id", spec.DeviceID, "grpc", in.addr, "admin", spec.AdminAddr,
		"ports", len(opened), "cpu_port", spec.CPUPort, "loop", map[bool]string{false: "goroutines", true: "epoll"}[polled])
	return in, nil
}

// stop ends the switch: P4Runtime (streams get 2 s to close), the admin
// interface, the server and the ports.
func (in *instance) stop() {
	close(in.done)
	if in.grpc != nil {
		stopped := make(chan struct{})
		go func() { in.grpc.GracefulStop(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(2 * time.Second): // streams stay open until clients go
			in.grpc.Stop()
		}
	}
	if in.admin != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		in.admin.Shutdown(ctx)
		cancel()
	}
	in.srv.Close()
	in.sw.Stop()
	if in.group != nil {
		in.group.Close()
	}
	if in.srv.Latencies.PacketInMade.Count() > 0 || in.srv.Latencies.WriteHandled.Count() > 0 {
		for _, line := range in.srv.Latencies.Lines() {
			in.log.Info("P4TE stage " + line)
		}
	}
}
