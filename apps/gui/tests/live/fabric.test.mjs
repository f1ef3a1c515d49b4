// The web GUI in Debian's chromium (playwright-core) against a live k=4 fat-tree of p4switch
// instances in Mininet with the embedded controller (mininet/fairfabric_mn/guifabric.py).
// Needs root (Mininet) and ./fairfabric setup; run by `./fairfabric test gui`.
// FF_GUI_SCREENSHOTS=DIR writes the screenshots there (docs/images for the docs), else to a temp dir.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const PYTHON = process.env.FF_VENV ? join(process.env.FF_VENV, "bin/python") : join(ROOT, ".venv/bin/python");
const SHOTS = process.env.FF_GUI_SCREENSHOTS ? resolve(ROOT, process.env.FF_GUI_SCREENSHOTS) : mkdtempSync(join(tmpdir(), "ff-gui-shots."));
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let fabric; // the guifabric process
let lines;  // its stdout, line by line
let info;   // {url, token, hosts, locations}
let context;
let page;
let profile;
const consoleErrors = [];

/** One command to the fabric process; resolves with its JSON answer. */
function command(obj) {
  fabric.stdin.write(JSON.stringify(obj) + "\n");
  return nextJson();
}

function nextJson() {
  return new Promise((ok, fail) => {
    const onLine = (l) => {
      if (!l.startsWith("{")) return; // Mininet's own output
      lines.off("line", onLine);
      const v = JSON.parse(l);
      if (v.error) fail(new Error(v.error)); else ok(v);
    };
    lines.on("line", onLine);
  });
}

async function rest(method, path, body) {
  const r = await fetch(info.url + "api/v1" + path, {
    method, headers: { Authorization: "Bearer " + info.token, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until check() is truthy; returns its value and the milliseconds it took. */
async function within(ms, what, check) {
  const t0 = Date.now();
  for (;;) {
    const v = await check();
    if (v) return { v, ms: Date.now() - t0 };
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

const linkState = (id) => page.getAttribute(`#a11y-links button[data-id="${id}"]`, "data-state");

before(async () => {
  // with a broker (./fairfabric test starts one, and a monitor instance for this suite) the controller
  // polls the switches' port counters and reads the monitor's view: links show measured loads
  const kafka = process.env.FAIRFABRIC_KAFKA ? ["--kafka", process.env.FAIRFABRIC_KAFKA] : [];
  fabric = spawn(PYTHON, ["-m", "fairfabric_mn.guifabric", ...kafka], { cwd: join(ROOT, "mininet"), stdio: ["pipe", "pipe", "inherit"] });
  lines = createInterface({ input: fabric.stdout });
  const exited = new Promise((_, fail) => fabric.on("exit", (c) => fail(new Error("the fabric process exited with " + c))));
  info = await Promise.race([nextJson(), exited]);
  profile = mkdtempSync(join(tmpdir(), "ff-gui-chromium."));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1600, height: 1000 },
  });
  page = context.pages()[0] || await context.newPage();
  page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  mkdirSync(SHOTS, { recursive: true });
}, { timeout: 300_000 });

after(async () => {
  if (context) await context.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (fabric && fabric.exitCode == null) {
    try { await Promise.race([command({ cmd: "quit" }), sleep(5000)]); } catch { /* already gone */ }
    fabric.stdin.end();
    await new Promise((r) => { fabric.on("exit", r); setTimeout(r, 60_000); });
  }
  console.log("screenshots in " + SHOTS);
});

test("the page loads live with every switch, host and link of the k=4 fat-tree and no console error", async () => {
  await page.goto(info.url);
  await page.waitForSelector("#conn.up", { timeout: 10_000 });
  const topo = await (await fetch(info.url + "api/v1/topology")).json();
  await within(5000, "16 hosts drawn", async () => (await page.locator("#a11y-hosts button").count()) === 16);
  const switches = await page.$$eval("#a11y-switches button", (bs) => bs.map((b) => b.dataset.id));
  assert.equal(switches.length, 20);
  assert.deepEqual(switches.sort(), topo.devices.map((d) => d.id).sort());
  const hosts = await page.$$eval("#a11y-hosts button", (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(hosts.sort(), Object.keys(info.hosts).sort());
  const links = await page.$$eval("#a11y-links button", (bs) => bs.map((b) => ({ id: b.dataset.id, label: b.getAttribute("aria-label") })));
  const fabricLinks = links.filter((l) => !l.id.includes("host:"));
  assert.equal(fabricLinks.length, 32, "k=4: 16 edge-aggregation and 16 aggregation-core links");
  assert.equal(links.length - fabricLinks.length, 16, "one link per host");
  for (const l of topo.links) {
    const a = `${l.src.device}/${l.src.port}`, b = `${l.dst.device}/${l.dst.port}`;
    const id = a < b ? `${a}-${b}` : `${b}-${a}`;
    assert.ok(fabricLinks.some((x) => x.id === id), "link " + id + " drawn");
  }
  assert.ok(links.every((l) => l.label && l.label.startsWith("link ")), "every link has an accessible name");
  const summary = await page.textContent("#summary");
  assert.match(summary, /fattree · 20 switches · 16 hosts · 32 fabric links/);
  assert.deepEqual(consoleErrors, []);
});

test("a tenant created over REST appears in the tenants panel within 2 s", async () => {
  const r = await rest("POST", "/tenants", { id: "blue", name: "Tenant blue", weight: 2, minBandwidthBps: 2_000_000 });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const { ms } = await within(2000, "tenant blue in the panel", () => page.locator('#tenant-table tr[data-tenant="blue"]').count());
  console.log(`tenant blue appeared ${ms} ms after the POST answered`);
});

test("a bad weight typed in the form is refused with the API's message and changes nothing", async () => {
  await page.fill("#token", info.token);
  await page.click("#token-form button");
  const tenantsBefore = await (await fetch(info.url + "api/v1/tenants")).json();
  const eventsBefore = await (await fetch(info.url + "api/v1/events?limit=1000")).json();
  await page.click("#tenant-editor summary");
  await page.fill('#tenant-form input[name="id"]', "red");
  await page.fill('#tenant-form input[name="name"]', "Tenant red");
  await page.fill('#tenant-form input[name="weight"]', "-1");
  await page.click('#tenant-form button[name="create"]');
  await page.waitForSelector("#action-result.error", { timeout: 5000 });
  const shown = await page.textContent("#action-result");
  const direct = await rest("POST", "/tenants", { id: "red", name: "Tenant red", weight: -1 });
  assert.equal(direct.status, 422);
  assert.ok(shown.includes(direct.body.message), `the page shows "${shown}", the API says "${direct.body.message}"`);
  assert.ok(shown.includes("422"));
  // editing blue with a weight that is not a number: the API's 400, blue keeps its weight
  await page.fill('#tenant-form input[name="id"]', "blue");
  await page.fill('#tenant-form input[name="weight"]', "heavy");
  await page.click('#tenant-form button[name="update"]');
  await within(5000, "the PATCH refusal", async () => (await page.textContent("#action-result")).includes("save tenant blue: refused"));
  const patched = await rest("PATCH", "/tenants/blue", { weight: "heavy", minBandwidthBps: null });
  assert.ok((await page.textContent("#action-result")).includes(patched.body.message));
  assert.deepEqual(await (await fetch(info.url + "api/v1/tenants")).json(), tenantsBefore);
  assert.deepEqual(await (await fetch(info.url + "api/v1/events?limit=1000")).json(), eventsBefore);
  assert.equal(await page.locator('#tenant-table tr[data-tenant="red"]').count(), 0);
  assert.equal(await page.textContent('#tenant-table tr[data-tenant="blue"] td.weight'), "2");
});

async function provision() {
  // blue: pod 0's hosts, red: pod 1's; one session each across the pods, and one inside pod 0
  assert.equal((await rest("POST", "/tenants", { id: "red", name: "Tenant red", weight: 1 })).status, 201);
  const names = Object.keys(info.hosts).sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));
  for (const [i, name] of names.entries()) {
    const tenant = i < 8 ? "blue" : "red";
    const mac = "00:00:" + info.hosts[name].split(".").map((o) => Number(o).toString(16).padStart(2, "0")).join(":");
    const r = await rest("POST", `/tenants/${tenant}/hosts`, { id: name, ip: info.hosts[name], mac, location: info.locations[name] });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }
  const sessions = [];
  for (const [src, dst] of [["fgh1", "fgh3"], ["fgh2", "fgh7"]]) {
    const r = await rest("POST", "/sessions", { srcHost: src, dstHost: dst });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    sessions.push(r.body.id);
  }
  // the third through the GUI's form
  await page.click("#tenant-editor summary"); // close the tenant form
  await page.click("#session-editor summary");
  await page.fill('#session-form input[name="srcHost"]', "fgh9");
  await page.fill('#session-form input[name="dstHost"]', "fgh15");
  await page.click("#session-form button");
  await within(5000, "the session added from the form", async () => (await page.textContent("#action-result")) === "add session fgh9 → fgh15: done");
  const third = (await (await fetch(info.url + "api/v1/sessions")).json()).find((x) => x.srcHost === "fgh9" && x.dstHost === "fgh15");
  assert.ok(third, "the form's session is in /sessions");
  sessions.push(third.id);
  await page.click("#session-editor summary");
  return sessions;
}

// The links' loads are the monitor's wire figures of one period each. fgh1 -> fgh3 is blue's
// session inside pod 0: its host shim spreads it over the session's pinned paths, one per uplink of
// fgedge00, which no other flow crosses; so the uplinks' drawn loads, summed, averaged over eight
// periods inside the flow, are within 5 % of iperf3's received rate on the wire: 1400-byte
// datagrams + 42 bytes of UDP, IPv4 and Ethernet headers + the path's 802.1Q tag (4) + the fabric
// header (20) on links between switches (docs/monitor.md, "Rules").
const WIRE_FACTOR = (1400 + 42 + 4 + 20) / 1400;
const FRAME_FACTOR = (1400 + 42) / 1400;
const EDGE = "device:fgedge00/";
const isEdgeUplink = (id) => id.includes(EDGE) && id.includes("device:fgagg");

test("under load: utilisation on the links (within 5 % of iperf3's rate), achieved rates, screenshots", async (t) => {
  const sessions = await provision();
  await within(15_000, "allocations for the sessions", async () =>
    (await (await fetch(info.url + "api/v1/allocations")).json()).length >= sessions.length);
  await command({ cmd: "iperf", src: "fgh1", dst: "fgh3", mbps: 8, seconds: 60, port: 5301 });
  await command({ cmd: "iperf", src: "fgh9", dst: "fgh15", mbps: 4, seconds: 60, port: 5302 });
  const t0 = Date.now();
  const readLoads = () => page.$$eval("#a11y-links button", (bs) => bs.map((b) => ({ id: b.dataset.id, util: b.dataset.util, load: Number(b.dataset.load) })));
  const uplinkSum = (ls) => ls.filter((x) => isEdgeUplink(x.id) && x.util !== "").reduce((a, x) => a + x.load, 0);
  let seen = [];
  // the monitor publishes a period's figures when it closes: period 1 s + grace 1.5 s, up to the
  // input lag (5 s) more while an input lags; on a loaded machine (load 65) later still
  await within(30_000, "fgedge00's uplinks drawn with the flow's load", async () => {
    seen = await readLoads();
    return uplinkSum(seen) > 0.9 * 8e6;
  }).catch((e) => {
    const up = seen.filter((x) => isEdgeUplink(x.id));
    throw new Error(`${e.message}; links with a measured load: ${seen.filter((x) => x.util !== "").length}, fgedge00's uplinks ${JSON.stringify(up)}`);
  });
  console.log(`loads drawn ${Date.now() - t0} ms after the flows were started`);
  // eight successive periods while the flow lasts (a new period changes the drawn values): a
  // counter reading late under load moves bytes from one period to the next, which the mean
  // over a longer window dilutes (seen: 7.736, 10.968, 7.862 Mbit/s for an 8.36 Mbit/s flow)
  const samples = [uplinkSum(seen)];
  await within(20_000, "eight periods of fgedge00's uplinks", async () => {
    const sum = uplinkSum(await readLoads());
    if (sum !== samples[samples.length - 1]) samples.push(sum);
    return samples.length >= 8;
  });
  // the tenants panel: blue's achieved rate, measured by the host shims (received, as the monitor sums it)
  const achievedCell = '#tenant-table tr[data-tenant="blue"] td.achieved';
  const { v: achievedText } = await within(20_000, "blue's achieved rate in the tenants panel", async () => {
    const text = await page.textContent(achievedCell);
    return text && text.endsWith("Mbit/s") && Number.parseFloat(text) > 4 ? text : null;
  });
  await page.screenshot({ path: join(SHOTS, "gui-fattree-load.png") });
  await page.click(`#session-list button[data-session="${sessions[0]}"]`);
  await page.waitForSelector('#details-body[data-kind="session"]');
  await page.screenshot({ path: join(SHOTS, "gui-session-paths.png") });
  // blue has a guarantee: its sending host fgh1 has an outbound AQ at its first hop, listed by
  // GET /aqs and shown in that switch's details
  const aqs = await (await fetch(info.url + "api/v1/aqs")).json();
  const aq = aqs.find((a) => a.host === "fgh1" && a.direction === "outbound");
  assert.ok(aq, `fgh1's outbound AQ in /aqs: ${JSON.stringify(aqs)}`);
  assert.equal(aq.tenantId, "blue");
  await page.focus(`#a11y-switches button[data-id="${aq.device}"]`);
  await page.keyboard.press("Enter");
  await page.waitForSelector('#details-body[data-kind="switch"]');
  const aqRows = await page.$$eval("#details-body table.aqs tr", (rs) => rs.map((r) => r.textContent));
  assert.ok(aqRows.some((r) => r.includes("fgh1") && r.includes("outbound") && r.includes(String(aq.aqId))),
    `fgh1's AQ ${aq.aqId} in ${aq.device}'s details: ${JSON.stringify(aqRows)}`);
  // its port counters, from the monitor's link records: the uplinks carrying blue's flow send
  const { v: counters } = await within(5000, `${aq.device}'s port counters`, async () => {
    const rows = await page.$$eval("#details-body table.counters tbody tr", (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
    return rows.some((r) => r[2].endsWith("Mbit/s")) ? rows : null;
  });
  console.log(`${aq.device}'s counters: ${JSON.stringify(counters)}`);
  await page.screenshot({ path: join(SHOTS, "gui-switch-aqs.png") });
  const result = await command({ cmd: "iperf-result", port: 5301 });
  await command({ cmd: "iperf-result", port: 5302 });
  console.log(`iperf3 fgh1 -> fgh3: ${(result.receivedBps / 1e6).toFixed(2)} Mbit/s received (${result.lostPercent} % lost)`);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const wire = result.receivedBps * WIRE_FACTOR;
  const frames = result.receivedBps * FRAME_FACTOR;
  console.log(`fgedge00's uplinks: ${(mean / 1e6).toFixed(3)} Mbit/s over ${samples.length} periods ` +
    `(${samples.map((x) => (x / 1e6).toFixed(3)).join(", ")}), iperf3's rate on the wire ${(wire / 1e6).toFixed(3)} Mbit/s`);
  assert.ok(Math.abs(mean - wire) <= 0.05 * wire, `uplink load ${mean} (${samples}) vs iperf3's rate on the wire ${wire}`);
  console.log(`tenant blue achieved ${achievedText} in the panel; iperf3 ${(result.receivedBps / 1e6).toFixed(2)} Mbit/s`);
  const achieved = Number.parseFloat(achievedText) * 1e6;
  assert.ok(Math.abs(achieved - frames) <= 0.1 * frames, `blue's achieved ${achievedText} vs iperf3's frames ${frames}`);
});

test("a link failed through the GUI turns failed within 2 s, traffic moves; restored it comes back", async () => {
  const id = "device:fgagg00/1-device:fgedge00/3";
  assert.equal(await linkState(id), "up");
  const before = await command({ cmd: "ping", src: "fgh1", dst: "fgh16", count: 5 });
  assert.equal(before.received, 5);
  // the canvas has no per-link target: select the link as a keyboard user does, from its accessible button
  await page.focus(`#a11y-links button[data-id="${id}"]`);
  await page.keyboard.press("Enter");
  await page.waitForSelector('#details-body[data-kind="link"]');
  const t0 = Date.now();
  await page.click('#details-body button[data-action="link-down"]');
  const { ms } = await within(2000, "the link drawn failed after the click", async () => (await linkState(id)) === "failed");
  console.log(`link ${id} drawn failed ${ms} ms after the click`);
  assert.equal(await page.getAttribute("#action-result", "class"), "ok", await page.textContent("#action-result"));
  await page.screenshot({ path: join(SHOTS, "gui-link-failed.png") });
  await sleep(1000);
  const during = await command({ cmd: "ping", src: "fgh1", dst: "fgh16", count: 10 });
  console.log(`ping fgh1 -> fgh16 with ${id} failed: ${during.received}/${during.sent}`);
  assert.ok(during.received >= 9, "traffic moves to the other uplink");
  const events = await (await fetch(info.url + "api/v1/events?limit=1000")).json();
  assert.ok(events.some((e) => e.type === "link.state" && e.detail.up === false), "the controller saw the failure");
  assert.ok(await page.locator('#log-list li[data-type="link.state"]').count() > 0, "the failure is in the event log");
  await page.click('#details-body button[data-action="link-up"]');
  await within(30_000, "the link drawn up again", async () => (await linkState(id)) === "up");
});

test("after a controller restart the page reconnects by itself and stays live", async () => {
  const errorsBefore = consoleErrors.length;
  await command({ cmd: "restart-controller" });
  await page.waitForSelector("#conn.up", { timeout: 15_000 });
  assert.equal((await rest("POST", "/tenants", { id: "green", name: "Tenant green", weight: 3 })).status, 201);
  await within(2000, "tenant green after the restart", () => page.locator('#tenant-table tr[data-tenant="green"]').count());
  assert.equal(await page.locator("#a11y-switches button").count(), 20);
  const newErrors = consoleErrors.slice(errorsBefore).filter((e) => !/ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|Failed to load resource|EventSource/.test(e));
  assert.deepEqual(newErrors, [], "only the connection errors of the restart");
});
