package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"

	sw "github.com/fairfabric/fairfabric/p4switch/switch"
)

func init() {
	commands["fabric"] = command{summary: "run several switches in one process (one P4Runtime endpoint, device id and port set each)", run: fabricCmd}
}

// fabricConfig is the file `p4switch fabric --config FILE` reads:
//
//	{"switches": [{"name": "s1", "device_id": 1, "grpc_addr": "127.0.0.1:50001",
//	               "admin_addr": "127.0.0.1:50002", "cpu_port": 255, "p4": "",
//	               "ports": {"1": "s1-eth1"}, "defaults": ["rate=100M"],
//	               "port_settings": {"1": ["delay=1ms"]}}, ...]}
//
// Every switch behaves as a `p4switch run` with the same settings would; the
// switches share the process (and so the Go scheduler), not their state.
type fabricConfig struct {
	Switches []switchSpec `json:"switches"`
}

func fabricCmd(args []string) int {
	fs := flag.NewFlagSet("fabric", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: p4switch fabric --config FILE [flags]\n\nflags:")
		fs.PrintDefaults()
	}
	configPath := fs.String("config", "", "JSON file listing the switches (see docs/p4switch.md)")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error")
	pprofAddr := fs.String("pprof-addr", "", "serve Go's /debug/pprof/ profiles on this address")
	readyFile := fs.String("ready-file", "", "write \"ready\" here once every switch serves")
	loops := fs.Int("loops", 0, "run every switch on one epoll event loop with this many worker threads, each serving any switch (0: each switch as its \"loop\" says; docs/p4switch.md)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *configPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if *loops < 0 {
		fmt.Fprintf(os.Stderr, "p4switch fabric: --loops %d: want 0 or more\n", *loops)
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(os.Stderr, "p4switch fabric: bad --log-level %q\n", *logLevel)
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "p4switch fabric: "+format+"\n", a...)
		return 1
	}
	raw, err := os.ReadFile(*configPath)
	if err != nil {
		return fail("%v", err)
	}
	var cfg fabricConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return fail("%s: %v", *configPath, err)
	}
	if err := cfg.validate(); err != nil {
		return fail("%s: %v", *configPath, err)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	if *pprofAddr != "" {
		if err := servePprof(*pprofAddr, log); err != nil {
			return fail("--pprof-addr: %v", err)
		}
	}
	var running []*instance
	var group *sw.Group // nil: each switch as its spec says
	stopAll := func() {
		for _, in := range running {
			in.stop()
		}
		if group != nil {
			group.Close()
		}
	}
	if *loops > 0 {
		if group, err = sw.NewGroup(*loops); err != nil {
			return fail("%v", err)
		}
	}
	for _, spec := range cfg.Switches {
		in, err := startInstance(spec, log.With("switch", spec.Name), group)
		if err != nil {
			stopAll()
			return fail("switch %s: %v", spec.Name, err)
		}
		running = append(running, in)
	}
	if *readyFile != "" {
		if err := os.WriteFile(*readyFile, []byte("ready\n"), 0o644); err != nil {
			stopAll()
			return fail("--ready-file: %v", err)
		}
	}
	log.Info("p4switch fabric running", "switches", len(running))
	got := waitSignal()
	log.Info("shutting down", "signal", got.String())
	stopAll()
	return 0
}

// validate rejects a configuration two switches of which would clash.
func (c fabricConfig) validate() error {
	if len(c.Switches) == 0 {
		return fmt.Errorf("no switches")
	}
	names, ids, addrs, ifaces := map[string]bool{}, map[uint64]bool{}, map[string]bool{}, map[string]string{}
	for i, s := range c.Switches {
		switch {
		case s.Name == "":
			return fmt.Errorf("switch %d has no name", i+1)
		case names[s.Name]:
			return fmt.Errorf("switch name %s given twice", s.Name)
		case s.DeviceID == 0:
			return fmt.Errorf("switch %s: device_id must be at least 1", s.Name)
		case ids[s.DeviceID]:
			return fmt.Errorf("switch %s: device_id %d given twice", s.Name, s.DeviceID)
		case s.GRPCAddr == "":
			return fmt.Errorf("switch %s: no grpc_addr", s.Name)
		}
		for _, a := range []string{s.GRPCAddr, s.AdminAddr} {
			if a == "" {
				continue
			}
			if addrs[a] && a[len(a)-2:] != ":0" {
				return fmt.Errorf("switch %s: address %s given twice", s.Name, a)
			}
			addrs[a] = true
		}
		for n, ifname := range s.Ports {
			if n == 0 || ifname == "" {
				return fmt.Errorf("switch %s: want port numbers ≥ 1 with an interface", s.Name)
			}
			if other, dup := ifaces[ifname]; dup {
				return fmt.Errorf("interface %s is a port of both %s and %s", ifname, other, s.Name)
			}
			ifaces[ifname] = s.Name
		}
		names[s.Name], ids[s.DeviceID] = true, true
	}
	return nil
}
