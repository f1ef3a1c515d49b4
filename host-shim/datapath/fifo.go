package datapath

import (
	"encoding/binary"
	"fmt"

	"github.com/vishvananda/netlink/nl"
	"github.com/vishvananda/netns"
	"golang.org/x/sys/unix"
)

// addFifo attaches a pfifo (limit in packets) or bfifo (limit in bytes) under the
// given HTB class. The netlink library has no fifo type with a limit, so this
// builds the RTM_NEWQDISC request itself: struct tc_fifo_qopt { __u32 limit; }.
func addFifo(ns netns.NsHandle, ifindex int, parent uint32, kind string, limit uint32) error {
	if kind != "pfifo" && kind != "bfifo" {
		return fmt.Errorf("fifo kind %q", kind)
	}
	sock, err := nl.GetNetlinkSocketAt(ns, netns.None(), unix.NETLINK_ROUTE)
	if err != nil {
		return err
	}
	defer sock.Close()
	req := &nl.NetlinkRequest{
		NlMsghdr: unix.NlMsghdr{
			Len:   uint32(unix.SizeofNlMsghdr),
			Type:  unix.RTM_NEWQDISC,
			Flags: unix.NLM_F_REQUEST | unix.NLM_F_ACK | unix.NLM_F_CREATE | unix.NLM_F_REPLACE,
		},
		Sockets: map[int]*nl.SocketHandle{unix.NETLINK_ROUTE: {Socket: sock}},
	}
	req.AddData(&nl.TcMsg{Family: nl.FAMILY_ALL, Ifindex: int32(ifindex), Parent: parent})
	req.AddData(nl.NewRtAttr(nl.TCA_KIND, nl.ZeroTerminated(kind)))
	opt := make([]byte, 4)
	binary.LittleEndian.PutUint32(opt, limit)
	req.AddData(nl.NewRtAttr(nl.TCA_OPTIONS, opt))
	_, err = req.Execute(unix.NETLINK_ROUTE, 0)
	return err
}
