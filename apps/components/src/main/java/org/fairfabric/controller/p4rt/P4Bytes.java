package org.fairfabric.controller.p4rt;

import com.google.protobuf.ByteString;
import java.math.BigInteger;

/**
 * P4Runtime's canonical byte strings: big-endian, no leading zero bytes (one zero byte for 0).
 * Switches answer reads in this form, so writing it keeps reconciliation from seeing false
 * differences.
 */
public final class P4Bytes {
    private P4Bytes() {
    }

    public static ByteString of(long unsignedValue) {
        return of(new BigInteger(Long.toUnsignedString(unsignedValue)));
    }

    public static ByteString of(BigInteger value) {
        if (value.signum() < 0) {
            throw new IllegalArgumentException("P4Runtime values are unsigned, got " + value);
        }
        byte[] b = value.toByteArray();
        int start = 0;
        while (start < b.length - 1 && b[start] == 0) {
            start++;
        }
        return ByteString.copyFrom(b, start, b.length - start);
    }

    /** An IPv4 address in dotted-quad form. */
    public static ByteString ipv4(String dotted) {
        long v = 0;
        for (String part : dotted.split("\\.")) {
            v = (v << 8) | Integer.parseInt(part);
        }
        return of(v);
    }

    /** A MAC address {@code aa:bb:cc:dd:ee:ff}. */
    public static ByteString mac(String mac) {
        return of(Long.parseLong(mac.replace(":", ""), 16));
    }
}
