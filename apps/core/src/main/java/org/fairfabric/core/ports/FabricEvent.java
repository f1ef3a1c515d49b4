package org.fairfabric.core.ports;

import java.util.Objects;
import org.fairfabric.core.model.Checks;

/** One entry of the event log: when, what kind, about what (device, link, AQ, session), and details. */
public final class FabricEvent {
    private final long timeMillis;
    private final FabricEventType type;
    private final String subject;
    private final String detail;

    public FabricEvent(long timeMillis, FabricEventType type, String subject, String detail) {
        this.timeMillis = timeMillis;
        this.type = Checks.notNull(type, "event type");
        this.subject = Checks.nonEmpty(subject, "event subject");
        this.detail = detail == null ? "" : detail;
    }

    public long timeMillis() {
        return timeMillis;
    }

    public FabricEventType type() {
        return type;
    }

    public String subject() {
        return subject;
    }

    public String detail() {
        return detail;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FabricEvent)) {
            return false;
        }
        FabricEvent e = (FabricEvent) o;
        return timeMillis == e.timeMillis && type == e.type && subject.equals(e.subject) && detail.equals(e.detail);
    }

    @Override
    public int hashCode() {
        return Objects.hash(timeMillis, type, subject, detail);
    }

    @Override
    public String toString() {
        return timeMillis + " " + type + " " + subject + (detail.isEmpty() ? "" : " " + detail);
    }
}
