"""Tenants' VMs on Mininet servers (docs/controller.md, "Tenants' hosts are VMs"): a VM is a REST
host at the attachment point of a network-configuration host; its IP address is added to the
server's interface, and traffic tools bind to it. The VMs of one server share its cable."""


def location(server):
    """The server's attachment point as the REST API names it: {"device": "device:SWITCH", "port": N}."""
    intf = server.defaultIntf()
    peer = intf.link.intf2 if intf.link.intf1 is intf else intf.link.intf1
    return {"device": "device:" + peer.node.name, "port": peer.node.ports[peer]}


def add_vm(ctl, tenant, server, name, ip, mac):
    """Registers VM name (ip, mac) of the tenant on the server over REST and adds its address to the server."""
    status, reply = ctl.send("POST", "/tenants/%s/hosts" % tenant, {"id": name, "ip": ip, "mac": mac, "location": location(server)})
    if status != 201:
        raise RuntimeError("POST /tenants/%s/hosts %s: %s %s" % (tenant, name, status, reply))
    out = server.cmd("ip addr add %s/32 dev %s 2>&1; echo rc=$?" % (ip, server.defaultIntf().name))
    if "rc=0" not in out:
        raise RuntimeError("adding VM address %s to %s: %s" % (ip, server.name, out.strip()))
