package org.fairfabric.api.json;

import java.util.Locale;
import java.util.regex.Pattern;
import org.fairfabric.api.error.ValidationException;

/**
 * Value rules for API fields; each failure is a 422 naming the field. The patterns are stated
 * verbatim in docs/api/openapi.yaml (ApiContractTest checks that they are the same strings), so
 * they use only regular-expression syntax that Java, ECMA-262 and Python read alike.
 */
public final class Rules {
    /** Ids appear in URLs, Kafka keys and data-plane tables: short, lower-case, URL-safe. */
    public static final String ID_PATTERN = "^[a-z0-9][a-z0-9_-]{0,31}$";
    /**
     * Names: no control character (U+0000-U+001F, U+007F-U+009F) and at least one character that is
     * not a space (U+0020, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
     */
    public static final String NAME_PATTERN = "^[^\\x00-\\x1f\\x7f-\\x9f]*"
            + "[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]"
            + "[^\\x00-\\x1f\\x7f-\\x9f]*$";
    /** Unicast IPv4 host addresses in dotted quads without leading zeros: first octet 1-126 or 128-223. */
    public static final String IPV4_PATTERN = "^(?:[1-9]|[1-9][0-9]|1[01][0-9]|12[0-6]|12[89]|1[3-9][0-9]|2[01][0-9]|22[0-3])"
            + "(?:\\.(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$";
    /**
     * Unicast MACs (the first octet's lowest bit clear), not all-zero; 17 characters. Either the
     * first octet is non-zero and even, or it is 00 and a later octet is non-zero.
     */
    public static final String MAC_PATTERN = "^(?:(?:[0-9A-Fa-f][2468aceACE]|[1-9A-Fa-f]0)(?::[0-9A-Fa-f]{2}){5}"
            + "|00(?::00){0,4}:(?:0[1-9A-Fa-f]|[1-9A-Fa-f][0-9A-Fa-f])(?::[0-9A-Fa-f]{2}){0,4})$";
    public static final int MAC_LENGTH = 17;
    public static final double MAX_WEIGHT = 1e6;
    /** 1 Tbit/s: far above any link this fabric has, low enough to catch unit mistakes (kbit vs bit). */
    public static final long MAX_BANDWIDTH_BPS = 1_000_000_000_000L;
    /** In characters (Unicode code points), as JSON Schema's maxLength counts them. */
    public static final int MAX_NAME_LENGTH = 64;

    private static final Pattern ID = compile(ID_PATTERN);
    private static final Pattern NAME = compile(NAME_PATTERN);
    private static final Pattern IPV4 = compile(IPV4_PATTERN);
    private static final Pattern MAC = compile(MAC_PATTERN);

    private Rules() {
    }

    /** The pattern as JSON Schema means it: '^' and '$' anchor the whole string (Java's matches()). */
    private static Pattern compile(String anchored) {
        return Pattern.compile(anchored.substring(1, anchored.length() - 1));
    }

    public static String id(String field, String value) {
        if (!ID.matcher(value).matches()) {
            throw new ValidationException(field, "'" + value + "' is not a valid id (1-32 of a-z 0-9 _ -, starting with a letter or digit)");
        }
        return value;
    }

    /** A display name: 1-64 characters, printable, not only spaces. */
    public static String name(String field, String value) {
        return text(field, value, MAX_NAME_LENGTH);
    }

    /** Printable text that is not only spaces, of at most {@code maxLength} characters (0: any length). */
    public static String text(String field, String value, int maxLength) {
        int length = value.codePointCount(0, value.length());
        if (!NAME.matcher(value).matches() || (maxLength > 0 && length > maxLength)) {
            throw new ValidationException(field, "must be " + (maxLength > 0 ? "1-" + maxLength + " " : "")
                    + "printable characters (no control characters), not only spaces");
        }
        return value;
    }

    public static double weight(String field, double value) {
        if (!Double.isFinite(value) || value <= 0 || value > MAX_WEIGHT) {
            throw new ValidationException(field, "must be a number > 0 and <= " + (long) MAX_WEIGHT + ", got " + value);
        }
        return value;
    }

    public static long bandwidth(String field, long value) {
        if (value <= 0 || value > MAX_BANDWIDTH_BPS) {
            throw new ValidationException(field, "must be a bit rate > 0 and <= " + MAX_BANDWIDTH_BPS + " bit/s, got " + value);
        }
        return value;
    }

    public static String ipv4(String field, String value) {
        if (!IPV4.matcher(value).matches()) {
            throw new ValidationException(field, "'" + value + "' is not a unicast IPv4 host address (dotted quad without"
                    + " leading zeros; not 0.x, 127.x or 224.x and above)");
        }
        return value;
    }

    public static String mac(String field, String value) {
        if (value.length() != MAC_LENGTH || !MAC.matcher(value).matches()) {
            throw new ValidationException(field, "'" + value + "' is not a host's MAC address (six hex pairs separated by ':';"
                    + " unicast, so the first octet is even; not all zero)");
        }
        return value.toLowerCase(Locale.ROOT);
    }

    public static int port(String field, long value) {
        if (value < 1 || value > 65535) {
            throw new ValidationException(field, "must be a port number 1-65535, got " + value);
        }
        return (int) value;
    }
}
