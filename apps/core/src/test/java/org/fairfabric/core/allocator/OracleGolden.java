package org.fairfabric.core.allocator;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A golden file written by tools/oracle/oracle.py (cvxpy + Clarabel): the generator spec it was
 * made from, if any, and the session rates. The oracle writes one session per line, so a
 * pattern match is all the parsing needed.
 */
final class OracleGolden {
    private static final Pattern SESSION = Pattern.compile("\"id\": \"([^\"]+)\", \"rate\": ([-+0-9.eE]+)");
    private static final Pattern INSTANCE = Pattern.compile("\"instance\": \"([^\"]+)\"");

    final String instance;
    final Map<String, Double> rates = new LinkedHashMap<>();

    private OracleGolden(String text) {
        Matcher m = INSTANCE.matcher(text);
        instance = m.find() ? m.group(1) : null;
        Matcher s = SESSION.matcher(text);
        while (s.find()) {
            rates.put(s.group(1), Double.parseDouble(s.group(2)));
        }
    }

    static OracleGolden load(String name) throws IOException {
        try (InputStream in = OracleGolden.class.getResourceAsStream("/allocator/oracle/" + name)) {
            if (in == null) {
                throw new IOException("missing golden file " + name + " (run tools/oracle/make-goldens.sh)");
            }
            return new OracleGolden(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** The problem an instance spec like {@code k=4,sessions=6,paths=4,seed=1} stands for. */
    AllocationProblem generate() {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String part : instance.split(",")) {
            String[] kv = part.split("=");
            values.put(kv[0], Long.parseLong(kv[1]));
        }
        return new FatTreeGenerator(values.get("k").intValue(), values.get("sessions").intValue(),
                values.get("paths").intValue(), values.get("seed")).generate();
    }
}
