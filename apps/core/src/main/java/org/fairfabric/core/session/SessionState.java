package org.fairfabric.core.session;

/** What the monitor believes about a session. */
public enum SessionState {
    ACTIVE, INACTIVE
}
