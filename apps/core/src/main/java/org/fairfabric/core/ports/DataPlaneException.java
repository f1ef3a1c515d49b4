package org.fairfabric.core.ports;

/** A data-plane write failed; the message names the device and the write. */
public class DataPlaneException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DataPlaneException(String message) {
        super(message);
    }

    public DataPlaneException(String message, Throwable cause) {
        super(message, cause);
    }
}
