package org.fairfabric.monitor.stream;

/** An input record that breaks its schema; it is rejected as {@code malformed} with this message. */
public final class BadRecord extends RuntimeException {
    public BadRecord(String message) {
        super(message, null, false, false);
    }
}
