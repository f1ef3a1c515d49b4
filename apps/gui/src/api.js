// REST calls. The bearer token lives in sessionStorage: this tab only, gone when it closes.
const TOKEN_KEY = "fairfabric.token";
export const BASE = "/api/v1";

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) || "";
}

export function setToken(t) {
  if (t) sessionStorage.setItem(TOKEN_KEY, t);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** GET a resource; null when it is absent (404) or the controller is unreachable. */
export async function get(path) {
  try {
    const r = await fetch(BASE + path, { cache: "no-store" });
    if (!r.ok) return null;
    return await r.json();
  } catch {
    return null;
  }
}

/** A mutation with the token: {ok, status, body}; the API's error body names what is wrong. */
export async function send(method, path, body) {
  const headers = { Authorization: "Bearer " + token() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let r;
  try {
    r = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    return { ok: false, status: 0, body: { message: "the controller is unreachable: " + e.message } };
  }
  const text = await r.text();
  let parsed = null;
  try { parsed = text ? JSON.parse(text) : null; } catch { parsed = { message: text }; }
  return { ok: r.ok, status: r.status, body: parsed };
}

/** "422 weight: must be > 0" from an error reply. */
export function errorText(reply) {
  const b = reply.body || {};
  return (reply.status ? reply.status + " " : "") + (b.message || "request failed");
}
