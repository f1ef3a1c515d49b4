package org.fairfabric.api.service;

import java.util.LinkedHashMap;
import java.util.Map;

/** Event details in the order given (Map.of would order them differently in every run). */
final class Detail {
    private Detail() {
    }

    static Map<String, Object> of(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values come in pairs");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }
}
