package org.fairfabric.onos.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.fairfabric.api.error.ApiException;

/** Reads a request body as the embedded controller does: JSON only, at most {@link #MAX_BODY} bytes. */
final class RequestBody {
    static final int MAX_BODY = 4 << 20;

    private RequestBody() {
    }

    static String read(InputStream in, String contentType) {
        byte[] bytes = readAtMost(in, MAX_BODY);
        if (bytes.length > 0 && contentType != null && !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new UnsupportedType(contentType);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] readAtMost(InputStream in, int max) {
        if (in == null) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            int n;
            while ((n = in.read(buf)) > 0) {
                if (out.size() + n > max) {
                    throw new PayloadTooLarge();
                }
                out.write(buf, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the request body", e);
        }
        return out.toByteArray();
    }

    static final class PayloadTooLarge extends ApiException {
        PayloadTooLarge() {
            super(413, null, "the request body exceeds " + MAX_BODY + " bytes");
        }
    }

    static final class UnsupportedType extends ApiException {
        UnsupportedType(String type) {
            super(415, null, "send JSON (Content-Type: application/json), not " + type);
        }
    }
}
