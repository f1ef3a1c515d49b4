// The live feed: Server-Sent Events from GET /api/v1/stream. The browser reconnects by itself
// after a drop; a feed silent for 3 s (the server beats every second) is opened again, which also
// covers a controller that restarted while the connection looked open.
const SILENT_MS = 3000;

export class LiveStream {
  constructor(url, handlers) {
    this.url = url;
    this.h = handlers;
    this.last = 0;
    this.open();
    setInterval(() => {
      if (Date.now() - this.last > SILENT_MS) {
        this.h.status(false);
        if (this.es.readyState !== EventSource.CONNECTING || Date.now() - this.last > 3 * SILENT_MS) this.reopen();
      }
    }, 1000);
  }

  open() {
    this.last = Date.now();
    const es = new EventSource(this.url);
    this.es = es;
    es.addEventListener("hello", (m) => { this.last = Date.now(); this.h.hello(JSON.parse(m.data)); });
    es.addEventListener("snapshot", (m) => { this.last = Date.now(); this.h.status(true); this.h.snapshot(JSON.parse(m.data)); });
    es.addEventListener("event", (m) => { this.last = Date.now(); this.h.event(JSON.parse(m.data)); });
    es.onerror = () => this.h.status(false);
  }

  reopen() {
    this.es.close();
    this.open();
  }
}
