// A 60 s sparkline (inline SVG) of allocated and achieved rates, with the guarantee as a line.
const NS = "http://www.w3.org/2000/svg";

export function sparkline(samples, guaranteeBps, now, windowMs = 60000) {
  const w = 120, h = 28;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("width", w);
  svg.setAttribute("height", h);
  svg.setAttribute("role", "img");
  const pts = samples.filter((s) => now - s.t <= windowMs);
  const top = Math.max(1, guaranteeBps || 0, ...pts.map((s) => Math.max(s.allocated || 0, s.achieved || 0))) * 1.1;
  const x = (t) => w - ((now - t) / windowMs) * w;
  const y = (v) => h - (v / top) * h;
  const line = (key, colour) => {
    const p = pts.filter((s) => s[key] != null).map((s) => x(s.t).toFixed(1) + "," + y(s[key]).toFixed(1));
    if (p.length < 2) return;
    const el = document.createElementNS(NS, "polyline");
    el.setAttribute("points", p.join(" "));
    el.setAttribute("fill", "none");
    el.setAttribute("stroke", colour);
    el.setAttribute("stroke-width", "1.5");
    svg.append(el);
  };
  if (guaranteeBps) {
    const g = document.createElementNS(NS, "line");
    g.setAttribute("x1", 0); g.setAttribute("x2", w);
    g.setAttribute("y1", y(guaranteeBps)); g.setAttribute("y2", y(guaranteeBps));
    g.setAttribute("stroke", "#c62828"); g.setAttribute("stroke-dasharray", "3 2");
    svg.append(g);
  }
  line("allocated", "#1565c0");
  line("achieved", "#2e7d32");
  const last = pts[pts.length - 1];
  svg.setAttribute("aria-label", "last 60 s: allocated (blue) " + (last ? Math.round(last.allocated / 1e6) + " Mbit/s" : "none")
    + (last && last.achieved != null ? ", achieved (green) " + Math.round(last.achieved / 1e6) + " Mbit/s" : ""));
  return svg;
}
