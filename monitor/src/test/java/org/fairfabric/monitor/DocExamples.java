package org.fairfabric.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.fairfabric.monitor.stream.Json;

/** The JSON examples of docs/kafka.md: the first ```json block under a heading that names a topic. */
final class DocExamples {
    private static final Path KAFKA_MD = Path.of("..", "docs", "kafka.md");

    private DocExamples() {
    }

    static String block(String topic) {
        try {
            List<String> lines = Files.readAllLines(KAFKA_MD);
            int i = 0;
            while (i < lines.size() && !(lines.get(i).startsWith("#") && lines.get(i).contains("`" + topic + "`"))) {
                i++;
            }
            while (i < lines.size() && !lines.get(i).equals("```json")) {
                i++;
            }
            if (i >= lines.size()) {
                throw new IllegalStateException("no ```json example under a heading for " + topic + " in " + KAFKA_MD);
            }
            StringBuilder b = new StringBuilder();
            for (i++; !lines.get(i).equals("```"); i++) {
                b.append(lines.get(i)).append('\n');
            }
            return b.toString();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static ObjectNode example(String topic) {
        return (ObjectNode) Json.parseObject(block(topic));
    }

    /** A block of one {"key":…, "value":…} object per line. */
    static List<String[]> keyed(String topic) {
        List<String[]> out = new ArrayList<>();
        for (String line : block(topic).split("\n")) {
            if (!line.isBlank()) {
                JsonNode n = Json.parseObject(line);
                out.add(new String[] {n.get("key").asText(), Json.write(n.get("value"))});
            }
        }
        return out;
    }
}
