// The live event log: newest first, filtered by kind (checkboxes) and free text.
import { esc } from "./format.js";

const MAX = 500;

export function kindOf(e) {
  if (e.type.startsWith("allocation")) return "allocation";
  if (e.type.startsWith("routing-group")) return "routing-group";
  if (e.type === "link.state" || e.type === "device.state" || e.type.startsWith("emulation") || e.type.startsWith("link.")) return "failure";
  if (e.type.includes("infeasible") || e.type.includes("violat")) return "violation";
  return "other";
}

export class EventLogView {
  constructor(list, filter, kinds) {
    this.list = list;
    this.filter = filter;
    this.kinds = kinds;
    this.events = [];
    this.seen = new Set();
    filter.addEventListener("input", () => this.render());
    kinds.addEventListener("change", () => this.render());
  }

  reset() {
    this.events = [];
    this.seen.clear();
    this.render();
  }

  add(e) {
    const key = e.run + "/" + e.seq;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.events.push(e);
    if (this.events.length > MAX) this.events.shift();
    this.pending = true;
  }

  flush() {
    if (this.pending) this.render();
    this.pending = false;
  }

  render() {
    const text = this.filter.value.trim().toLowerCase();
    const on = new Set([...this.kinds.querySelectorAll("input:checked")].map((c) => c.value));
    const items = [];
    for (let i = this.events.length - 1; i >= 0 && items.length < 200; i--) {
      const e = this.events[i];
      const kind = kindOf(e);
      const line = e.type + " " + e.subject + " " + JSON.stringify(e.detail);
      if (!on.has(kind) || (text && !line.toLowerCase().includes(text))) continue;
      const li = document.createElement("li");
      li.className = "ev " + kind;
      li.dataset.type = e.type;
      li.innerHTML = `<time>${esc((e.time || "").slice(11, 23))}</time> <b>${esc(e.type)}</b> ${esc(e.subject)} <code>${esc(JSON.stringify(e.detail))}</code>`;
      items.push(li);
    }
    this.list.replaceChildren(...items);
  }
}
