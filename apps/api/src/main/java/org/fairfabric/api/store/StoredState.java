package org.fairfabric.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;

/**
 * What must survive a crash: tenants, their hosts, the sessions declared over the API, the
 * network configuration. Immutable. (Sessions the monitor detected are not stored: they are
 * detected again after a restart.)
 */
public final class StoredState {
    public static final StoredState EMPTY = new StoredState(Map.of(), Map.of(), Map.of(), 0, null);

    private final Map<String, TenantDto> tenants;
    private final Map<String, HostDto> hosts;
    private final Map<String, SessionDto> sessions;
    private final long sessionNumbersUsed;
    private final String networkConfig;

    private StoredState(Map<String, TenantDto> tenants, Map<String, HostDto> hosts, Map<String, SessionDto> sessions,
                        long sessionNumbersUsed, String networkConfig) {
        this.tenants = Collections.unmodifiableMap(new LinkedHashMap<>(tenants));
        this.hosts = Collections.unmodifiableMap(new LinkedHashMap<>(hosts));
        this.sessions = Collections.unmodifiableMap(new LinkedHashMap<>(sessions));
        this.sessionNumbersUsed = sessionNumbersUsed;
        this.networkConfig = networkConfig;
    }

    /**
     * Session ids {@code s1 .. sN} with N this number have been handed out (declared or detected,
     * live or deleted): a restarted controller numbers on from here, so that no id ever names two
     * sessions (a client retrying a DELETE after a crash must not hit a newer session).
     */
    public long sessionNumbersUsed() {
        return sessionNumbersUsed;
    }

    /** N of a session id "sN" (0 for any other form). */
    public static long sessionNumber(String id) {
        if (id.length() < 2 || id.length() > 19 || id.charAt(0) != 's') {
            return 0;
        }
        for (int i = 1; i < id.length(); i++) {
            if (id.charAt(i) < '0' || id.charAt(i) > '9') {
                return 0;
            }
        }
        return Long.parseLong(id.substring(1));
    }

    /** Tenants by id, in creation order. */
    public Map<String, TenantDto> tenants() {
        return tenants;
    }

    /** Hosts by id, in creation order. */
    public Map<String, HostDto> hosts() {
        return hosts;
    }

    /** Declared sessions by id, in declaration order. */
    public Map<String, SessionDto> sessions() {
        return sessions;
    }

    public Optional<String> networkConfig() {
        return Optional.ofNullable(networkConfig);
    }

    StoredState withTenant(TenantDto t) {
        Map<String, TenantDto> m = new LinkedHashMap<>(tenants);
        m.put(t.id, t);
        return new StoredState(m, hosts, sessions, sessionNumbersUsed, networkConfig);
    }

    /** Without the tenant, its hosts and its sessions. */
    StoredState withoutTenant(String id) {
        Map<String, TenantDto> m = new LinkedHashMap<>(tenants);
        m.remove(id);
        Map<String, HostDto> h = new LinkedHashMap<>(hosts);
        h.values().removeIf(host -> host.tenantId.equals(id));
        Map<String, SessionDto> s = new LinkedHashMap<>(sessions);
        s.values().removeIf(session -> session.tenantId.equals(id));
        return new StoredState(m, h, s, sessionNumbersUsed, networkConfig);
    }

    StoredState withHost(HostDto host) {
        Map<String, HostDto> h = new LinkedHashMap<>(hosts);
        h.put(host.id, host);
        return new StoredState(tenants, h, sessions, sessionNumbersUsed, networkConfig);
    }

    /** Without the host and the sessions from or to it. */
    StoredState withoutHost(String id) {
        Map<String, HostDto> h = new LinkedHashMap<>(hosts);
        h.remove(id);
        Map<String, SessionDto> s = new LinkedHashMap<>(sessions);
        s.values().removeIf(session -> session.srcHost.equals(id) || session.dstHost.equals(id));
        return new StoredState(tenants, h, s, sessionNumbersUsed, networkConfig);
    }

    StoredState withSession(SessionDto session) {
        Map<String, SessionDto> s = new LinkedHashMap<>(sessions);
        s.put(session.id, session);
        return new StoredState(tenants, hosts, s, Math.max(sessionNumbersUsed, sessionNumber(session.id)), networkConfig);
    }

    StoredState withoutSession(String id) {
        Map<String, SessionDto> s = new LinkedHashMap<>(sessions);
        s.remove(id);
        return new StoredState(tenants, hosts, s, sessionNumbersUsed, networkConfig);
    }

    StoredState withSessionNumbersUsed(long n) {
        return new StoredState(tenants, hosts, sessions, Math.max(sessionNumbersUsed, n), networkConfig);
    }

    StoredState withNetworkConfig(String json) {
        return new StoredState(tenants, hosts, sessions, sessionNumbersUsed, json);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof StoredState)) {
            return false;
        }
        StoredState s = (StoredState) o;
        return tenants.equals(s.tenants) && hosts.equals(s.hosts) && sessions.equals(s.sessions)
                && sessionNumbersUsed == s.sessionNumbersUsed
                && Objects.equals(networkConfig, s.networkConfig);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tenants, hosts, sessions, sessionNumbersUsed, networkConfig);
    }
}
