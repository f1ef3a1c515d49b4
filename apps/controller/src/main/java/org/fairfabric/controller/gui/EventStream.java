package org.fairfabric.controller.gui;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.fairfabric.api.dto.EventDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.GuiSnapshot;
import org.fairfabric.api.service.NetworkView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/v1/stream}: Server-Sent Events for the web GUI.
 *
 * <p>On connect: {@code retry: 1000}, a {@code hello} event naming this controller run, the
 * events the client missed (after its {@code Last-Event-ID} when it is of this run, else the
 * last {@link #BACKLOG}) and a {@code snapshot}. Then every {@link #TICK_MS} ms the new events
 * (one {@code event} each, id {@code run/seq}) and a snapshot when it changed, at least once a
 * second (the GUI's sparklines and its liveness check count on that beat).
 */
public final class EventStream implements AutoCloseable {
    public static final String PATH = "/api/v1/stream";
    public static final int TICK_MS = 250;
    public static final int BEAT_MS = 1000;
    public static final int BACKLOG = 200;
    /** A client that has this much unsent is too slow: it is dropped (its browser reconnects). */
    static final int MAX_PENDING_BYTES = 8 << 20;
    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);

    private final FabricService fabric;
    private final NetworkView network;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final List<Client> clients = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "gui-stream");
        t.setDaemon(true);
        return t;
    });
    private long lastSeq;
    private String lastSnapshot = "";
    private long lastSnapshotMs;

    public EventStream(FabricService fabric, NetworkView network) {
        this.fabric = fabric;
        this.network = network;
        List<EventDto> all = eventsAfter(0);
        lastSeq = all.isEmpty() ? 0 : all.get(all.size() - 1).seq;
        ticker.scheduleWithFixedDelay(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    }

    public String runId() {
        return runId;
    }

    public int clientCount() {
        return clients.size();
    }

    /** What the GUI draws: the REST resources it needs, in one object. */
    String snapshot() {
        return GuiSnapshot.json(runId, fabric, network);
    }

    public void handle(Request request, Response response, Callback callback) {
        if (request.getMethod().equals("HEAD")) {
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
            response.write(true, ByteBuffer.allocate(0), callback);
            return;
        }
        if (!request.getMethod().equals("GET")) {
            response.setStatus(405);
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            response.write(true, utf8("{\"status\":405,\"field\":null,\"message\":\"" + request.getMethod()
                    + " is not allowed on " + PATH + "\"}"), callback);
            return;
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        Client c = new Client(response, callback);
        StringBuilder first = new StringBuilder("retry: 1000\n\n");
        first.append(frame("hello", null, Json.write(Map.of("run", runId))));
        synchronized (this) {
            long after = resumeAfter(request.getHeaders().get("Last-Event-ID"));
            List<EventDto> missed = eventsAfter(after);
            for (EventDto e : missed.subList(Math.max(0, missed.size() - BACKLOG), missed.size())) {
                first.append(eventFrame(e));
            }
            first.append(frame("snapshot", null, snapshot()));
            clients.add(c);
        }
        c.send(first.toString());
    }

    /** Every kept event after seq {@code after}, read page by page. */
    private List<EventDto> eventsAfter(long after) {
        List<EventDto> out = new java.util.ArrayList<>();
        while (true) {
            List<EventDto> page = fabric.events().since(after, EventLog.MAX_PAGE);
            out.addAll(page);
            if (page.size() < EventLog.MAX_PAGE) {
                return out;
            }
            after = page.get(page.size() - 1).seq;
        }
    }

    /** The seq after which a reconnecting client resumes: its last id when that is of this run. */
    private long resumeAfter(String lastEventId) {
        if (lastEventId == null || !lastEventId.startsWith(runId + "/")) {
            return 0;
        }
        try {
            long seq = Long.parseLong(lastEventId.substring(runId.length() + 1));
            return seq <= lastSeq ? seq : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private synchronized void tick() {
        try {
            StringBuilder out = new StringBuilder();
            for (EventDto e : eventsAfter(lastSeq)) {
                out.append(eventFrame(e));
                lastSeq = e.seq;
            }
            long now = System.currentTimeMillis();
            if (!clients.isEmpty()) {
                String snap = snapshot();
                if (!snap.equals(lastSnapshot) || now - lastSnapshotMs >= BEAT_MS) {
                    out.append(frame("snapshot", null, snap));
                    lastSnapshot = snap;
                    lastSnapshotMs = now;
                }
            }
            if (out.length() > 0) {
                String text = out.toString();
                for (Client c : clients) {
                    c.send(text);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("GUI stream tick failed", e);
        }
    }

    private String eventFrame(EventDto e) {
        return frame("event", runId + "/" + e.seq, Json.write(e));
    }

    private static String frame(String event, String id, String data) {
        StringBuilder b = new StringBuilder();
        if (id != null) {
            b.append("id: ").append(id).append('\n');
        }
        b.append("event: ").append(event).append('\n');
        for (String line : data.split("\n", -1)) {
            b.append("data: ").append(line).append('\n');
        }
        return b.append('\n').toString();
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        for (Client c : clients) {
            c.end();
        }
        clients.clear();
    }

    /** One open stream: writes go out one at a time, in order; a failed write ends it. */
    private final class Client {
        private final Response response;
        private final Callback done;
        private final ArrayDeque<String> queue = new ArrayDeque<>();
        private int pendingBytes;
        private boolean writing;
        private boolean ended;

        Client(Response response, Callback done) {
            this.response = response;
            this.done = done;
        }

        void send(String text) {
            synchronized (this) {
                if (ended) {
                    return;
                }
                if (pendingBytes + text.length() > MAX_PENDING_BYTES) {
                    fail(new IllegalStateException("client too slow"));
                    return;
                }
                queue.add(text);
                pendingBytes += text.length();
                if (writing) {
                    return;
                }
                writing = true;
            }
            flush();
        }

        private void flush() {
            String text;
            synchronized (this) {
                if (queue.isEmpty() || ended) {
                    writing = false;
                    return;
                }
                StringBuilder b = new StringBuilder();
                while (!queue.isEmpty()) {
                    b.append(queue.poll());
                }
                pendingBytes = 0;
                text = b.toString();
            }
            response.write(false, utf8(text), Callback.from(this::flush, this::fail));
        }

        private void fail(Throwable why) {
            synchronized (this) {
                if (ended) {
                    return;
                }
                ended = true;
                queue.clear();
            }
            clients.remove(this);
            done.failed(why);
        }

        void end() {
            synchronized (this) {
                if (ended) {
                    return;
                }
                ended = true;
            }
            response.write(true, ByteBuffer.allocate(0), done);
        }
    }
}
