// Small formatting helpers shared by the panels.

export function bps(v) {
  if (v == null || Number.isNaN(v)) return "—";
  const a = Math.abs(v);
  if (a >= 1e9) return (v / 1e9).toFixed(2) + " Gbit/s";
  if (a >= 1e6) return (v / 1e6).toFixed(2) + " Mbit/s";
  if (a >= 1e3) return (v / 1e3).toFixed(1) + " kbit/s";
  return Math.round(v) + " bit/s";
}

export function percent(fraction) {
  if (fraction == null || Number.isNaN(fraction)) return "—";
  return (fraction * 100).toFixed(1) + " %";
}

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** The id without ONOS's "device:" prefix, as the graph shows it. */
export function shortId(id) {
  return id.startsWith("device:") ? id.slice("device:".length) : id;
}

/**
 * The colour band of a utilisation (0..1); null means no load data. Below 1 % a link is idle
 * (ARP, probes, telemetry), drawn apart from a link carrying a fifth of its capacity.
 */
export function utilBand(u) {
  if (u == null) return "nodata";
  if (u < 0.01) return "idle";
  if (u < 0.25) return "u0";
  if (u < 0.5) return "u1";
  if (u < 0.75) return "u2";
  if (u < 0.9) return "u3";
  return "u4";
}

export const BAND_COLOURS = {
  idle: "#c5e1a5", u0: "#2e7d32", u1: "#9e9d24", u2: "#f9a825", u3: "#ef6c00", u4: "#c62828", nodata: "#9e9e9e", failed: "#b71c1c",
};
