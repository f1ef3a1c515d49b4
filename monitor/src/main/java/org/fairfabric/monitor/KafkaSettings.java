package org.fairfabric.monitor;

import java.util.Map;

/** Where the fairfabric broker is: {@code FAIRFABRIC_KAFKA} (host:port), as ./fairfabric sets it. */
public final class KafkaSettings {
    public static final String ENV = "FAIRFABRIC_KAFKA";

    private KafkaSettings() {
    }

    /**
     * The bootstrap address from the environment.
     *
     * @throws IllegalStateException when it is unset or not host:port
     */
    public static String bootstrapServers(Map<String, String> env) {
        String value = env.get(ENV);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(ENV + " is not set; start a broker with ./fairfabric kafka start");
        }
        for (String server : value.split(",")) {
            int colon = server.lastIndexOf(':');
            if (colon <= 0 || !server.substring(colon + 1).matches("[0-9]{1,5}")) {
                throw new IllegalStateException(ENV + ": '" + server + "' is not host:port");
            }
        }
        return value;
    }
}
