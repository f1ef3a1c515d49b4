package org.fairfabric.api.service;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.fairfabric.api.dto.EventDto;
import org.fairfabric.api.error.ValidationException;

/**
 * The recent events of this controller run, numbered from 1, with the newest {@code capacity}
 * kept for the API; every event is also handed to the registered sinks in order.
 */
public final class EventLog {
    public static final int MAX_PAGE = 1000;

    private final Clock clock;
    private final int capacity;
    private final Deque<EventDto> recent = new ArrayDeque<>();
    private final List<EventSink> sinks = new CopyOnWriteArrayList<>();
    private long lastSeq;

    public EventLog(Clock clock, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.clock = clock;
        this.capacity = capacity;
    }

    public void addSink(EventSink sink) {
        sinks.add(sink);
    }

    /** Records an event and hands it to the sinks; sinks are called in seq order. */
    public synchronized EventDto emit(String type, String subject, Map<String, Object> detail) {
        EventDto e = new EventDto(++lastSeq, clock.instant().toString(), type, subject, detail);
        recent.addLast(e);
        if (recent.size() > capacity) {
            recent.removeFirst();
        }
        for (EventSink s : sinks) {
            s.publish(e);
        }
        return e;
    }

    /** Up to {@code limit} events with seq greater than {@code after}, oldest first. */
    public synchronized List<EventDto> since(long after, int limit) {
        if (after < 0) {
            throw new ValidationException("after", "must be >= 0, got " + after);
        }
        if (limit < 1 || limit > MAX_PAGE) {
            throw new ValidationException("limit", "must be 1-" + MAX_PAGE + ", got " + limit);
        }
        List<EventDto> out = new ArrayList<>();
        for (EventDto e : recent) {
            if (e.seq > after && out.size() < limit) {
                out.add(e);
            }
        }
        return out;
    }
}
