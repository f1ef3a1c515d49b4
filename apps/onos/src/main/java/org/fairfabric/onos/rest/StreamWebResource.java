package org.fairfabric.onos.rest;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import javax.ws.rs.GET;
import javax.ws.rs.HeaderParam;
import javax.ws.rs.Path;
import javax.ws.rs.core.Response;
import javax.ws.rs.core.StreamingOutput;
import org.fairfabric.api.dto.EventDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.GuiSnapshot;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.onos.fabric.FairfabricService;

/**
 * {@code GET /v1/stream}: the GUI's Server-Sent Events, as docs/api/openapi.yaml describes them
 * (retry, hello, missed events, snapshot; then every 250 ms new events and a snapshot when it
 * changed and at least once a second). Open until the client goes away.
 */
@Path(ApiPaths.VERSION + "/stream")
public class StreamWebResource extends FabricResource {
    static final long TICK_MS = 250;
    static final long SNAPSHOT_AT_LEAST_MS = 1000;
    static final int REPLAY = 200;

    @GET
    public Response stream(@HeaderParam("Last-Event-ID") String lastEventId) {
        FairfabricService service = get(FairfabricService.class);
        StreamingOutput body = out -> run(service, lastEventId, out);
        return Response.ok(body, "text/event-stream").header("Cache-Control", "no-cache").build();
    }

    static void run(FairfabricService service, String lastEventId, OutputStream out) throws IOException {
        Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
        String run = service.run();
        FabricService fabric = service.fabric();
        EventLog log = fabric.events();
        w.write("retry: 1000\n\n");
        send(w, "hello", null, Json.write(Map.of("run", run)));
        long after = resumeAfter(log, run, lastEventId);
        String lastSnapshot = null;
        long lastSnapshotAt = 0;
        while (!Thread.currentThread().isInterrupted()) {
            List<EventDto> events = log.since(after, EventLog.MAX_PAGE);
            for (EventDto e : events) {
                send(w, "event", run + "/" + e.seq, Json.write(e));
                after = e.seq;
            }
            String snapshot = snapshot(run, fabric, service.network());
            long now = System.currentTimeMillis();
            if (!snapshot.equals(lastSnapshot) || now - lastSnapshotAt >= SNAPSHOT_AT_LEAST_MS) {
                send(w, "snapshot", null, snapshot);
                lastSnapshot = snapshot;
                lastSnapshotAt = now;
            }
            try {
                Thread.sleep(TICK_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The seq after which to replay: the client's, when its Last-Event-ID is of this run; else the last {@link #REPLAY}. */
    static long resumeAfter(EventLog log, String run, String lastEventId) {
        if (lastEventId != null && lastEventId.startsWith(run + "/")) {
            try {
                return Long.parseLong(lastEventId.substring(run.length() + 1));
            } catch (NumberFormatException e) {
                // fall through: replay the recent ones
            }
        }
        long newest = 0;
        for (List<EventDto> page = log.since(0, EventLog.MAX_PAGE); !page.isEmpty(); page = log.since(newest, EventLog.MAX_PAGE)) {
            newest = page.get(page.size() - 1).seq;
        }
        return Math.max(0, newest - REPLAY);
    }

    static String snapshot(String run, FabricService fabric, NetworkView network) {
        return GuiSnapshot.json(run, fabric, network);
    }

    /** One SSE message; an IOException (the client left) ends the stream. */
    private static void send(Writer w, String event, String id, String data) throws IOException {
        if (id != null) {
            w.write("id: " + id + "\n");
        }
        w.write("event: " + event + "\ndata: " + data + "\n\n");
        w.flush();
    }
}
