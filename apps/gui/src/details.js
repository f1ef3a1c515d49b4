// The selection panel: what the controller knows about one link, switch, host or session.
import { bps, esc, percent, shortId } from "./format.js";
import { groupLevels, metricName, sessionPair, sessionsOnLink } from "./model.js";

const METRICS = ["queue-depth", "link-utilisation", "hop-delay"];

function table(head, rows, cls = "") {
  return `<table${cls ? ` class="${cls}"` : ""}><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>`
    + rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("") + "</tbody></table>";
}

function sessionLink(id) {
  return `<button type="button" class="link-like" data-session="${esc(id)}">${esc(id)}</button>`;
}

// FACKs (P4TE) sent in the monitor's last period, as "decreases / increases"; shown only when FACK is on
const FACK_HEAD = "FACKs − / +";
const FACK_HINT = `<p class="hint">FACK (P4TE rate control) is on: ${FACK_HEAD} counts the fake ACKs the leaf sent toward the host`
  + " in the monitor's last period, with a reduced / increased window.</p>";

function facks(f) {
  return f == null ? "—" : f.decrease + " / " + f.increase;
}

export function linkDetails(l, snap, monitorOn) {
  if (l.kind === "host") {
    const fack = l.dirs.some((d) => d.facks != null);
    return `<h3>Host link</h3><p>${esc(shortId(l.a))} port ${l.ends[0].port} — ${esc(l.b.slice(5))}</p>`
      + (l.dirs.length
        ? table(["direction", "capacity", "load", "drops", ...(fack ? [FACK_HEAD] : [])], l.dirs.map((d) => [esc(d.label), bps(d.capacityBps),
          bps(d.load) + " (" + percent(d.load / d.capacityBps) + ")", d.drops == null ? "—" : String(d.drops),
          ...(fack ? [facks(d.facks)] : [])]))
          + (fack ? FACK_HINT : "")
        : `<p class="hint">no load data: host links' loads come from the central monitor (GET /api/v1/monitor/links)</p>`);
  }
  const rows = l.dirs.map((d) => {
    const on = sessionsOnLink(snap.allocations, d.src.device, d.dst.device);
    const lv = groupLevels(snap.routingGroups, d.src.device, d.src.port);
    return [
      esc(shortId(d.src.device) + "/" + d.src.port + " → " + shortId(d.dst.device) + "/" + d.dst.port),
      d.up ? "up" : "<b class=\"bad\">failed</b>",
      bps(d.capacityBps),
      l.util == null ? "no data" : bps(d.load) + " (" + percent(d.load / d.capacityBps) + ")",
      // n_e: the monitor's count of active sessions when it has one, else the allocated sessions' paths
      ((ids) => String(d.activeSessions ?? ids.length) + (ids.length ? " (" + ids.map(sessionLink).join(" ") + ")" : ""))(
        [...new Set(on.map((s) => s.sessionId))]),
      d.drops == null ? (monitorOn ? "0" : "—") : String(d.drops),
      METRICS.map((m) => (lv[m] == null ? "—" : "L" + lv[m])).join(" / "),
    ];
  });
  return `<h3>Link ${esc(l.id)}</h3>`
    + table(["direction", "state", "capacity", "load", "n_e (sessions)", "drops", "group level q / u / d"], rows)
    + `<p class="actions"><button type="button" data-action="link-down" data-device="${esc(l.ends[0].device)}" data-port="${l.ends[0].port}">Fail link</button>`
    + ` <button type="button" data-action="link-up" data-device="${esc(l.ends[0].device)}" data-port="${l.ends[0].port}">Restore link</button>`
    + ` <small>(emulated fabric only)</small></p>`
    + (monitorOn ? "" : `<p class="hint">Loads and drops come from the central monitor (GET /api/v1/monitor/links), which has no records: is it running (./fairfabric monitor)?</p>`);
}

export function switchDetails(s, snap, monitorPorts) {
  const dev = snap.topology.devices.find((d) => d.id === s.id) || {};
  const groups = snap.routingGroups.filter((g) => g.device === s.id)
    .sort((a, b) => a.metric.localeCompare(b.metric) || a.level - b.level);
  const out = [`<h3>Switch ${esc(shortId(s.id))}</h3>`,
    `<p>${esc(s.role)} · ${dev.available ? "connected" : "<b class=\"bad\">unavailable</b>"} · <code>${esc(dev.managementAddress || "")}</code></p>`,
    "<h4>Routing groups (P4TE)</h4>",
    groups.length ? table(["metric", "level", "ports"], groups.map((g) => [esc(metricName(g.metric)), "L" + g.level, esc(g.ports.join(", "))]))
      : `<p class="hint">none (the switch has no uplinks, or the P4TE loop has not reported)</p>`,
    "<h4>AQ entries</h4>"];
  const aqs = (snap.aqs || []).filter((a) => a.device === s.id)
    .sort((a, b) => a.port - b.port || a.pipeline.localeCompare(b.pipeline));
  out.push(aqs.length
    ? table(["port", "pipeline", "tenant", "host", "direction", "AQ id", "rate", "limit"],
      aqs.map((a) => [a.port, esc(a.pipeline), esc(a.tenantId), esc(a.host), esc(a.direction), String(a.aqId), bps(a.rateBps),
        Math.round(a.limitBytes / 1000) + " kB"]), "aqs")
    : `<p class="hint">none (AQs are placed for the hosts of tenants with a guarantee)</p>`);
  out.push("<h4>Counters</h4>");
  const ports = monitorPorts && monitorPorts.get(s.id);
  const fack = ports && ports.some((p) => p.facks != null);
  out.push(ports ? table(["port", "received", "sent", "drops", "queue (packets)", ...(fack ? [FACK_HEAD] : [])], ports.map((p) => [p.port,
    p.rxBps == null ? "—" : bps(p.rxBps), p.txBps == null ? "—" : bps(p.txBps), p.drops ?? "—", p.qdepth ?? "—",
    ...(fack ? [facks(p.facks)] : [])]), "counters")
    + `<p class="hint">The monitor's last period of the links that leave each port (sent, drops, queue) and enter it (received).</p>`
    + (fack ? FACK_HINT : "")
    : `<p class="hint">no port counters: they come from the central monitor, which has no records</p>`);
  return out.join("");
}

export function hostDetails(h, snap) {
  const ids = new Set(h.tenantHosts.map((t) => t.id));
  const sessions = snap.sessions.filter((s) => ids.has(s.srcHost) || ids.has(s.dstHost));
  return `<h3>Host ${esc(h.label)}</h3>`
    + `<p>${esc(h.ips.join(", "))} · ${esc(h.mac || "")} · on ${esc(shortId(h.device))} port ${h.port}</p>`
    + `<p>host shim: <b>${h.shim ? "runs here" : "not running (AQs at the first switch enforce the rates)"}</b></p>`
    + "<h4>VMs (tenants' hosts here)</h4>"
    + (h.tenantHosts.length ? table(["id", "tenant", "ip"], h.tenantHosts.map((t) => [esc(t.id), esc(t.tenantId), esc(t.ip)])) : `<p class="hint">none provisioned</p>`)
    + "<h4>Sessions</h4>"
    + (sessions.length ? table(["session", "from", "to"], sessions.map((s) => [sessionLink(s.id), esc(s.srcHost), esc(s.dstHost)])) : `<p class="hint">none</p>`);
}

/** monitorSessions: the monitor's session records by pair (model.js), or null without them. */
export function sessionDetails(id, snap, monitorSessions) {
  const s = snap.sessions.find((x) => x.id === id);
  if (!s) return `<p class="hint">session ${esc(id)} is gone</p>`;
  const a = snap.allocations.find((x) => x.sessionId === id);
  const pair = sessionPair(s, snap);
  const m = pair && monitorSessions ? monitorSessions.get(pair) : null;
  return `<h3>Session ${esc(id)}</h3><p>${esc(s.tenantId)}: ${esc(s.srcHost)} → ${esc(s.dstHost)}`
    + (s.demandBps != null ? ` · demand ${bps(s.demandBps)}` : "") + ` · ${esc(s.source || "")}</p>`
    + (a ? `<p>allocated <b>${bps(a.totalBps)}</b> (round ${esc(a.computedAt || "")}${a.exact === false ? ", interim: the exact solve is running" : ""})</p>`
      + table(["path", "rate", "switches"], a.paths.map((p) => [String(p.pathId), bps(p.rateBps), esc((p.devices || []).map(shortId).join(" → "))]))
      : `<p class="hint">no allocation yet</p>`)
    + (m && m.rlnc ? rlncDetails(m.rlnc) : "")
    + `<p class="actions"><button type="button" data-action="session-delete" data-session="${esc(id)}">Forget session</button></p>`;
}

function perSecond(v) {
  return v == null ? "—" : (v >= 100 ? Math.round(v) : Number(v.toFixed(1))) + "/s";
}

/** The monitor's figures of an RLNC-coded session (docs/rlnc.md): its ends' latest periods. */
function rlncDetails(r) {
  const snd = r.sender;
  const rcv = r.receiver;
  const received = new Map(((rcv && rcv.paths) || []).map((p) => [p.path, p.rateBps]));
  const ids = [...new Set([...((snd && snd.paths) || []).map((p) => p.path), ...received.keys()])].sort((x, y) => x - y);
  const sent = new Map(((snd && snd.paths) || []).map((p) => [p.path, p]));
  const rows = ids.map((id) => {
    const p = sent.get(id);
    return [String(id), p ? bps(p.allocatedBps) : "—",
      p ? bps(p.sentBps) + (p.allocatedBps ? " (" + percent(p.sentBps / p.allocatedBps) + ")" : "") : "—",
      received.has(id) ? bps(received.get(id)) : "—"];
  });
  const facts = [];
  if (snd) {
    facts.push(`window <b>${snd.window ?? "—"}</b> packets`, `repairs <b>${perSecond(snd.repairsPerS)}</b>`,
      `goodput <b>${bps(snd.goodputBps)}</b> (decoded, by the sender's acks)`, `in flight ${snd.inFlight ?? "—"} packets`,
      `srtt ${snd.srttMs ?? "—"} ms · RTO ${snd.rtoMs ?? "—"} ms`);
  }
  if (rcv) {
    facts.push(`received goodput <b>${bps(rcv.goodputBps)}</b>`,
      `innovative ${perSecond(rcv.innovativePerS)} · dependent ${perSecond(rcv.dependentPerS)} · stale ${perSecond(rcv.stalePerS)}`);
  }
  return `<h4>RLNC coding</h4>`
    + (rows.length ? table(["path", "allocated", "sent", "received"], rows, "rlnc") : "")
    + `<ul class="rlnc-facts">${facts.map((f) => `<li>${f}</li>`).join("")}</ul>`
    + (snd ? "" : `<p class="hint">the sender does not report (rlnc send without -kafka)</p>`)
    + (rcv ? "" : `<p class="hint">the receiver does not report (rlnc recv -kafka gives received rates and goodput)</p>`);
}
