"""Telemetry survives a broker restart: reports resume, and every record that did
not reach the broker is one the shim counted as dropped (its buffer is bounded)."""

import re
import time

import pytest

import shimnet
from fairfabric_mn import shim
from fairfabric_mn.chaos import Broker

BUFFER = 30     # records the shim buffers while the broker is down
PERIOD = 0.1    # s; two records (pathbytes, stats) per period
OUTAGE = 4.0    # s


@pytest.fixture
def broker(root):
    b = Broker()
    b.ctl("start")
    try:
        yield b
    finally:
        b.remove()


def test_reports_resume_after_a_broker_restart_and_losses_are_counted(broker):
    net = shimnet.start(shimnet.Star(n=2))
    shims = shim.ShimSet(net, hosts=[net.get(shimnet.h(1))], kafka=broker.address, topic_suffix=shim.unique_suffix(),
                         period="%dms" % (PERIOD * 1000), extra=["-telemetry-buffer", str(BUFFER)])
    try:
        time.sleep(1.5)
        down_at = time.time()
        broker.ctl("stop")
        time.sleep(OUTAGE)
        broker.ctl("start")
        up_at = time.time()
        deadline = time.time() + 30
        while time.time() < deadline and shims[shimnet.h(1)].stats()["telemetry"]["buffered"] > 2:
            time.sleep(0.2)
        time.sleep(1.5)
    finally:
        shims.stop(keep_topics=True)
        shimnet.stop(net)
    try:
        check_reports(shims, down_at, up_at)
    finally:
        shims.delete_topics()


def check_reports(shims, down_at, up_at):
    m = re.search(r"telemetry at exit: produced (\d+) dropped (\d+) unsent (\d+)", shims[shimnet.h(1)].log())
    assert m, shims[shimnet.h(1)].log()[-1500:]
    produced, dropped = int(m.group(1)), int(m.group(2))

    missing, delivered, resumed, kept = 0, 0, 0, 0
    for topic in ("ff.shim.pathbytes.v1", "ff.shim.stats.v1"):
        recs = [r["value"] for r in shims.consume(topic, key=shimnet.h(1)) if isinstance(r["value"], dict)]
        seqs = sorted(r["seq"] for r in recs)
        assert len(seqs) == len(set(seqs)), "%s: duplicates despite the idempotent producer" % topic
        missing += seqs[-1] - len(seqs)
        delivered += len(seqs)
        ts = [r.get("ts_ms", r.get("period_start_ms", 0)) / 1000 for r in recs]
        resumed += sum(1 for t in ts if t > up_at + 0.5)
        kept += sum(1 for t in ts if down_at < t < up_at)
    print("broker stopped for %.1f s (stop to ready): %d records delivered, %d never reached the broker, "
          "shim counted %d dropped; %d records made while it was down were buffered and delivered (buffer %d); "
          "%d records after the restart" % (up_at - down_at, delivered, missing, dropped, kept, BUFFER, resumed))
    assert resumed > 0
    assert dropped > 0
    assert missing == dropped
    assert produced == delivered
    # the buffer was used up to its bound before anything was dropped
    assert kept >= BUFFER - 5
