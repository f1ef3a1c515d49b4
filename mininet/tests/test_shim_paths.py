"""Path pinning: a session's traffic is split over its paths in proportion to the
per-path rates, each sub-flow tagged with its path id (802.1Q VID) and carried on
that path; the receiver's PathBytes reports (Promenade Eq. 5) match what the
application received."""

import time

import pytest

import shimnet
from fairfabric_mn import shim

SECONDS = 6


@pytest.fixture
def two_paths(root):
    net = shimnet.start(shimnet.TwoPaths())
    shimnet.configure_two_paths(net, receiver_keeps_tag=True)
    shims = shim.ShimSet(net, topic_suffix=shim.unique_suffix(), period="500ms")
    try:
        yield net, shims
    finally:
        shims.stop()
        shimnet.stop(net)


def test_two_paths_carry_traffic_two_to_one_and_receiver_reports_match(two_paths):
    net, shims = two_paths
    h1, h2, s1 = net.get(shimnet.h(1), shimnet.h(2), shimnet.s(1))
    shims.publish(shimnet.h(1), shim.table(shimnet.h(1), 1, [("s12", h2.IP(), [(1, 40e6), (2, 20e6)])]))
    shims[shimnet.h(1)].wait_version(1)
    assert net.ping([h1, h2], timeout=2) == 0.0

    before = {p: shimnet.tx_bytes(s1, "%s-eth%d" % (shimnet.s(1), p + 1)) for p in (1, 2)}
    sink = shimnet.start_sink(h2)
    sent = shimnet.blast(h1, ["%s:5201" % h2.IP()], SECONDS)
    time.sleep(1.5)  # the sender's socket buffer drains after blast returns
    app_received = shimnet.stop_sink(sink)[h2.IP()]
    on_path = {p: shimnet.tx_bytes(s1, "%s-eth%d" % (shimnet.s(1), p + 1)) - before[p] for p in (1, 2)}
    ratio = on_path[1] / on_path[2]
    total_mbps = (on_path[1] + on_path[2]) * 8 / SECONDS / 1e6
    print("bytes on path 1: %d, on path 2: %d, ratio %.3f (want 2), %.1f Mbit/s in total (allocated 60)"
          % (on_path[1], on_path[2], ratio, total_mbps))
    assert abs(ratio - 2) <= 0.05 * 2
    assert sum(sent.values()) >= app_received > 0

    time.sleep(1.5)  # two more periods: the last bytes are reported
    reports = [r["value"] for r in shims.consume("ff.shim.pathbytes.v1", key=shimnet.h(2))]
    assert reports and all(r["schema"] == 1 and r["host"] == shimnet.h(2) for r in reports)
    seqs = [r["seq"] for r in reports]
    assert seqs == list(range(1, len(seqs) + 1)), "pathbytes records missing or reordered"
    per_path = {}
    for r in reports:
        for e in r["entries"]:
            if e["src"] == h1.IP() and e["dst"] == h2.IP():
                per_path[e["path"]] = per_path.get(e["path"], 0) + e["payload_bytes"]
    reported = per_path.get(1, 0) + per_path.get(2, 0)
    print("application received %d bytes; shim reported %d (path 1: %d, path 2: %d, untagged: %d); difference %.3f%%"
          % (app_received, reported, per_path.get(1, 0), per_path.get(2, 0), per_path.get(0, 0),
             (reported / app_received - 1) * 100))
    assert abs(reported - app_received) <= 0.01 * app_received
    assert abs(per_path[1] / per_path[2] - 2) <= 0.05 * 2


def test_last_hop_strips_the_tag_and_the_receiver_counts_the_session_untagged(root):
    """The pipeline contract: the last hop removes the tag. Traffic still follows the
    pinned paths 2:1, arrives untagged, and the receiver counts it under path 0."""
    net = shimnet.start(shimnet.TwoPaths())
    shimnet.configure_two_paths(net, receiver_keeps_tag=False)
    shims = shim.ShimSet(net, topic_suffix=shim.unique_suffix(), period="500ms")
    try:
        h1, h2, s1 = net.get(shimnet.h(1), shimnet.h(2), shimnet.s(1))
        src = h1.IP()
        shims.publish(shimnet.h(1), shim.table(shimnet.h(1), 1, [("s12", h2.IP(), [(1, 20e6), (2, 10e6)])]))
        shims[shimnet.h(1)].wait_version(1)
        before = {p: shimnet.tx_bytes(s1, "%s-eth%d" % (shimnet.s(1), p + 1)) for p in (1, 2)}
        sink = shimnet.start_sink(h2)
        shimnet.blast(h1, ["%s:5201" % h2.IP()], 3)
        time.sleep(1.5)  # the sender's socket buffer drains after blast returns
        app_received = shimnet.stop_sink(sink)[h2.IP()]
        on_path = {p: shimnet.tx_bytes(s1, "%s-eth%d" % (shimnet.s(1), p + 1)) - before[p] for p in (1, 2)}
        time.sleep(1.2)
        reports = [r["value"] for r in shims.consume("ff.shim.pathbytes.v1", key=shimnet.h(2))]
    finally:
        shims.stop()
        shimnet.stop(net)
    per_path = {}
    for r in reports:
        for e in r["entries"]:
            if e["src"] == src:
                per_path[e["path"]] = per_path.get(e["path"], 0) + e["payload_bytes"]
    print("tag stripped at the last hop: path bytes %s (ratio %.3f), receiver counted %s, application %d"
          % (on_path, on_path[1] / on_path[2], per_path, app_received))
    assert abs(on_path[1] / on_path[2] - 2) <= 0.05 * 2
    assert set(per_path) == {0}
    assert abs(per_path[0] - app_received) <= 0.01 * app_received
