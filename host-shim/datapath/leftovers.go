package datapath

import (
	"fmt"
	"log"

	"github.com/vishvananda/netlink"
)

// removeLeftovers deletes the HTB root and the clsact qdisc a previous shim left on the
// interface when it died without closing (kill -9, a crash): the kernel keeps them, and
// HTB cannot be replaced in place (EINVAL), so a restarted shim could not open the
// interface. Deleting a qdisc deletes its classes and filters with it.
func (d *Datapath) removeLeftovers() error {
	qdiscs, err := d.nh.QdiscList(d.link)
	if err != nil {
		return fmt.Errorf("listing the qdiscs of %s: %w", d.cfg.Ifname, err)
	}
	for _, q := range qdiscs {
		a := q.Attrs()
		ours := (q.Type() == "htb" && a.Parent == netlink.HANDLE_ROOT && a.Handle == netlink.MakeHandle(rootMajor, 0)) ||
			q.Type() == "clsact"
		if !ours {
			continue
		}
		if err := d.nh.QdiscDel(q); err != nil {
			return fmt.Errorf("removing the %s qdisc a previous shim left on %s: %w", q.Type(), d.cfg.Ifname, err)
		}
		log.Printf("removed the %s qdisc a previous shim left on %s", q.Type(), d.cfg.Ifname)
	}
	return nil
}
