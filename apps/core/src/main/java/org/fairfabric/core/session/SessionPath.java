package org.fairfabric.core.session;

import java.util.Objects;
import org.fairfabric.core.model.Checks;
import org.fairfabric.core.model.PathIds;
import org.fairfabric.core.model.SessionKey;

/** One path of one session: the key of Promenade's PathBytes[session][EC path id]. */
public final class SessionPath implements Comparable<SessionPath> {
    private final SessionKey session;
    private final int pathId;

    public SessionPath(SessionKey session, int pathId) {
        this.session = Checks.notNull(session, "session");
        this.pathId = PathIds.check(pathId);
    }

    public SessionKey session() {
        return session;
    }

    public int pathId() {
        return pathId;
    }

    @Override
    public int compareTo(SessionPath o) {
        int c = session.compareTo(o.session);
        return c != 0 ? c : Integer.compare(pathId, o.pathId);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SessionPath)) {
            return false;
        }
        SessionPath p = (SessionPath) o;
        return pathId == p.pathId && session.equals(p.session);
    }

    @Override
    public int hashCode() {
        return Objects.hash(session, pathId);
    }

    @Override
    public String toString() {
        return session + "#" + pathId;
    }
}
