package org.fairfabric.onos.store;

import java.nio.charset.StandardCharsets;
import org.onosproject.store.service.Serializer;

/** Map keys and values are JSON text: stored as UTF-8, no Kryo registration needed. */
public final class Utf8Serializer implements Serializer {
    @Override
    public <T> byte[] encode(T object) {
        if (!(object instanceof String)) {
            throw new IllegalArgumentException("only strings are stored, not " + (object == null ? "null" : object.getClass().getName()));
        }
        return ((String) object).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T decode(byte[] bytes) {
        return (T) new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public <T> T copy(T object) {
        return object; // strings are immutable
    }
}
