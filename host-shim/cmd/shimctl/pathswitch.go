package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
)

func init() {
	commands["pathswitch"] = command{"test fabric: forward an interface's ingress by 802.1Q VID (path id) with an eBPF redirect", pathswitch}
}

type vidRoutes []string

func (v *vidRoutes) String() string     { return strings.Join(*v, ",") }
func (v *vidRoutes) Set(s string) error { *v = append(*v, s); return nil }

// pathswitch stands in for the P4 fabric in Mininet tests where the kernel has no
// VLAN-aware bridge: every packet arriving on -dev leaves by the interface its VID
// selects (untagged packets by -untagged); the tag stays on unless -pop is given.
func pathswitch(args []string) error {
	fs := flag.NewFlagSet("pathswitch", flag.ContinueOnError)
	dev := fs.String("dev", "", "interface whose ingress is forwarded (required)")
	untagged := fs.String("untagged", "", "where untagged packets go (required)")
	pop := fs.Bool("pop", false, "remove the tag before forwarding (last hop)")
	var routes vidRoutes
	fs.Var(&routes, "vid", "VID=IFACE: where packets tagged VID go (repeatable); other VIDs are dropped; VID * means any tag")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dev == "" || *untagged == "" {
		return errors.New("-dev and -untagged are required")
	}
	link, err := netlink.LinkByName(*dev)
	if err != nil {
		return fmt.Errorf("%s: %w", *dev, err)
	}
	ifindex := func(name string) (int32, error) {
		l, err := netlink.LinkByName(name)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", name, err)
		}
		return int32(l.Attrs().Index), nil
	}
	defIdx, err := ifindex(*untagged)
	if err != nil {
		return err
	}
	ins := asm.Instructions{
		asm.Mov.Reg(asm.R6, asm.R1),
		asm.Mov.Imm(asm.R7, defIdx),
		asm.LoadMem(asm.R2, asm.R6, 20, asm.Word), // vlan_present
		asm.JEq.Imm(asm.R2, 0, "fwd"),
		asm.LoadMem(asm.R3, asm.R6, 24, asm.Word), // vlan_tci
		asm.And.Imm(asm.R3, 0xfff),
	}
	anyTag := int32(-1)
	for i, r := range routes {
		vid, ifname, ok := strings.Cut(r, "=")
		if !ok {
			return fmt.Errorf("-vid %q is not VID=IFACE", r)
		}
		idx, err := ifindex(ifname)
		if err != nil {
			return err
		}
		if vid == "*" {
			anyTag = idx
			continue
		}
		n, err := strconv.Atoi(vid)
		if err != nil || n < 1 || n > 4094 {
			return fmt.Errorf("-vid %q: VID must be 1..4094", r)
		}
		label := fmt.Sprintf("next%d", i)
		ins = append(ins,
			asm.JNE.Imm(asm.R3, int32(n), label),
			asm.Mov.Imm(asm.R7, idx),
			asm.Ja.Label("tagged"),
			asm.Mov.Imm(asm.R0, 0).WithSymbol(label), // no-op landing
		)
	}
	if anyTag >= 0 {
		ins = append(ins, asm.Mov.Imm(asm.R7, anyTag), asm.Ja.Label("tagged"))
	} else {
		ins = append(ins, asm.Mov.Imm(asm.R0, 2), asm.Return()) // TC_ACT_SHOT
	}
	ins = append(ins, asm.Mov.Imm(asm.R0, 0).WithSymbol("tagged"))
	if *pop {
		ins = append(ins, asm.Mov.Reg(asm.R1, asm.R6), asm.FnSkbVlanPop.Call())
	}
	ins = append(ins,
		asm.Mov.Reg(asm.R1, asm.R7).WithSymbol("fwd"),
		asm.Mov.Imm(asm.R2, 0),
		asm.FnRedirect.Call(),
		asm.Return(),
	)
	prog, err := ebpf.NewProgram(&ebpf.ProgramSpec{Name: "ff_pathswitch", Type: ebpf.SchedCLS, License: "GPL", Instructions: ins})
	if err != nil {
		return fmt.Errorf("loading: %w", err)
	}
	defer prog.Close()
	clsact := &netlink.Clsact{QdiscAttrs: netlink.QdiscAttrs{LinkIndex: link.Attrs().Index, Handle: netlink.MakeHandle(0xffff, 0), Parent: netlink.HANDLE_CLSACT}}
	if err := netlink.QdiscReplace(clsact); err != nil {
		return fmt.Errorf("clsact on %s: %w", *dev, err)
	}
	f := &netlink.BpfFilter{FilterAttrs: netlink.FilterAttrs{LinkIndex: link.Attrs().Index, Parent: netlink.HANDLE_MIN_INGRESS, Handle: netlink.MakeHandle(0, 1), Protocol: unix.ETH_P_ALL, Priority: 1},
		Fd: prog.FD(), Name: "ff_pathswitch", DirectAction: true}
	if err := netlink.FilterReplace(f); err != nil {
		return fmt.Errorf("attaching on %s: %w", *dev, err)
	}
	return nil
}
