"""Records what a Mininet run creates, so that `./fairfabric clean` can remove
exactly that (by PID and by interface name, never by process name)."""

import json
import os

RUN_DIR = os.environ.get(
    "FF_RUN", os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), ".run"))
NETS_DIR = os.path.join(RUN_DIR, "mininet")


def _record_path(net):
    return os.path.join(NETS_DIR, "net-%d-%d.json" % (os.getpid(), id(net)))


def register(net):
    """Call after net.start(): records switch names, their interfaces and node PIDs."""
    os.makedirs(NETS_DIR, exist_ok=True)
    record = {
        "pids": [n.pid for n in net.hosts + net.switches if getattr(n, "pid", None)],
        "switches": [s.name for s in net.switches],
        "interfaces": sorted({i.name for s in net.switches for i in s.intfList() if i.name != "lo"}),
    }
    with open(_record_path(net), "w") as f:
        json.dump(record, f)


def extend(net, pids=(), interfaces=()):
    """Adds processes (e.g. switch daemons) or interfaces started for the net."""
    path = _record_path(net)
    with open(path) as f:
        record = json.load(f)
    record["pids"] += list(pids)
    record["interfaces"] = sorted(set(record["interfaces"]) | set(interfaces))
    with open(path, "w") as f:
        json.dump(record, f)


def unregister(net):
    """Call after net.stop()."""
    try:
        os.remove(_record_path(net))
    except FileNotFoundError:
        pass
