package org.fairfabric.controller.netcfg;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * A P4Runtime management address as ONOS writes it: {@code grpc://host:port?device_id=N}, or
 * {@code grpcs://...} for P4Runtime over TLS.
 */
public final class GrpcAddress {
    public final String host;
    public final int port;
    public final long deviceId;
    /** grpcs://: the switch serves TLS and the controller verifies its certificate. */
    public final boolean tls;

    public GrpcAddress(String host, int port, long deviceId) {
        this(host, port, deviceId, false);
    }

    public GrpcAddress(String host, int port, long deviceId, boolean tls) {
        this.host = host;
        this.port = port;
        this.deviceId = deviceId;
        this.tls = tls;
    }

    /** Parses {@code text}; the message of the exception says what is wrong, without the field name. */
    public static GrpcAddress parse(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + text + "' is not a URI: " + e.getReason());
        }
        if (!"grpc".equals(uri.getScheme()) && !"grpcs".equals(uri.getScheme())) {
            throw new IllegalArgumentException("'" + text + "' must use the grpc:// or grpcs:// (TLS) scheme");
        }
        if (uri.getHost() == null || uri.getPort() < 1 || uri.getPort() > 65535) {
            throw new IllegalArgumentException("'" + text + "' must name a host and a port (grpc://host:port?device_id=N)");
        }
        String query = uri.getQuery();
        Long id = null;
        if (query != null) {
            for (String kv : query.split("&")) {
                if (kv.startsWith("device_id=")) {
                    try {
                        id = Long.parseUnsignedLong(kv.substring("device_id=".length()));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("'" + text + "': device_id must be an unsigned 64-bit integer");
                    }
                }
            }
        }
        if (id == null) {
            throw new IllegalArgumentException("'" + text + "' lacks ?device_id=N (the P4Runtime device id)");
        }
        return new GrpcAddress(uri.getHost(), uri.getPort(), id, "grpcs".equals(uri.getScheme()));
    }

    @Override
    public String toString() {
        return (tls ? "grpcs://" : "grpc://") + host + ":" + port + "?device_id=" + Long.toUnsignedString(deviceId);
    }
}
