package org.fairfabric.controller.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.fairfabric.controller.rest.Reply;
import org.junit.jupiter.api.Test;

/** GET /api/v1/monitor/sessions passes an RLNC session's record through whole (docs/kafka.md, "The `rlnc` object"). */
class MonitorSessionsRlncTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aCodedSessionsFiguresReachTheRestReply() throws Exception {
        JsonNode record = ControllerMonitorPartsTest.docExample("rlnc");
        MonitorView view = new MonitorView(() -> 1763770001000L);
        view.apply("sessions", "10.0.0.1>10.0.0.2", record);
        JsonNode body = JSON.readTree(Reply.ok(view.sessions()).body); // what the route answers
        assertEquals(1, body.size());
        assertEquals(record, body.get(0));
        assertEquals("rlnc", body.get(0).get("transport").asText());
        assertEquals(2, body.get(0).at("/rlnc/sender/paths").size());
    }
}
