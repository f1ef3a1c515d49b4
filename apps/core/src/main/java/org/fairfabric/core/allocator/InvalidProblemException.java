package org.fairfabric.core.allocator;

/** A problem that cannot be solved as given; the message starts with the offending field. */
public final class InvalidProblemException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String field;

    public InvalidProblemException(String field, String problem) {
        super(field + ": " + problem);
        this.field = field;
    }

    /** The offending field, e.g. {@code sessions[3].paths[1][0]}. */
    public String field() {
        return field;
    }
}
