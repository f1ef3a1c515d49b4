"""`./fairfabric clean` removes what a crashed run left behind: processes, veths, namespaces."""

import os
import signal
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CRASHING_RUN = """
import sys, time
from mininet.net import Mininet
from mininet.nodelib import LinuxBridge
from mininet.topo import Topo
from fairfabric_mn import runstate

class T(Topo):
    def build(self):
        s = self.addSwitch("ffcs1")
        for n in ("ffch1", "ffch2"):
            self.addLink(self.addHost(n), s)

net = Mininet(topo=T(), switch=LinuxBridge, controller=None)
net.start()
runstate.register(net)
print(" ".join(str(h.pid) for h in net.hosts), flush=True)
time.sleep(600)
"""


def link_exists(name):
    return subprocess.run(["ip", "link", "show", "dev", name], capture_output=True).returncode == 0


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def remove_leftovers():
    """Whatever a failed earlier run of this test left, so that it can start afresh."""
    subprocess.run(["ip", "netns", "del", "ffclean-ns"], capture_output=True)
    for name in ("ffcs1-eth1", "ffcs1-eth2", "ffcs1"):
        subprocess.run(["ip", "link", "del", "dev", name], capture_output=True)


def test_clean_removes_what_a_killed_mininet_run_left(root, tmp_path):
    remove_leftovers()
    try:
        check_clean(tmp_path)
    finally:
        remove_leftovers()


def check_clean(tmp_path):
    env = dict(os.environ, FF_RUN=str(tmp_path), PYTHONPATH=os.path.join(REPO, "mininet"))
    # A recorded daemon of the project, as kafka or a switch would be.
    # Started as ./fairfabric starts daemons: own session, not our child.
    daemon = int(subprocess.run(["setsid", "sh", "-c", "sleep 600 >/dev/null 2>&1 & echo $!"],
                                capture_output=True, text=True, check=True).stdout)
    (tmp_path / "pids").mkdir()
    (tmp_path / "pids" / "daemon.pid").write_text(str(daemon))
    # A recorded named namespace.
    subprocess.run(["ip", "netns", "add", "ffclean-ns"], check=True)
    (tmp_path / "netns.d").mkdir()
    (tmp_path / "netns.d" / "ffclean-ns").write_text("")

    run = subprocess.Popen([sys.executable, "-c", CRASHING_RUN], env=env, stdout=subprocess.PIPE, text=True)
    host_pids = [int(p) for p in run.stdout.readline().split()]
    assert len(host_pids) == 2 and link_exists("ffcs1-eth1") and link_exists("ffcs1")
    run.send_signal(signal.SIGKILL)
    run.wait()
    # The host shells may die with their parent (taking their veths along), but the
    # bridge in the root namespace stays behind.
    assert link_exists("ffcs1"), "a killed run leaves its bridge behind"

    out = subprocess.run([os.path.join(REPO, "fairfabric"), "clean"], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr

    deadline = time.time() + 5
    while any(alive(p) for p in host_pids + [daemon]) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in host_pids + [daemon])
    assert not link_exists("ffcs1-eth1") and not link_exists("ffcs1-eth2") and not link_exists("ffcs1")
    netns = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert "ffclean-ns" not in netns
    assert list((tmp_path / "mininet").glob("*.json")) == []
