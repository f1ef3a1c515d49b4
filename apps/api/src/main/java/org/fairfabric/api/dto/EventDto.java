package org.fairfabric.api.dto;

import java.util.Map;
import java.util.Objects;

/**
 * Something that happened, in order: {@code seq} increases by one per event of this controller
 * run. {@code type} is one of {@link EventTypes}; {@code subject} the id it is about.
 */
public final class EventDto {
    public final long seq;
    public final String time;
    public final String type;
    public final String subject;
    public final Map<String, Object> detail;

    public EventDto(long seq, String time, String type, String subject, Map<String, Object> detail) {
        this.seq = seq;
        this.time = Objects.requireNonNull(time, "time");
        this.type = Objects.requireNonNull(type, "type");
        this.subject = Objects.requireNonNull(subject, "subject");
        this.detail = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(detail));
    }
}
