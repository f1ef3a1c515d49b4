"""Control intake: malformed, duplicate and out-of-order rates tables are rejected and
counted while the previous rates stay in force; sessions are reported active and
inactive (Promenade Algorithm 2 messages)."""

import json
import re
import time

import pytest

import shimnet
from fairfabric_mn import shim


@pytest.fixture
def star2(root):
    net = shimnet.start(shimnet.Star(n=2))
    shims = shim.ShimSet(net, topic_suffix=shim.unique_suffix(), period="300ms")
    try:
        yield net, shims
    finally:
        shims.stop()
        shimnet.stop(net)


def session_rates(host):
    return re.findall(r"class htb 1:(?!fffe)\w+ root .*? rate (\S+)", host.cmd("tc class show dev %s-eth0" % host.name))


def test_bad_tables_are_rejected_counted_and_change_nothing(star2):
    net, shims = star2
    h1, h2 = net.get(shimnet.h(1), shimnet.h(2))
    good = shim.table(shimnet.h(1), 5, [("s12", h2.IP(), [(0, 30e6)])])
    shims.publish(shimnet.h(1), good)
    shims[shimnet.h(1)].wait_version(5)
    assert session_rates(h1) == ["30Mbit"]

    def variant(**kw):
        t = json.loads(json.dumps(good))
        t.update(kw)
        return t

    bad = [
        ("malformed", '{"schema":1,"host":shimnet.h(1),"version":9,'),
        ("malformed", variant(schema=2, version=9)),
        ("malformed", variant(host=shimnet.h(2), version=9)),
        ("malformed", variant(version=9, sessions=[{"id": "s12", "tenant": "t1", "dst": "10.0.0.999", "paths": [{"id": 0, "rate_bps": 1e6}]}])),
        ("malformed", variant(version=9, sessions=[{"id": "s12", "tenant": "t1", "dst": h2.IP(), "paths": [{"id": 0, "rate_bps": 0}]}])),
        ("duplicate", shim.table(shimnet.h(1), 5, [("s12", h2.IP(), [(0, 90e6)])])),
        ("out_of_order", shim.table(shimnet.h(1), 4, [("s12", h2.IP(), [(0, 90e6)])])),
    ]
    for _, t in bad:
        shims.publish(shimnet.h(1), t)
    shims.publish(shimnet.h(1), shim.table(shimnet.h(1), 6, [("s12", h2.IP(), [(0, 40e6)])]))  # a good one after them
    shims[shimnet.h(1)].wait_version(6)
    health = shims[shimnet.h(1)].health()
    want = {}
    for reason, _ in bad:
        want[reason] = want.get(reason, 0) + 1
    print("rejected:", health["rejected"])
    assert health["rejected"] == want
    assert health["tables_applied"] == 2
    assert session_rates(h1) == ["40Mbit"]
    metrics = shims[shimnet.h(1)].get("/metrics")
    assert 'ff_shim_rates_rejected_total{reason="malformed"} 5' in metrics
    # the other host's shim saw none of hsh1's records
    assert shims[shimnet.h(2)].health()["rejected"] == {}


def test_sessions_are_reported_active_then_inactive(star2):
    net, shims = star2
    h1, h2 = net.get(shimnet.h(1), shimnet.h(2))
    shims.publish(shimnet.h(1), shim.table(shimnet.h(1), 1, [("s12", h2.IP(), [(0, 20e6)])]))
    shims[shimnet.h(1)].wait_version(1)
    time.sleep(1)
    sink = shimnet.start_sink(h2)
    shimnet.blast(h1, ["%s:5201" % h2.IP()], 2)
    shimnet.stop_sink(sink)
    time.sleep(1.5)  # > 3 idle periods of 300 ms
    records = shims.consume("ff.shim.sessions.v1", key=shimnet.h(1) + "/s12")
    transitions = [r["value"]["state"] for r in records if r["value"]["reason"] == "transition"]
    print("session s12 transitions:", transitions)
    assert transitions == ["active", "inactive"]
    v = records[0]["value"]
    assert (v["schema"], v["host"], v["session"], v["tenant"], v["src"], v["dst"]) == (1, shimnet.h(1), "s12", "t1", h1.IP(), h2.IP())
