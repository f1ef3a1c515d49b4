package scenario

import p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

const (
	in  = "FabricIngress."
	eg  = "FabricEgress."
	upD = in + "upward_routing.up_delay"
	upQ = in + "upward_routing.up_queue"
	upU = in + "upward_routing.up_util"
)

var selectorOf = map[string]string{
	upD: in + "upward_routing.up_delay_selector",
	upQ: in + "upward_routing.up_queue_selector",
	upU: in + "upward_routing.up_util_selector",
}

var portActionOf = map[string]string{
	upD: in + "upward_routing.set_low_delay_port",
	upQ: in + "upward_routing.set_low_queue_port",
	upU: in + "upward_routing.set_low_util_port",
}

// leaf programs a leaf: hosts on ports 1-2, uplinks 3-5, VID 7 pinned to 3.
func leaf(h *harness) {
	for port := uint64(1); port <= 5; port++ {
		kind := uint64(2)
		if port <= 2 {
			kind = 1
		}
		h.add(in+"port_kind.ingress_port_kind", []match{exact("standard_metadata.ingress_port", port)}, 0,
			in+"port_kind.set_ingress_port_kind", kind)
		h.add(eg+"port_kind.egress_port_kind", []match{exact("standard_metadata.egress_port", port)}, 0,
			eg+"port_kind.set_egress_port_kind", kind)
		h.add(eg+"rewrite.port_macs", []match{exact("standard_metadata.egress_port", port)}, 0,
			eg+"rewrite.rewrite_macs", routerMAC, 0xbb00+port)
	}
	h.add(in+"my_station.my_station", []match{exact("hdr.ethernet.dst_addr", routerMAC)}, 0, "NoAction")
	h.add(in+"downward_routing.routing_down", []match{{field: "hdr.ipv4.dst_addr", value: h1IP, plen: 32}}, 0,
		in+"downward_routing.route_down", 1)
	h.add(in+"downward_routing.routing_down", []match{{field: "hdr.ipv4.dst_addr", value: h2IP, plen: 32}}, 0,
		in+"downward_routing.route_down", 2)
	h.add(in+"pinned_path.pinned_path", []match{exact("hdr.vlan.vid", 7)}, 0, in+"pinned_path.set_pinned_uplink", 3)
	h.cloneSessionToCPU()
}

// uplinkMembers creates, in table's selector, member id = port for each uplink.
func uplinkMembers(h *harness, table string) {
	for port := uint32(3); port <= 5; port++ {
		h.member(p4v1.Update_INSERT, selectorOf[table], port, portActionOf[table], uint64(port))
	}
}

// groupOf puts one routing group (id, priority) with the given ports in table.
func groupOf(h *harness, table string, id uint32, priority int32, ports ...uint32) {
	h.group(p4v1.Update_INSERT, selectorOf[table], id, ports...)
	h.groupEntry(p4v1.Update_INSERT, table, priority, id)
}
