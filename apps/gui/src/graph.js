// The topology drawn with Cytoscape.js: tiers as rows, links coloured by utilisation, failed links
// red and dashed with their ports marked, and a hidden list that gives every element its
// accessible name (the canvas has none).
import cytoscape from "cytoscape";
import { BAND_COLOURS, bps, esc, percent, shortId, utilBand } from "./format.js";
import { layout } from "./model.js";

const TIER_COLOURS = ["#37474f", "#455a64", "#546e7a"];

const STYLE = [
  { selector: "node", style: { label: "data(label)", "font-size": 11, "text-valign": "bottom", "text-margin-y": 3, color: "#212121" } },
  { selector: "node.switch", style: { shape: "round-rectangle", width: 62, height: 22, "background-color": "data(colour)",
      "text-valign": "center", "text-margin-y": 0, color: "#fff", "font-size": 10 } },
  { selector: "node.switch.down", style: { "background-color": "#bdbdbd", "border-width": 2, "border-color": "#b71c1c", "border-style": "dashed" } },
  { selector: "node.host", style: { shape: "ellipse", width: 14, height: 14, "background-color": "#78909c", "font-size": 10 } },
  { selector: "node.host.tenant", style: { "background-color": "data(colour)" } },
  { selector: "edge", style: { width: 3, "line-color": "data(colour)", "curve-style": "straight",
      "source-label": "data(srcPort)", "target-label": "data(dstPort)", "source-text-offset": 14, "target-text-offset": 14,
      "font-size": 8, color: "#616161", "text-background-color": "#fff", "text-background-opacity": 0.8 } },
  { selector: "edge.host", style: { width: 1.5, "line-color": "data(colour)", "source-label": "", "target-label": "" } },
  { selector: "edge.failed", style: { "line-color": BAND_COLOURS.failed, "line-style": "dashed", width: 4, color: "#b71c1c",
      "font-weight": "bold", label: "✕ failed", "font-size": 10, "text-background-opacity": 1 } },
  { selector: "edge.path", style: { width: 7, "line-color": "#1565c0", label: "data(pathLabel)", "font-size": 10, color: "#0d47a1",
      "text-rotation": "autorotate",
      "text-background-opacity": 1, "z-index": 10 } },
  { selector: ":selected", style: { "overlay-color": "#1565c0", "overlay-opacity": 0.25, "overlay-padding": 6 } },
];

export class TopologyGraph {
  constructor(container, a11y, tooltip, onSelect) {
    this.container = container;
    this.a11y = a11y;
    this.tooltip = tooltip;
    this.onSelect = onSelect;
    this.structure = "";
    this.model = null;
    this.cy = cytoscape({ container, style: STYLE, wheelSensitivity: 0.3, boxSelectionEnabled: false, autoungrabify: true });
    this.cy.on("tap", "node, edge", (e) => onSelect({ kind: e.target.data("kind"), id: e.target.id() }));
    this.cy.on("tap", (e) => { if (e.target === this.cy) onSelect(null); });
    this.cy.on("mouseover", "edge", (e) => this.showTip(e.target.id(), e.renderedPosition));
    this.cy.on("mouseout", "edge", () => { this.tooltip.hidden = true; });
    new ResizeObserver(() => { this.cy.resize(); this.cy.fit(undefined, 20); }).observe(container);
  }

  /** Redraws from a model (buildModel); the structure is laid out again only when it changed. */
  update(model, tenantColours) {
    this.model = model;
    const structure = model.switches.map((s) => s.id).join() + "|" + model.hosts.map((h) => h.id).join() + "|" + model.links.map((l) => l.id).join();
    const cy = this.cy;
    cy.batch(() => {
      if (structure !== this.structure) {
        cy.elements().remove();
        const box = this.container.getBoundingClientRect();
        const pos = layout(model, 1200, box.width > 0 ? (1200 * box.height) / box.width : 700);
        cy.add(model.switches.map((s) => ({ group: "nodes", data: { id: s.id, kind: "switch", label: shortId(s.id) }, position: pos[s.id], classes: "switch" })));
        cy.add(model.hosts.map((h) => ({ group: "nodes", data: { id: h.id, kind: "host", label: h.label }, position: pos[h.id], classes: "host" })));
        cy.add(model.links.map((l) => ({ group: "edges", data: { id: l.id, kind: "link", source: l.a, target: l.b }, classes: l.kind === "host" ? "host" : "" })));
        this.structure = structure;
        this.buildA11y(model);
        cy.fit(undefined, 20);
      }
      for (const s of model.switches) {
        const n = cy.getElementById(s.id);
        n.data("colour", TIER_COLOURS[s.tier] || TIER_COLOURS[1]);
        n.toggleClass("down", !s.available);
      }
      for (const h of model.hosts) {
        const n = cy.getElementById(h.id);
        const tenant = h.tenantHosts.length ? h.tenantHosts[0].tenantId : null;
        n.toggleClass("tenant", tenant != null);
        n.data("colour", tenant ? tenantColours(tenant) : "#78909c");
      }
      for (const l of model.links) {
        const e = cy.getElementById(l.id);
        const band = l.failed ? "failed" : utilBand(l.util);
        e.data("colour", BAND_COLOURS[band]);
        e.data("srcPort", l.kind === "host" ? "" : (l.failed ? "✕" : "") + l.ends[0].port);
        e.data("dstPort", l.kind === "host" ? "" : (l.failed ? "✕" : "") + l.ends[1].port);
        e.toggleClass("failed", l.failed);
      }
    });
    this.updateA11y(model);
  }

  linkText(l) {
    if (l.kind === "host") {
      return "host link " + shortId(l.a) + " port " + l.ends[0].port + " to " + l.b.slice(5)
        + l.dirs.map((d) => "; " + d.label + ": " + bps(d.load) + " of " + bps(d.capacityBps) + " (" + percent(d.load / d.capacityBps) + ")").join("");
    }
    const dirs = l.dirs.map((d) => shortId(d.src.device) + "/" + d.src.port + " → " + shortId(d.dst.device) + "/" + d.dst.port + ": "
      + (!d.up ? "FAILED" : l.util == null ? "no load data" : bps(d.load) + " of " + bps(d.capacityBps) + " (" + percent(d.load / d.capacityBps) + ")"));
    return dirs.join("; ");
  }

  showTip(id, at) {
    const l = this.model && this.model.links.find((x) => x.id === id);
    if (!l) return;
    this.tooltip.innerHTML = esc(this.linkText(l)).replace(/; /g, "<br>");
    this.tooltip.style.left = at.x + 12 + "px";
    this.tooltip.style.top = at.y + 12 + "px";
    this.tooltip.hidden = false;
  }

  buildA11y(model) {
    const item = (kind, id, label) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.kind = kind;
      b.dataset.id = id;
      b.textContent = label;
      b.addEventListener("click", () => this.select({ kind, id }));
      li.append(b);
      return li;
    };
    this.a11y.switches.replaceChildren(...model.switches.map((s) => item("switch", s.id, shortId(s.id))));
    this.a11y.hosts.replaceChildren(...model.hosts.map((h) => item("host", h.id, h.label)));
    this.a11y.links.replaceChildren(...model.links.map((l) => item("link", l.id, l.id)));
  }

  updateA11y(model) {
    for (const s of model.switches) {
      const b = this.a11y.switches.querySelector(`[data-id="${CSS.escape(s.id)}"]`);
      if (b) { b.dataset.state = s.available ? "up" : "down"; b.setAttribute("aria-label", `switch ${shortId(s.id)} (${s.role}${s.available ? "" : ", unavailable"})`); }
    }
    for (const h of model.hosts) {
      const b = this.a11y.hosts.querySelector(`[data-id="${CSS.escape(h.id)}"]`);
      if (b) b.setAttribute("aria-label", `host ${h.label} on ${shortId(h.device)} port ${h.port}`);
    }
    for (const l of model.links) {
      const b = this.a11y.links.querySelector(`[data-id="${CSS.escape(l.id)}"]`);
      if (!b) continue;
      b.dataset.state = l.failed ? "failed" : "up";
      b.dataset.util = l.util == null ? "" : String(l.util);
      b.dataset.load = l.loadBps == null ? "" : String(l.loadBps);
      b.setAttribute("aria-label", `link ${l.id}: ${this.linkText(l)}`);
    }
  }

  select(sel) {
    this.cy.elements().unselect();
    if (sel && sel.kind !== "session") this.cy.getElementById(sel.id).select();
    this.onSelect(sel);
  }

  /** Highlights the paths of a session: [{pathId, rateBps, devices}] (null clears). */
  highlightPaths(paths) {
    const cy = this.cy;
    cy.edges().removeClass("path").data("pathLabel", "");
    if (!paths || !this.model) return;
    const byPair = new Map();
    for (const l of this.model.links) byPair.set([l.a, l.b].sort().join("|"), l.id);
    for (const p of paths) {
      const d = p.devices || [];
      for (let i = 0; i + 1 < d.length; i++) {
        const id = byPair.get([d[i], d[i + 1]].sort().join("|"));
        if (!id) continue;
        const e = cy.getElementById(id);
        const prev = e.data("pathLabel");
        e.addClass("path").data("pathLabel", (prev ? prev + ", " : "") + "p" + p.pathId + " " + bps(p.rateBps));
      }
    }
  }
}
