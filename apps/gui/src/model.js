// The graph the page draws, computed from a stream snapshot (the REST resources) and the network
// configuration: switches by tier, hosts, and undirected links with both directions' state.
// Pure functions: tested without a browser (tests/model.test.mjs).

const TIERS = {
  core: 0, spine: 0,
  aggregation: 1,
  edge: 2, leaf: 2,
};

/** The hosts of the network configuration: {name, ips, mac, device, port, shim}. */
export function configHosts(netcfg) {
  const out = [];
  for (const [key, h] of Object.entries((netcfg && netcfg.hosts) || {})) {
    const basic = h.basic || {};
    const loc = (basic.locations || [])[0];
    if (!loc) continue;
    const slash = loc.lastIndexOf("/");
    out.push({
      name: basic.name || key.split("/")[0],
      ips: basic.ips || [],
      mac: key.split("/")[0].toLowerCase(),
      device: loc.slice(0, slash),
      port: Number(loc.slice(slash + 1)),
      shim: Boolean(h.fairfabric && h.fairfabric.shim),
    });
  }
  return out;
}

function locKey(device, port) {
  return device + "/" + port;
}

/** A directed link's load: the monitor's figure for it when it has one, else /topology's. */
function loadOf(link, monitorLinks) {
  const m = monitorLinks && monitorLinks.get(link.id);
  if (m && m.loadBps != null) return { load: m.loadBps, drops: m.drops ?? null, activeSessions: m.activeSessions ?? null };
  return { load: link.loadBps, drops: null };
}

/**
 * Builds {switches, hosts, links, kind}:
 *  switches: {id, role, tier, available}
 *  hosts:    {id, label, device, port, ips, tenantHosts: [...], shim}
 *  links:    {id, a, b, ends:[loc, loc], dirs:[directed link...], failed, util, loadBps, capacityBps, kind}
 * monitorLinks: Map of directed link id -> {loadBps, drops} from the monitor's view, or null.
 * Loads count as measured when the monitor has link records or any link carries a load: without
 * a running monitor every /topology load is 0, which would paint an idle-looking fabric.
 */
export function buildModel(snapshot, netcfg, monitorLinks) {
  const topo = snapshot.topology;
  const roles = new Set(topo.devices.map((d) => d.role));
  const kind = roles.has("core") || roles.has("aggregation") ? "fattree" : roles.has("spine") ? "leafspine" : "other";
  const switches = topo.devices.map((d) => ({ id: d.id, role: d.role, tier: TIERS[d.role] ?? 1, available: d.available }));

  const hostsByLoc = new Map();
  for (const h of configHosts(netcfg)) {
    hostsByLoc.set(locKey(h.device, h.port), {
      id: "host:" + h.name, label: h.name, device: h.device, port: h.port, ips: h.ips, mac: h.mac, tenantHosts: [], shim: h.shim,
    });
  }
  for (const th of topo.hosts) {
    const k = locKey(th.location.device, th.location.port);
    let h = hostsByLoc.get(k);
    if (!h) {
      h = { id: "host:" + th.id, label: th.id, device: th.location.device, port: th.location.port, ips: [], mac: th.mac, tenantHosts: [], shim: false };
      hostsByLoc.set(k, h);
    }
    h.tenantHosts.push(th);
  }
  const hosts = [...hostsByLoc.values()];

  const pairs = new Map();
  for (const l of topo.links) {
    const ea = locKey(l.src.device, l.src.port);
    const eb = locKey(l.dst.device, l.dst.port);
    const key = ea < eb ? ea + "-" + eb : eb + "-" + ea;
    let p = pairs.get(key);
    if (!p) {
      const [first, second] = ea < eb ? [l.src, l.dst] : [l.dst, l.src];
      p = { id: key, a: first.device, b: second.device, ends: [first, second], dirs: [], kind: "fabric" };
      pairs.set(key, p);
    }
    p.dirs.push({ ...l, ...loadOf(l, monitorLinks) });
  }
  const links = [...pairs.values()];
  // the controller serves the monitor's view empty while no monitor runs: no records, no data
  const measured = (monitorLinks != null && monitorLinks.size > 0) || topo.links.some((l) => l.loadBps > 0);
  for (const p of links) {
    p.failed = p.dirs.some((d) => !d.up);
    p.capacityBps = Math.max(...p.dirs.map((d) => d.capacityBps));
    // a failed direction carries nothing: the monitor's last figure for it is history, not load
    for (const d of p.dirs) if (!d.up) d.load = null;
    p.loadBps = Math.max(0, ...p.dirs.map((d) => d.load || 0));
    p.util = measured && p.capacityBps > 0 ? p.loadBps / p.capacityBps : null;
  }
  for (const h of hosts) {
    const loc = locKey(h.device, h.port);
    // the monitor names a host link by the host's model id (the configuration's name, or the
    // tenant's host that claimed it): "h1/0->device:leaf1/1" and back
    const names = [...new Set([h.label, ...h.tenantHosts.map((t) => t.id)])];
    const dirs = [];
    for (const [from, to] of names.flatMap((n) => [[n + "/0", loc], [loc, n + "/0"]])) {
      const m = monitorLinks && monitorLinks.get(from + "-" + to);
      if (m && m.loadBps != null) {
        dirs.push({ id: from + "-" + to, label: [from, to].map((e) => e.replace("device:", "").replace(/\/0$/, "")).join(" → "),
          up: true, capacityBps: m.capacityBps, load: m.loadBps, drops: m.drops ?? null, facks: m.facks ?? null });
      }
    }
    const capacityBps = dirs.length ? Math.max(...dirs.map((d) => d.capacityBps || 0)) : null;
    const loadBps = dirs.length ? Math.max(0, ...dirs.map((d) => d.load || 0)) : null;
    links.push({
      id: loc + "-" + h.id, a: h.device, b: h.id, ends: [{ device: h.device, port: h.port }, { device: h.id, port: 0 }],
      dirs, kind: "host", failed: false, capacityBps, loadBps, util: capacityBps > 0 ? loadBps / capacityBps : null,
    });
  }
  return { kind, switches, hosts, links };
}

/**
 * Positions for a data-center fabric: one row per tier (core/spine on top, hosts at the bottom),
 * each row spread over the width in id order; hosts under their switch.
 */
export function layout(model, width, height = 700) {
  const rows = [[], [], []];
  for (const s of model.switches) rows[s.tier].push(s);
  const used = rows.filter((r) => r.length > 0);
  const pos = {};
  // rows fill the height the view has (the hosts' row and its labels below the last)
  const gapY = Math.max(90, Math.min(260, (height - 140) / Math.max(1, used.length)));
  used.forEach((row, i) => {
    row.sort((x, y) => x.id.localeCompare(y.id, "en", { numeric: true }));
    const step = width / row.length;
    row.forEach((s, j) => { pos[s.id] = { x: step * (j + 0.5), y: 60 + i * gapY }; });
  });
  const hostY = 60 + used.length * gapY - 30;
  const bySwitch = new Map();
  for (const h of model.hosts) {
    if (!bySwitch.has(h.device)) bySwitch.set(h.device, []);
    bySwitch.get(h.device).push(h);
  }
  const lowest = used.length ? used[used.length - 1] : [];
  const slot = lowest.length ? width / lowest.length : width;
  for (const [dev, hs] of bySwitch) {
    hs.sort((x, y) => x.port - y.port);
    const base = pos[dev] || { x: width / 2 };
    const spread = Math.min(slot * 0.8, 40 * hs.length);
    hs.forEach((h, i) => {
      const off = hs.length === 1 ? 0 : -spread / 2 + (spread * i) / (hs.length - 1);
      pos[h.id] = { x: base.x + off, y: hostY };
    });
  }
  return pos;
}

/** Sessions (by id) whose allocated paths cross the directed link from device a to device b. */
export function sessionsOnLink(allocations, a, b) {
  const out = [];
  for (const al of allocations) {
    for (const p of al.paths) {
      const d = p.devices || [];
      for (let i = 0; i + 1 < d.length; i++) {
        if (d[i] === a && d[i + 1] === b) out.push({ sessionId: al.sessionId, pathId: p.pathId, rateBps: p.rateBps });
      }
    }
  }
  return out;
}

const METRIC_NAMES = { QUEUE_DEPTH: "queue-depth", LINK_UTILIZATION: "link-utilisation", DELAY: "hop-delay" };

/** The contract's metric name (queue-depth, link-utilisation, hop-delay) of a metric as a controller reports it. */
export function metricName(m) {
  return METRIC_NAMES[m] || m;
}

/** The routing-group level of each metric that holds the port of the device. */
export function groupLevels(routingGroups, device, port) {
  const out = {};
  for (const g of routingGroups) {
    if (g.device === device && g.ports.includes(port)) out[metricName(g.metric)] = g.level;
  }
  return out;
}

/** FACKs sent over a link in the monitor's last period ({decrease, increase}), or null: FACK is off. */
function facksOf(l) {
  return l.facks_decrease == null ? null : { decrease: l.facks_decrease, increase: l.facks_increase ?? 0 };
}

/**
 * The monitor's link records (docs/kafka.md, ff.mon.links.v1) by /topology's link id: the
 * monitor writes "a->b", /topology "a-b". The switch counters' load when there is one, else the
 * shims'.
 */
export function monitorLinks(json) {
  const out = new Map();
  for (const l of Array.isArray(json) ? json : (json && json.links) || []) {
    const id = (l.link || l.id || "").replace("->", "-");
    if (!id) continue;
    out.set(id, { loadBps: l.load_bps_switch ?? l.load_bps_shim ?? l.loadBps ?? null, drops: l.drops ?? null,
      activeSessions: l.active_sessions ?? null, capacityBps: l.capacity_bps ?? null, facks: facksOf(l) });
  }
  return out;
}

/**
 * A switch's port counters as the monitor's link records give them, by device id: per port the
 * load it sends (the record of the link leaving it) and receives (the link entering it), the drops
 * and queue depth of its egress (the leaving link's) and, when FACK is on, the FACKs sent out of
 * it (the leaving link's), sorted by port.
 */
export function monitorPorts(json) {
  const out = new Map();
  const port = (end) => {
    const m = /^(device:[^/]+)\/(\d+)$/.exec(end || "");
    if (!m) return null;
    if (!out.has(m[1])) out.set(m[1], new Map());
    const ports = out.get(m[1]);
    const n = Number(m[2]);
    if (!ports.has(n)) ports.set(n, { port: n, rxBps: null, txBps: null, drops: null, qdepth: null, facks: null });
    return ports.get(n);
  };
  for (const l of Array.isArray(json) ? json : (json && json.links) || []) {
    const [from, to] = (l.link || "").split("->");
    const load = l.load_bps_switch ?? l.load_bps_shim ?? null;
    const tx = port(from);
    if (tx) Object.assign(tx, { txBps: load, drops: l.drops ?? null, qdepth: l.qdepth ?? null, facks: facksOf(l) });
    const rx = port(to);
    if (rx) rx.rxBps = load;
  }
  return new Map([...out].map(([d, ports]) => [d, [...ports.values()].sort((a, b) => a.port - b.port)]));
}

/** The monitor's tenant records (ff.mon.tenants.v1) by tenant id: {achieved, violated}. */
export function monitorTenants(json) {
  const out = new Map();
  for (const t of Array.isArray(json) ? json : (json && json.tenants) || []) {
    const id = t.tenant || t.id || t.tenantId;
    if (id) out.set(id, { achieved: t.achieved_bps ?? t.achievedBps ?? null, violated: t.violated ?? null });
  }
  return out;
}

/**
 * The monitor's session records (ff.mon.sessions.v1) by pair "src>dst": {state, rlnc}, rlnc null
 * unless the record says the session is RLNC-coded (docs/kafka.md, "The `rlnc` object"); then
 * {session, sender, receiver}, each end null while it does not report:
 *  sender:   {window, paths: [{path, allocatedBps, sentBps}], sentBps, allocatedBps, repairsPerS, newPerS,
 *             goodputBps, inFlight, srttMs, rtoMs, tsMs}
 *  receiver: {paths: [{path, rateBps}], innovativePerS, dependentPerS, stalePerS, goodputBps, tsMs}
 */
export function monitorSessions(json) {
  const out = new Map();
  for (const s of Array.isArray(json) ? json : (json && json.sessions) || []) {
    if (!s || !s.src || !s.dst) continue;
    const r = s.transport === "rlnc" && s.rlnc ? s.rlnc : null;
    out.set(s.src + ">" + s.dst, { state: s.state ?? null, rlnc: r && {
      session: r.session ?? null,
      sender: r.sender ? {
        window: r.sender.window ?? null,
        paths: (r.sender.paths || []).map((p) => ({ path: p.path, allocatedBps: p.allocated_bps ?? null, sentBps: p.sent_bps ?? null })),
        sentBps: r.sender.sent_bps ?? null, allocatedBps: r.sender.allocated_bps ?? null,
        repairsPerS: r.sender.repairs_per_s ?? null, newPerS: r.sender.new_per_s ?? null,
        goodputBps: r.sender.goodput_bps ?? null, inFlight: r.sender.in_flight ?? null,
        srttMs: r.sender.srtt_ms ?? null, rtoMs: r.sender.rto_ms ?? null, tsMs: r.sender.ts_ms ?? null,
      } : null,
      receiver: r.receiver ? {
        paths: (r.receiver.paths || []).map((p) => ({ path: p.path, rateBps: p.rate_bps ?? null })),
        innovativePerS: r.receiver.innovative_per_s ?? null, dependentPerS: r.receiver.dependent_per_s ?? null,
        stalePerS: r.receiver.stale_per_s ?? null, goodputBps: r.receiver.goodput_bps ?? null, tsMs: r.receiver.ts_ms ?? null,
      } : null,
    } });
  }
  return out;
}

/**
 * The pair "src>dst" the monitor keys a snapshot session by: the addresses of its hosts (the
 * tenants' hosts in the snapshot's topology); null when a host is unknown or has no address.
 */
export function sessionPair(session, snapshot) {
  const hosts = (snapshot && snapshot.topology && snapshot.topology.hosts) || [];
  const ip = (id) => (hosts.find((h) => h.id === id) || {}).ip;
  const src = ip(session.srcHost);
  const dst = ip(session.dstHost);
  return src && dst ? src + ">" + dst : null;
}
