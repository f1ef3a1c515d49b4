package netio

import (
	"fmt"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
)

// CarrierUp reports whether a link can carry frames: administratively up
// and with carrier (IFF_UP and IFF_RUNNING; a veth whose peer is down has no
// carrier).
func CarrierUp(l netlink.Link) bool {
	f := l.Attrs().RawFlags
	return f&unix.IFF_UP != 0 && f&unix.IFF_RUNNING != 0
}

// WatchCarrier calls changed(port, up) each time the carrier of one of the
// given interfaces (port number -> interface name) goes down or comes back,
// from the kernel's link notifications (rtnetlink), until done is closed.
// The state at the start is the reference: only changes are reported.
func WatchCarrier(ports map[uint32]string, done <-chan struct{}, changed func(port uint32, up bool)) error {
	updates := make(chan netlink.LinkUpdate, 64)
	if err := netlink.LinkSubscribeWithOptions(updates, done, netlink.LinkSubscribeOptions{
		ErrorCallback: func(error) {},
	}); err != nil {
		return fmt.Errorf("link notifications: %v", err)
	}
	byIndex := map[int]uint32{}
	state := map[uint32]bool{}
	for n, name := range ports {
		l, err := netlink.LinkByName(name)
		if err != nil {
			return fmt.Errorf("port %d (%s): %v", n, name, err)
		}
		byIndex[l.Attrs().Index] = n
		state[n] = CarrierUp(l)
	}
	go func() {
		for u := range updates {
			n, ok := byIndex[int(u.Index)]
			if !ok {
				continue
			}
			up := u.Header.Type == unix.RTM_NEWLINK && CarrierUp(u.Link)
			if up != state[n] {
				state[n] = up
				changed(n, up)
			}
		}
	}()
	return nil
}
