package org.fairfabric.core.model;

/** Argument checks shared by the core: bad input gets a clear message before any state changes. */
public final class Checks {
    private Checks() {
    }

    public static String nonEmpty(String value, String what) {
        if (value == null || value.trim().isEmpty()) {
            throw new IllegalArgumentException(what + " must not be empty");
        }
        return value;
    }

    public static double positive(double value, String what) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be a positive finite number, got " + value);
        }
        return value;
    }

    public static double nonNegative(double value, String what) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be a non-negative finite number, got " + value);
        }
        return value;
    }

    public static long positive(long value, String what) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + value);
        }
        return value;
    }

    public static long nonNegative(long value, String what) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " must not be negative, got " + value);
        }
        return value;
    }

    public static <T> T notNull(T value, String what) {
        if (value == null) {
            throw new IllegalArgumentException(what + " must be given");
        }
        return value;
    }
}
