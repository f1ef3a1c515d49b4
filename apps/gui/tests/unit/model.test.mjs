// The graph model without a browser: tiers, host merging, link pairing, failure and utilisation.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { buildModel, groupLevels, layout, monitorLinks, monitorPorts, monitorSessions, monitorTenants, sessionPair,
  sessionsOnLink } from "../../src/model.js";
import { linkDetails, sessionDetails } from "../../src/details.js";
import { BAND_COLOURS, utilBand } from "../../src/format.js";

const dev = (id, role) => ({ id, role, managementAddress: "grpc://x", available: true });
const link = (a, pa, b, pb, load = 0, up = true) => ({
  id: `${a}/${pa}-${b}/${pb}`, src: { device: a, port: pa }, dst: { device: b, port: pb }, capacityBps: 100e6, loadBps: load, up });

const snap = (links, hosts = []) => ({
  topology: { devices: [dev("device:leaf1", "leaf"), dev("device:leaf2", "leaf"), dev("device:spine1", "spine")], links, hosts },
  tenants: [], sessions: [], allocations: [], routingGroups: [],
});
const netcfg = { hosts: {
  "00:00:0a:00:01:01/None": { basic: { name: "h1", ips: ["10.0.1.1"], locations: ["device:leaf1/1"] }, fairfabric: { shim: true } },
  "00:00:0a:00:02:01/None": { basic: { name: "h2", ips: ["10.0.2.1"], locations: ["device:leaf2/1"] } },
} };

test("two directed links make one drawn link; its utilisation is the busier direction's", () => {
  const m = buildModel(snap([link("device:leaf1", 3, "device:spine1", 1, 20e6), link("device:spine1", 1, "device:leaf1", 3, 50e6)]), netcfg, null);
  assert.equal(m.kind, "leafspine");
  const fabricLinks = m.links.filter((l) => l.kind === "fabric");
  assert.equal(fabricLinks.length, 1);
  assert.equal(fabricLinks[0].util, 0.5);
  assert.equal(fabricLinks[0].failed, false);
  assert.equal(m.links.filter((l) => l.kind === "host").length, 2);
});

test("a link is failed when either direction is down", () => {
  const m = buildModel(snap([link("device:leaf1", 3, "device:spine1", 1), link("device:spine1", 1, "device:leaf1", 3, 0, false)]), netcfg, null);
  assert.equal(m.links.find((l) => l.kind === "fabric").failed, true);
});

test("a failed direction shows no load: the monitor's last figure for it is not current", () => {
  const m = buildModel(snap([link("device:leaf1", 3, "device:spine1", 1, 5e6), link("device:spine1", 1, "device:leaf1", 3, 80e6, false)]), netcfg, null);
  const l = m.links.find((x) => x.kind === "fabric");
  assert.equal(l.dirs.find((d) => !d.up).load, null);
  assert.equal(l.util, 0.05, "the link's utilisation is its working direction's");
});

test("utilisation bands: idle below 1 % is drawn apart from 20 %", () => {
  assert.deepEqual([null, 0, 0.009, 0.2, 0.3, 0.6, 0.8, 0.95].map(utilBand), ["nodata", "idle", "idle", "u0", "u1", "u2", "u3", "u4"]);
  assert.notEqual(BAND_COLOURS.idle, BAND_COLOURS.u0);
});

test("without the monitor and with every load 0 there is no load data (not 0 %)", () => {
  const m = buildModel(snap([link("device:leaf1", 3, "device:spine1", 1), link("device:spine1", 1, "device:leaf1", 3)]), netcfg, null);
  assert.equal(m.links.find((l) => l.kind === "fabric").util, null);
  const emptyMonitor = buildModel(snap([link("device:leaf1", 3, "device:spine1", 1), link("device:spine1", 1, "device:leaf1", 3)]), netcfg, new Map());
  assert.equal(emptyMonitor.links.find((l) => l.kind === "fabric").util, null, "an empty monitor view (no monitor running) is no data");
  const withMonitor = buildModel(snap([link("device:leaf1", 3, "device:spine1", 1), link("device:spine1", 1, "device:leaf1", 3)]), netcfg,
    new Map([["device:leaf1/3-device:spine1/1", { loadBps: 10e6, drops: 4 }]]));
  const l = withMonitor.links.find((x) => x.kind === "fabric");
  assert.equal(l.util, 0.1);
  assert.equal(l.dirs.find((d) => d.src.device === "device:leaf1").drops, 4);
});

test("a tenant's host joins the configured host at its location; the shim flag comes from the configuration", () => {
  const th = { id: "vm1", tenantId: "blue", ip: "10.0.1.1", mac: "00:00:0a:00:01:01", location: { device: "device:leaf1", port: 1 } };
  const m = buildModel(snap([], [th]), netcfg, null);
  assert.equal(m.hosts.length, 2);
  const h1 = m.hosts.find((h) => h.label === "h1");
  assert.deepEqual(h1.tenantHosts.map((t) => t.id), ["vm1"]);
  assert.equal(h1.shim, true);
});

test("layout: spines above leaves above hosts; hosts under their switch", () => {
  const m = buildModel(snap([]), netcfg, null);
  const p = layout(m, 1000);
  assert.ok(p["device:spine1"].y < p["device:leaf1"].y);
  assert.ok(p["device:leaf1"].y < p["host:h1"].y);
  assert.equal(p["host:h1"].x, p["device:leaf1"].x);
});

test("fat-tree tiers: core, aggregation, edge rows", () => {
  const s = { ...snap([]), topology: { devices: [dev("device:core1", "core"), dev("device:agg00", "aggregation"), dev("device:edge00", "edge")], links: [], hosts: [] } };
  const m = buildModel(s, null, null);
  assert.equal(m.kind, "fattree");
  const p = layout(m, 1000);
  assert.ok(p["device:core1"].y < p["device:agg00"].y && p["device:agg00"].y < p["device:edge00"].y);
});

// The first ```json block under the first heading of docs/kafka.md that names `token`, as the monitor's tests read it.
function kafkaDocExample(token) {
  const lines = readFileSync(new URL("../../../../docs/kafka.md", import.meta.url), "utf8").split("\n");
  let i = lines.findIndex((l) => l.startsWith("#") && l.includes("`" + token + "`"));
  while (lines[i] !== "```json") i++;
  const end = lines.indexOf("```", i + 1);
  return JSON.parse(lines.slice(i + 1, end).join("\n"));
}

test("the monitor's session records by pair: an RLNC session's figures, none for a plain one", () => {
  const coded = kafkaDocExample("rlnc");
  const plain = { ...kafkaDocExample("ff.mon.sessions.v1"), src: "10.0.0.3" };
  const m = monitorSessions([coded, plain, { schema: 1 }, null]);
  assert.equal(m.size, 2, "records without a pair are left out");
  assert.equal(m.get("10.0.0.3>10.0.0.2").rlnc, null);
  const r = m.get("10.0.0.1>10.0.0.2").rlnc;
  assert.equal(r.session, "t1/vm3-vm7");
  assert.deepEqual(r.sender.paths, [{ path: 1, allocatedBps: 30000000, sentBps: 29766080 }, { path: 2, allocatedBps: 10000000, sentBps: 9892320 }]);
  assert.equal(r.sender.window, 8);
  assert.equal(r.sender.repairsPerS, 10);
  assert.equal(r.sender.goodputBps, 36276912);
  assert.deepEqual(r.receiver.paths, [{ path: 1, rateBps: 27985792 }, { path: 2, rateBps: 9306240 }]);
  assert.equal(r.receiver.stalePerS, 2);
  const senderOnly = monitorSessions([{ ...coded, rlnc: { ...coded.rlnc, receiver: null } }]).get("10.0.0.1>10.0.0.2").rlnc;
  assert.equal(senderOnly.receiver, null);
  assert.equal(monitorSessions(null).size, 0);
});

test("a session's pair is its hosts' addresses; the panel shows RLNC coding only when the monitor says so", () => {
  const th = (id, ip) => ({ id, tenantId: "t1", ip, mac: "00:00:00:00:00:01", location: { device: "device:leaf1", port: 1 } });
  const s = { ...snap([], [th("vm3", "10.0.0.1"), th("vm7", "10.0.0.2")]),
    sessions: [{ id: "t1/vm3-vm7", tenantId: "t1", srcHost: "vm3", dstHost: "vm7", source: "api" }, { id: "x", tenantId: "t1", srcHost: "vm3", dstHost: "gone" }] };
  assert.equal(sessionPair(s.sessions[0], s), "10.0.0.1>10.0.0.2");
  assert.equal(sessionPair(s.sessions[1], s), null);
  const coded = monitorSessions([kafkaDocExample("rlnc")]);
  const html = sessionDetails("t1/vm3-vm7", s, coded);
  assert.match(html, /RLNC coding/);
  assert.match(html, /<td>1<\/td><td>30.00 Mbit\/s<\/td><td>29.77 Mbit\/s \(99.2 %\)<\/td><td>27.99 Mbit\/s<\/td>/);
  assert.match(html, /repairs <b>10\/s<\/b>/);
  assert.match(html, /goodput <b>36.28 Mbit\/s<\/b>/);
  assert.match(html, /window <b>8<\/b>/);
  assert.doesNotMatch(sessionDetails("t1/vm3-vm7", s, monitorSessions([kafkaDocExample("ff.mon.sessions.v1")])), /RLNC/);
  assert.doesNotMatch(sessionDetails("t1/vm3-vm7", s, null), /RLNC/, "no monitor: no section");
});

test("sessions on a directed link and routing-group levels by metric", () => {
  const allocations = [{ sessionId: "s1", paths: [{ pathId: 1, rateBps: 5, devices: ["device:leaf1", "device:spine1", "device:leaf2"] }] }];
  assert.deepEqual(sessionsOnLink(allocations, "device:leaf1", "device:spine1").map((x) => x.sessionId), ["s1"]);
  assert.deepEqual(sessionsOnLink(allocations, "device:spine1", "device:leaf1"), []);
  const groups = [{ device: "device:leaf1", metric: "QUEUE_DEPTH", level: 1, ports: [3] }, { device: "device:leaf1", metric: "hop-delay", level: 0, ports: [3, 4] }];
  assert.deepEqual(groupLevels(groups, "device:leaf1", 3), { "queue-depth": 1, "hop-delay": 0 });
});

test("the monitor's records (docs/kafka.md examples) map onto /topology's ids", () => {
  const links = monitorLinks([{ schema: 1, link: "device:leaf1/3->device:spine1/1", capacity_bps: 100000000, active_sessions: 1,
    load_bps_shim: 26806400.0, load_bps_switch: 26880000.0, drops: 2 }, { link: "device:spine1/1->device:leaf1/3", load_bps_shim: 5e6, load_bps_switch: null }]);
  assert.deepEqual(links.get("device:leaf1/3-device:spine1/1"), { loadBps: 26880000, drops: 2, activeSessions: 1, capacityBps: 100000000, facks: null });
  assert.equal(links.get("device:spine1/1-device:leaf1/3").loadBps, 5e6, "the shims' load when no counter covered the link");
  const m = buildModel(snap([link("device:leaf1", 3, "device:spine1", 1), link("device:spine1", 1, "device:leaf1", 3)]), netcfg, links);
  assert.equal(m.links.find((l) => l.kind === "fabric").util, 0.2688);
  const tenants = monitorTenants([{ schema: 1, tenant: "t1", achieved_bps: 26806400.0, allocated_bps: 40000000, violated: false }]);
  assert.deepEqual(tenants.get("t1"), { achieved: 26806400, violated: false });
});

test("a switch's port counters come from the monitor's records of the links leaving and entering it", () => {
  const ports = monitorPorts([
    { link: "device:leaf1/3->device:spine1/1", load_bps_switch: 27200000.0, load_bps_shim: 27160000.0, drops: 2, qdepth: 4 },
    { link: "device:spine1/1->device:leaf1/3", load_bps_switch: null, load_bps_shim: 1000.0, drops: 0, qdepth: 0 },
    { link: "device:leaf1/1->h1", load_bps_switch: 5e6, drops: 0, qdepth: 1 },
  ]);
  assert.deepEqual(ports.get("device:leaf1"), [
    { port: 1, rxBps: null, txBps: 5e6, drops: 0, qdepth: 1, facks: null },
    { port: 3, rxBps: 1000.0, txBps: 27200000.0, drops: 2, qdepth: 4, facks: null },
  ]);
  assert.deepEqual(ports.get("device:spine1"), [{ port: 1, rxBps: 27200000.0, txBps: 1000.0, drops: 0, qdepth: 0, facks: null }]);
  assert.equal(ports.has("h1"), false);
});

test("a host link's load and utilisation come from the monitor's records of it, named by the host", () => {
  const links = monitorLinks([
    { link: "h1/0->device:leaf1/1", capacity_bps: 10000000, load_bps_switch: 2e6, drops: 0 },
    { link: "device:leaf1/1->h1/0", capacity_bps: 10000000, load_bps_switch: 5e6, drops: 1 },
  ]);
  const m = buildModel(snap([]), netcfg, links);
  const h1 = m.links.find((l) => l.kind === "host" && l.b === "host:h1");
  assert.equal(h1.util, 0.5);
  assert.deepEqual(h1.dirs.map((d) => [d.label, d.load, d.drops]), [["h1 → leaf1/1", 2e6, 0], ["leaf1/1 → h1", 5e6, 1]]);
  const h2 = m.links.find((l) => l.kind === "host" && l.b === "host:h2");
  assert.equal(h2.util, null, "no record: no load data");
});

test("with FACK on, the FACKs sent toward a host show on its link and on the leaf's port; off, nowhere", () => {
  const records = [
    { link: "h1/0->device:leaf1/1", capacity_bps: 10000000, load_bps_switch: 2e6, drops: 0 },
    { link: "device:leaf1/1->h1/0", capacity_bps: 10000000, load_bps_switch: 5e6, drops: 0, qdepth: 3, facks_decrease: 12, facks_increase: 30 },
  ];
  const m = buildModel(snap([]), netcfg, monitorLinks(records));
  const h1 = m.links.find((l) => l.kind === "host" && l.b === "host:h1");
  assert.deepEqual(h1.dirs.map((d) => d.facks), [null, { decrease: 12, increase: 30 }]);
  const html = linkDetails(h1, snap([]), true);
  assert.match(html, /FACKs − \/ \+/);
  assert.match(html, /<td>12 \/ 30<\/td>/);
  const ports = monitorPorts(records).get("device:leaf1");
  assert.deepEqual(ports[0].facks, { decrease: 12, increase: 30 });

  const off = records.map(({ facks_decrease, facks_increase, ...rest }) => rest);
  const h1off = buildModel(snap([]), netcfg, monitorLinks(off)).links.find((l) => l.kind === "host" && l.b === "host:h1");
  assert.doesNotMatch(linkDetails(h1off, snap([]), true), /FACK/);
});

test("a session's details say when its allocation is interim (the exact solve still running)", () => {
  const s = { sessions: [{ id: "s1", tenantId: "t", srcHost: "a", dstHost: "b" }],
    allocations: [{ sessionId: "s1", totalBps: 1e6, paths: [], computedAt: "2026-11-27T00:00:00Z", exact: false }] };
  assert.match(sessionDetails("s1", s), /interim/);
  s.allocations[0].exact = true;
  assert.doesNotMatch(sessionDetails("s1", s), /interim/);
});
