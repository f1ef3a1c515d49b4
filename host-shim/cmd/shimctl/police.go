package main

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
)

func init() {
	commands["police"] = command{"benchmark baseline: per-destination eBPF token-bucket policer at clsact egress (drops, no queue)", police}
}

// police attaches a policer that the shim does not use; `./fairfabric bench shim`
// compares it with the shim's HTB classes. Token state is updated without locks,
// so concurrent CPUs may race; the benchmark drives it from one sender.
func police(args []string) error {
	fs := flag.NewFlagSet("police", flag.ContinueOnError)
	dev := fs.String("dev", "", "interface (required)")
	burst := fs.Duration("burst", 2*time.Millisecond, "bucket depth as time at the rate (at least 64 KB)")
	var rules vidRoutes
	fs.Var(&rules, "dst", "IP=RATE_BPS (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dev == "" || len(rules) == 0 {
		return errors.New("-dev and at least one -dst are required")
	}
	link, err := netlink.LinkByName(*dev)
	if err != nil {
		return err
	}
	m, err := ebpf.NewMap(&ebpf.MapSpec{Name: "ff_police", Type: ebpf.Hash, KeySize: 4, ValueSize: 32, MaxEntries: 4096})
	if err != nil {
		return err
	}
	defer m.Close()
	for _, r := range rules {
		ip, rate, ok := strings.Cut(r, "=")
		a, err := netip.ParseAddr(ip)
		bps, err2 := strconv.ParseUint(rate, 10, 64)
		if !ok || err != nil || !a.Is4() || err2 != nil || bps == 0 {
			return fmt.Errorf("-dst %q is not IPv4=RATE_BPS", r)
		}
		depth := uint64(float64(bps) / 8 * burst.Seconds())
		if depth < 65536+1600 {
			depth = 65536 + 1600
		}
		v := make([]byte, 32)
		binary.LittleEndian.PutUint64(v[0:], bps/8)  // bytes per second
		binary.LittleEndian.PutUint64(v[8:], depth)  // bucket depth
		binary.LittleEndian.PutUint64(v[16:], depth) // tokens
		if err := m.Put(a.As4(), v); err != nil {
			return err
		}
	}
	ins := asm.Instructions{
		asm.Mov.Reg(asm.R6, asm.R1),
		asm.LoadMem(asm.R2, asm.R6, 16, asm.Word),
		asm.JNE.Imm(asm.R2, 0x0008, "pass"),
		asm.Mov.Reg(asm.R1, asm.R6),
		asm.Mov.Imm(asm.R2, 14+16),
		asm.Mov.Reg(asm.R3, asm.RFP),
		asm.Add.Imm(asm.R3, -8),
		asm.Mov.Imm(asm.R4, 4),
		asm.FnSkbLoadBytes.Call(),
		asm.JNE.Imm(asm.R0, 0, "pass"),
		asm.LoadMapPtr(asm.R1, m.FD()),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -8),
		asm.FnMapLookupElem.Call(),
		asm.JEq.Imm(asm.R0, 0, "pass"),
		asm.Mov.Reg(asm.R7, asm.R0),
		asm.FnKtimeGetNs.Call(),
		asm.Mov.Reg(asm.R8, asm.R0),                // now
		asm.LoadMem(asm.R3, asm.R7, 24, asm.DWord), // last
		asm.Mov.Reg(asm.R4, asm.R8),
		asm.Sub.Reg(asm.R4, asm.R3), // elapsed ns
		asm.JLE.Imm(asm.R4, 1000000000, "capped"),
		asm.Mov.Imm(asm.R4, 1000000000),
		asm.LoadMem(asm.R5, asm.R7, 0, asm.DWord).WithSymbol("capped"), // rate B/s
		asm.Mul.Reg(asm.R4, asm.R5),
		asm.Div.Imm(asm.R4, 1000000000),
		asm.LoadMem(asm.R5, asm.R7, 16, asm.DWord), // tokens
		asm.Add.Reg(asm.R5, asm.R4),
		asm.LoadMem(asm.R3, asm.R7, 8, asm.DWord), // depth
		asm.JLE.Reg(asm.R5, asm.R3, "full"),
		asm.Mov.Reg(asm.R5, asm.R3),
		asm.StoreMem(asm.R7, 24, asm.R8, asm.DWord).WithSymbol("full"),
		asm.LoadMem(asm.R2, asm.R6, 0, asm.Word), // skb->len
		asm.JGE.Reg(asm.R5, asm.R2, "conform"),
		asm.StoreMem(asm.R7, 16, asm.R5, asm.DWord),
		asm.Mov.Imm(asm.R0, 2), // TC_ACT_SHOT
		asm.Return(),
		asm.Sub.Reg(asm.R5, asm.R2).WithSymbol("conform"),
		asm.StoreMem(asm.R7, 16, asm.R5, asm.DWord),
		asm.Mov.Imm(asm.R0, 0).WithSymbol("pass"),
		asm.Return(),
	}
	prog, err := ebpf.NewProgram(&ebpf.ProgramSpec{Name: "ff_police", Type: ebpf.SchedCLS, License: "GPL", Instructions: ins})
	if err != nil {
		return fmt.Errorf("loading: %w", err)
	}
	defer prog.Close()
	clsact := &netlink.Clsact{QdiscAttrs: netlink.QdiscAttrs{LinkIndex: link.Attrs().Index, Handle: netlink.MakeHandle(0xffff, 0), Parent: netlink.HANDLE_CLSACT}}
	if err := netlink.QdiscReplace(clsact); err != nil {
		return err
	}
	return netlink.FilterReplace(&netlink.BpfFilter{FilterAttrs: netlink.FilterAttrs{LinkIndex: link.Attrs().Index, Parent: netlink.HANDLE_MIN_EGRESS, Handle: netlink.MakeHandle(0, 1), Protocol: unix.ETH_P_ALL, Priority: 1},
		Fd: prog.FD(), Name: "ff_police", DirectAction: true})
}
