package org.fairfabric.api.json;

import java.util.Locale;
import java.util.regex.Pattern;
import org.fairfabric.api.error.ValidationException;

/** Value rules for API fields; each failure is a 422 naming the field. */
public final class Rules {
    /** Ids appear in URLs, Kafka keys and data-plane tables: short, lower-case, URL-safe. */
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}");
    private static final Pattern MAC = Pattern.compile("([0-9a-f]{2}:){5}[0-9a-f]{2}");
    public static final double MAX_WEIGHT = 1e6;
    /** 1 Tbit/s: far above any link this fabric has, low enough to catch unit mistakes (kbit vs bit). */
    public static final long MAX_BANDWIDTH_BPS = 1_000_000_000_000L;
    public static final int MAX_NAME_LENGTH = 64;

    private Rules() {
    }

    public static String id(String field, String value) {
        if (!ID.matcher(value).matches()) {
            throw new ValidationException(field, "'" + value + "' is not a valid id (1-32 of a-z 0-9 _ -, starting with a letter or digit)");
        }
        return value;
    }

    public static String name(String field, String value) {
        if (value.isBlank() || value.length() > MAX_NAME_LENGTH || value.chars().anyMatch(Character::isISOControl)) {
            throw new ValidationException(field, "must be 1-" + MAX_NAME_LENGTH + " printable characters, not blank");
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
        String[] parts = value.split("\\.", -1);
        boolean ok = parts.length == 4;
        int first = -1;
        for (int i = 0; ok && i < 4; i++) {
            String p = parts[i];
            ok = !p.isEmpty() && p.length() <= 3 && p.chars().allMatch(Character::isDigit)
                    && (p.length() == 1 || p.charAt(0) != '0') && Integer.parseInt(p) <= 255;
            if (ok && i == 0) {
                first = Integer.parseInt(p);
            }
        }
        if (!ok) {
            throw new ValidationException(field, "'" + value + "' is not a dotted-quad IPv4 address");
        }
        if (first == 0 || first == 127 || first >= 224) {
            throw new ValidationException(field, "'" + value + "' is not a unicast host address");
        }
        return value;
    }

    public static String mac(String field, String value) {
        String m = value.toLowerCase(Locale.ROOT);
        if (!MAC.matcher(m).matches()) {
            throw new ValidationException(field, "'" + value + "' is not a MAC address (six hex pairs separated by ':')");
        }
        if ((Integer.parseInt(m.substring(0, 2), 16) & 1) != 0) {
            throw new ValidationException(field, "'" + value + "' is a multicast/broadcast MAC, not a host's");
        }
        if (m.equals("00:00:00:00:00:00")) {
            throw new ValidationException(field, "the all-zero MAC is not a host's");
        }
        return m;
    }

    public static int port(String field, long value) {
        if (value < 1 || value > 65535) {
            throw new ValidationException(field, "must be a port number 1-65535, got " + value);
        }
        return (int) value;
    }
}
