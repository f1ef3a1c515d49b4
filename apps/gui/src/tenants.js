// The tenants panel: weight, guarantee, allocated vs achieved with a 60 s sparkline; a tenant whose
// allocation or measured rate is below its guarantee is highlighted as a violation.
import { bps, esc } from "./format.js";
import { sparkline } from "./sparkline.js";

const PALETTE = ["#1e88e5", "#e53935", "#43a047", "#8e24aa", "#fb8c00", "#00897b", "#6d4c41", "#3949ab"];

export class TenantsPanel {
  constructor(tbody, onEdit, onDelete) {
    this.tbody = tbody;
    this.onEdit = onEdit;
    this.onDelete = onDelete;
    this.history = new Map(); // tenant id -> [{t, allocated, achieved}]
    this.colours = new Map();
    this.violations = new Set();
  }

  colour(id) {
    if (!this.colours.has(id)) this.colours.set(id, PALETTE[this.colours.size % PALETTE.length]);
    return this.colours.get(id);
  }

  /** achieved: Map tenant id -> {achieved (bit/s), violated} from the monitor, or null when there is none. */
  update(tenants, allocations, achieved, now) {
    const allocatedBy = new Map();
    for (const a of allocations) allocatedBy.set(a.tenantId, (allocatedBy.get(a.tenantId) || 0) + a.totalBps);
    const rows = [];
    const violations = new Set();
    for (const t of tenants) {
      const allocated = allocatedBy.get(t.id) || 0;
      const measured = achieved ? achieved.get(t.id) ?? null : null;
      const ach = measured ? measured.achieved : null;
      const h = this.history.get(t.id) || [];
      h.push({ t: now, allocated, achieved: ach });
      while (h.length && now - h[0].t > 60000) h.shift();
      this.history.set(t.id, h);
      const g = t.minBandwidthBps;
      const hasSessions = allocatedBy.has(t.id);
      // the monitor's judgement when it has one (it knows the demand and holds a violation for a
      // while); else: allocated below the guarantee, or measured below 95 % of it
      const violated = measured && measured.violated != null ? measured.violated
        : g != null && hasSessions && (allocated + 1 < g || (ach != null && ach < 0.95 * g));
      if (violated) violations.add(t.id);
      const tr = document.createElement("tr");
      tr.dataset.tenant = t.id;
      tr.className = violated ? "violation" : "";
      tr.innerHTML = `<th scope="row"><i class="dot" style="background:${this.colour(t.id)}"></i>${esc(t.id)}<small>${esc(t.name)}</small></th>`
        + `<td class="weight">${t.weight}</td><td>${g == null ? "—" : bps(g)}</td>`
        + `<td>${hasSessions ? bps(allocated) : "—"}</td><td class="achieved">${ach == null ? "—" : bps(ach)}</td><td class="spark"></td>`
        + `<td class="actions"><button type="button" class="edit" aria-label="edit tenant ${esc(t.id)}">edit</button>`
        + `<button type="button" class="delete" aria-label="delete tenant ${esc(t.id)}">delete</button></td>`;
      if (violated) tr.title = "below its guarantee of " + bps(g);
      tr.querySelector(".spark").append(sparkline(h, g, now));
      tr.querySelector(".edit").addEventListener("click", () => this.onEdit(t));
      tr.querySelector(".delete").addEventListener("click", () => this.onDelete(t));
      rows.push(tr);
    }
    this.tbody.replaceChildren(...rows);
    for (const id of [...this.history.keys()]) if (!tenants.some((t) => t.id === id)) this.history.delete(id);
    const fresh = [...violations].filter((id) => !this.violations.has(id));
    this.violations = violations;
    return fresh;
  }
}
