// Wires the page: the live stream feeds the model; the graph, the panels and the log redraw from it.
import { BASE, errorText, get, send, setToken, token } from "./api.js";
import { hostDetails, linkDetails, sessionDetails, switchDetails } from "./details.js";
import { EventLogView } from "./eventlog.js";
import { bps } from "./format.js";
import { TopologyGraph } from "./graph.js";
import { buildModel, monitorLinks, monitorPorts, monitorSessions, monitorTenants } from "./model.js";
import { LiveStream } from "./stream.js";
import { TenantsPanel } from "./tenants.js";

const $ = (s) => document.querySelector(s);
const state = { snap: null, netcfg: null, run: null, selection: null, model: null, monitor: { links: null, tenants: null, ports: null } };

const graph = new TopologyGraph($("#graph"), { switches: $("#a11y-switches"), hosts: $("#a11y-hosts"), links: $("#a11y-links") },
  $("#tooltip"), (sel) => select(sel));
const tenants = new TenantsPanel($("#tenant-table tbody"), editTenant, deleteTenant);
const log = new EventLogView($("#log-list"), $("#log-filter"), $("#log-kinds"));

function setStatus(live) {
  const c = $("#conn");
  c.textContent = live ? "live" : "reconnecting…";
  c.className = "conn " + (live ? "up" : "down");
}

async function loadNetcfg() {
  state.netcfg = await get("/network-config");
}

// The monitor's view (GET /api/v1/monitor/...): polled when this controller's OpenAPI document
// lists it (asked again on every new controller run), so a controller without it costs no
// failing requests.
let monitorPaths = { links: false, tenants: false };
async function discoverMonitor() {
  const doc = await get("/openapi.json");
  const paths = (doc && doc.paths) || {};
  monitorPaths = { links: BASE + "/monitor/links" in paths, tenants: BASE + "/monitor/tenants" in paths };
  monitorSessionsPath = BASE + "/monitor/sessions" in paths;
}

// The monitor's session records: an RLNC-coded session's figures in the session panel.
let monitorSessionsPath = false;
async function pollMonitorSessions() {
  const ms = monitorSessionsPath ? monitorSessions(await get("/monitor/sessions")) : null;
  state.monitorSessions = ms && ms.size ? ms : null;
}
setInterval(pollMonitorSessions, 1000);

async function pollMonitor() {
  if (!monitorPaths.links && !monitorPaths.tenants) {
    state.monitor = { links: null, tenants: null, ports: null };
    return;
  }
  const [links, tens] = await Promise.all([
    monitorPaths.links ? get("/monitor/links") : null, monitorPaths.tenants ? get("/monitor/tenants") : null]);
  const lm = monitorLinks(links);
  const tm = monitorTenants(tens);
  const pm = monitorPorts(links);
  state.monitor = { links: lm.size ? lm : null, tenants: tm.size ? tm : null, ports: pm.size ? pm : null };
}
setInterval(pollMonitor, 1000);

function redraw() {
  const snap = state.snap;
  if (!snap) return;
  state.model = buildModel(snap, state.netcfg, state.monitor.links);
  graph.update(state.model, (id) => tenants.colour(id));
  const fresh = tenants.update(snap.tenants, snap.allocations, state.monitor.tenants, Date.now());
  for (const id of fresh) {
    log.add({ run: "gui", seq: "v" + Date.now() + id, time: new Date().toISOString(), type: "violation", subject: id,
      detail: { guaranteeBps: snap.tenants.find((t) => t.id === id).minBandwidthBps } });
  }
  log.flush();
  const m = state.model;
  const failed = m.links.filter((l) => l.failed).length;
  $("#summary").textContent = `${m.kind} · ${m.switches.length} switches · ${m.hosts.length} hosts · `
    + `${m.links.filter((l) => l.kind === "fabric").length} fabric links${failed ? ` · ${failed} failed` : ""} · ${snap.tenants.length} tenants · ${snap.sessions.length} sessions`;
  renderSessions();
  renderDetails();
}

function renderSessions() {
  const items = state.snap.sessions.map((s) => {
    const a = state.snap.allocations.find((x) => x.sessionId === s.id);
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "link-like";
    b.dataset.session = s.id;
    b.textContent = `${s.id}: ${s.tenantId} ${s.srcHost} → ${s.dstHost}${a ? " · " + bps(a.totalBps) : ""}`;
    li.append(b);
    return li;
  });
  $("#session-list").replaceChildren(...items);
}

function select(sel) {
  state.selection = sel;
  renderDetails();
}

function renderDetails() {
  const sel = state.selection;
  const body = $("#details-body");
  const m = state.model;
  if (!sel || !m) {
    graph.highlightPaths(null);
    body.innerHTML = `<p class="hint">Click a switch, host, link or session.</p>`;
    return;
  }
  const monitorOn = state.monitor.links != null;
  let html = null;
  if (sel.kind === "link") { const l = m.links.find((x) => x.id === sel.id); if (l) html = linkDetails(l, state.snap, monitorOn); }
  if (sel.kind === "switch") { const s = m.switches.find((x) => x.id === sel.id); if (s) html = switchDetails(s, state.snap, state.monitor.ports); }
  if (sel.kind === "host") { const h = m.hosts.find((x) => x.id === sel.id); if (h) html = hostDetails(h, state.snap); }
  if (sel.kind === "session") html = sessionDetails(sel.id, state.snap, state.monitorSessions);
  body.dataset.kind = sel.kind;
  body.dataset.id = sel.id;
  body.innerHTML = html || `<p class="hint">${sel.id} is no longer in the fabric</p>`;
  const a = sel.kind === "session" && state.snap.allocations.find((x) => x.sessionId === sel.id);
  graph.highlightPaths(a ? a.paths : null);
}

// Clicks on session names and action buttons, wherever they are drawn.
document.addEventListener("click", async (e) => {
  const t = e.target.closest("button");
  if (!t) return;
  if (t.dataset.session && !t.dataset.action) { select({ kind: "session", id: t.dataset.session }); return; }
  if (t.dataset.action === "link-down" || t.dataset.action === "link-up") {
    const up = t.dataset.action === "link-up";
    act(`${up ? "restore" : "fail"} link at ${t.dataset.device} port ${t.dataset.port}`,
      () => send("POST", "/emulation/link-state", { device: t.dataset.device, port: Number(t.dataset.port), up }));
  }
  if (t.dataset.action === "session-delete") {
    act("forget session " + t.dataset.session, () => send("DELETE", "/sessions/" + encodeURIComponent(t.dataset.session)));
  }
});

async function act(what, call) {
  const out = $("#action-result");
  if (!token()) {
    out.className = "error";
    out.textContent = what + ": enter the API token first (top right)";
    return false;
  }
  const r = await call();
  out.className = r.ok ? "ok" : "error";
  out.textContent = r.ok ? what + ": done" : what + ": refused — " + errorText(r);
  return r.ok;
}

// Token: entered once, kept in sessionStorage (this tab only).
$("#token-form").addEventListener("submit", (e) => {
  e.preventDefault();
  setToken($("#token").value.trim());
  $("#token").value = "";
  $("#token-state").textContent = token() ? "token set for this tab" : "no token";
});
$("#token-state").textContent = token() ? "token set for this tab" : "no token";

// Numbers are sent as typed when they do not parse, so the API (not the page) judges them and
// its message is what the user sees.
function numberOrRaw(v) {
  const s = v.trim();
  if (s === "") return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : s;
}

function tenantBody(form, forCreate) {
  const f = form.elements;
  const body = {};
  if (forCreate) body.id = f.id.value.trim();
  if (f.name.value.trim() !== "" || forCreate) body.name = f.name.value.trim() || f.id.value.trim();
  const w = numberOrRaw(f.weight.value);
  if (w !== undefined) body.weight = w;
  const g = numberOrRaw(f.guarantee.value);
  if (g !== undefined) body.minBandwidthBps = typeof g === "number" ? Math.round(g * 1e6) : g;
  else if (!forCreate) body.minBandwidthBps = null;
  return body;
}

$("#tenant-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = e.target;
  await act("create tenant " + form.elements.id.value.trim(), () => send("POST", "/tenants", tenantBody(form, true)));
});
$("#tenant-form").elements.update.addEventListener("click", async () => {
  const form = $("#tenant-form");
  const id = form.elements.id.value.trim();
  await act("save tenant " + id, () => send("PATCH", "/tenants/" + encodeURIComponent(id), tenantBody(form, false)));
});

function editTenant(t) {
  const f = $("#tenant-form").elements;
  f.id.value = t.id;
  f.name.value = t.name;
  f.weight.value = t.weight;
  f.guarantee.value = t.minBandwidthBps == null ? "" : t.minBandwidthBps / 1e6;
  $("#tenant-editor").open = true;
}

async function deleteTenant(t) {
  if (!confirm(`Delete tenant ${t.id} with its hosts and sessions?`)) return;
  await act("delete tenant " + t.id, () => send("DELETE", "/tenants/" + encodeURIComponent(t.id)));
}

$("#session-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = e.target.elements;
  const body = { srcHost: f.srcHost.value.trim(), dstHost: f.dstHost.value.trim() };
  const d = numberOrRaw(f.demand.value);
  if (d !== undefined) body.demandBps = typeof d === "number" ? Math.round(d * 1e6) : d;
  await act(`add session ${body.srcHost} → ${body.dstHost}`, () => send("POST", "/sessions", body));
});

let logFlushQueued = false;
new LiveStream(BASE + "/stream", {
  hello: async (h) => {
    if (state.run !== h.run) {
      state.run = h.run;
      log.reset();
      await Promise.all([loadNetcfg(), discoverMonitor()]);
    }
  },
  snapshot: (s) => { state.snap = s; redraw(); },
  event: (e) => {
    log.add({ ...e, run: state.run });
    if (!logFlushQueued) {
      logFlushQueued = true;
      setTimeout(() => { logFlushQueued = false; log.flush(); }, 100);
    }
    if (e.type === "network-config.updated") loadNetcfg();
  },
  status: setStatus,
});
