package org.fairfabric.api.service;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.fairfabric.api.dto.EventTypes;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.error.ConflictException;
import org.fairfabric.api.error.NotFoundException;
import org.fairfabric.api.error.ValidationException;
import org.fairfabric.api.json.SessionJson;
import org.fairfabric.api.store.FabricStore;
import org.fairfabric.api.store.Mutation;
import org.fairfabric.api.store.StoredState;

/**
 * Tenant provisioning: tenants, their hosts, sessions and the network configuration. Every
 * mutation is checked completely first, then made durable in the store, then applied and
 * announced as an event; a refused or failed mutation changes nothing. Thread-safe.
 */
public final class FabricService {
    private final FabricStore store;
    private final NetworkConfigValidator configValidator;
    private final EventLog events;
    private final Map<String, SessionDto> sessions = new LinkedHashMap<>();
    private StoredState state;
    private DeviceCatalog catalog;
    private long lastSessionNumber;
    private GuaranteeAdmission admission = GuaranteeAdmission.NONE;

    public FabricService(FabricStore store, NetworkConfigValidator configValidator, EventLog events) {
        this(store, configValidator, events, DeviceCatalog.NONE);
    }

    /**
     * {@code catalogWithoutConfig} decides host attachment while no network configuration is
     * stored: {@link DeviceCatalog#NONE} in embedded mode; ONOS knows its devices without one.
     */
    public FabricService(FabricStore store, NetworkConfigValidator configValidator, EventLog events,
                         DeviceCatalog catalogWithoutConfig) {
        this.store = Objects.requireNonNull(store);
        this.configValidator = Objects.requireNonNull(configValidator);
        this.events = Objects.requireNonNull(events);
        this.state = store.load();
        this.catalog = state.networkConfig().map(configValidator::validate).orElse(Objects.requireNonNull(catalogWithoutConfig));
        this.sessions.putAll(state.sessions());
        this.lastSessionNumber = state.sessionNumbersUsed();
    }

    /** Where guarantees are admitted before a change is stored (the controller's two-stage admission). */
    public synchronized void setAdmission(GuaranteeAdmission admission) {
        this.admission = Objects.requireNonNull(admission);
    }

    /** Asks the admission about the state a change leads to; throws (changing nothing) when it refuses. */
    private void admit(List<TenantDto> tenants, List<HostDto> hosts, List<SessionDto> sessionsAfter, String tenantId,
                       String field) {
        admission.check(new GuaranteeAdmission.Proposal(tenants, hosts, sessionsAfter, tenantId, field));
    }

    private List<TenantDto> tenantsWith(TenantDto t) {
        Map<String, TenantDto> next = new LinkedHashMap<>(state.tenants());
        next.put(t.id, t);
        return new ArrayList<>(next.values());
    }

    public EventLog events() {
        return events;
    }

    public synchronized StoredState state() {
        return state;
    }

    // ---- tenants

    public synchronized List<TenantDto> tenants() {
        return new ArrayList<>(state.tenants().values());
    }

    public synchronized TenantDto tenant(String id) {
        TenantDto t = state.tenants().get(id);
        if (t == null) {
            throw new NotFoundException("tenantId", "no tenant '" + id + "'");
        }
        return t;
    }

    public synchronized TenantDto createTenant(TenantDto t) {
        if (state.tenants().containsKey(t.id)) {
            throw new ConflictException("id", "tenant '" + t.id + "' already exists");
        }
        checkNameFree(t);
        if (t.minBandwidthBps != null) {
            admit(tenantsWith(t), allHosts(), sessions(), t.id, "minBandwidthBps");
        }
        commit(new Mutation.PutTenant(t));
        events.emit(EventTypes.TENANT_CREATED, t.id, tenantDetail(t));
        return t;
    }

    /** Applies {@code change} to the current tenant (for example {@code TenantJson.update}) and stores the result. */
    public synchronized TenantDto updateTenant(String id, UnaryOperator<TenantDto> change) {
        TenantDto updated = change.apply(tenant(id));
        if (!updated.id.equals(id)) {
            throw new ValidationException("id", "cannot be changed");
        }
        checkNameFree(updated);
        if (updated.minBandwidthBps != null && !updated.minBandwidthBps.equals(tenant(id).minBandwidthBps)) {
            admit(tenantsWith(updated), allHosts(), sessions(), id, "minBandwidthBps");
        }
        commit(new Mutation.PutTenant(updated));
        events.emit(EventTypes.TENANT_UPDATED, id, tenantDetail(updated));
        return updated;
    }

    /** Deletes the tenant with its hosts and sessions. */
    public synchronized void deleteTenant(String id) {
        tenant(id);
        commit(new Mutation.DeleteTenant(id));
        sessions.values().removeIf(s -> s.tenantId.equals(id));
        events.emit(EventTypes.TENANT_DELETED, id, Detail.of());
    }

    private void checkNameFree(TenantDto t) {
        for (TenantDto other : state.tenants().values()) {
            if (!other.id.equals(t.id) && other.name.equals(t.name)) {
                throw new ConflictException("name", "tenant '" + other.id + "' already has the name '" + t.name + "'");
            }
        }
    }

    private static Map<String, Object> tenantDetail(TenantDto t) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("name", t.name);
        d.put("weight", t.weight);
        if (t.minBandwidthBps != null) {
            d.put("minBandwidthBps", t.minBandwidthBps);
        }
        return d;
    }

    // ---- hosts

    public synchronized List<HostDto> hosts(String tenantId) {
        tenant(tenantId);
        List<HostDto> out = new ArrayList<>();
        for (HostDto h : state.hosts().values()) {
            if (h.tenantId.equals(tenantId)) {
                out.add(h);
            }
        }
        return out;
    }

    public synchronized List<HostDto> allHosts() {
        return new ArrayList<>(state.hosts().values());
    }

    public synchronized HostDto host(String tenantId, String hostId) {
        tenant(tenantId);
        HostDto h = state.hosts().get(hostId);
        if (h == null || !h.tenantId.equals(tenantId)) {
            throw new NotFoundException("hostId", "tenant '" + tenantId + "' has no host '" + hostId + "'");
        }
        return h;
    }

    public synchronized HostDto addHost(HostDto h) {
        tenant(h.tenantId);
        HostDto sameId = state.hosts().get(h.id);
        if (sameId != null) {
            throw new ConflictException("id", "host '" + h.id + "' already exists (tenant '" + sameId.tenantId + "')");
        }
        for (HostDto other : state.hosts().values()) {
            if (other.mac.equals(h.mac)) {
                throw new ConflictException("mac", h.mac + " is already host '" + other.id + "'");
            }
            if (other.ip.equals(h.ip)) {
                throw new ConflictException("ip", h.ip + " is already host '" + other.id + "'");
            }
        }
        catalog.checkHost(h);
        if (catalog.serverAt(h.location).isEmpty()) {
            for (HostDto other : state.hosts().values()) {
                if (other.location.equals(h.location)) {
                    throw new ConflictException("location.port", h.location.device + "/" + h.location.port
                            + " is taken by host '" + other.id + "' (tenant '" + other.tenantId
                            + "'); VMs share only the ports of the network configuration's hosts");
                }
            }
        }
        if (tenant(h.tenantId).minBandwidthBps != null) {
            List<HostDto> hosts = allHosts();
            hosts.add(h);
            admit(tenants(), hosts, sessions(), h.tenantId, "location");
        }
        commit(new Mutation.PutHost(h));
        events.emit(EventTypes.HOST_ADDED, h.id, Detail.of("tenantId", h.tenantId, "ip", h.ip, "mac", h.mac,
                "device", h.location.device, "port", h.location.port));
        return h;
    }

    public synchronized void removeHost(String tenantId, String hostId) {
        host(tenantId, hostId);
        commit(new Mutation.DeleteHost(hostId));
        sessions.values().removeIf(s -> s.srcHost.equals(hostId) || s.dstHost.equals(hostId));
        events.emit(EventTypes.HOST_REMOVED, hostId, Detail.of("tenantId", tenantId));
    }

    // ---- sessions: declared ones (source "api") are stored; detected ones are not (the monitor
    // detects them again after a restart)

    public synchronized List<SessionDto> sessions() {
        return new ArrayList<>(sessions.values());
    }

    public synchronized SessionDto session(String id) {
        SessionDto s = sessions.get(id);
        if (s == null) {
            throw new NotFoundException("sessionId", "no session '" + id + "'");
        }
        return s;
    }

    public synchronized SessionDto declareSession(SessionJson.Request r) {
        return addSession(r.srcHost, r.dstHost, r.demandBps, SessionDto.DECLARED, true);
    }

    /** Sets a session's own weight (null: an equal share of its tenant's weight again). */
    public synchronized SessionDto setSessionWeight(String id, Double weight) {
        SessionDto s = session(id).withWeight(weight);
        if (isStored(s)) {
            commit(new Mutation.PutSession(s));
        }
        sessions.put(id, s);
        events.emit(EventTypes.SESSION_UPDATED, id, Detail.of("tenantId", s.tenantId, "weight", weight));
        return s;
    }

    /** A session the monitor saw; returns the existing one when the pair is already known. */
    public synchronized SessionDto detectSession(String srcHost, String dstHost) {
        for (SessionDto s : sessions.values()) {
            if (s.srcHost.equals(srcHost) && s.dstHost.equals(dstHost)) {
                return s;
            }
        }
        return addSession(srcHost, dstHost, null, "monitor", false);
    }

    /** {@code admitted}: a declared session goes through admission; traffic the monitor saw cannot be refused. */
    private SessionDto addSession(String srcHost, String dstHost, Long demandBps, String source, boolean admitted) {
        HostDto src = state.hosts().get(srcHost);
        HostDto dst = state.hosts().get(dstHost);
        if (src == null) {
            throw new ValidationException("srcHost", "no host '" + srcHost + "'");
        }
        if (dst == null) {
            throw new ValidationException("dstHost", "no host '" + dstHost + "'");
        }
        if (!src.tenantId.equals(dst.tenantId)) {
            throw new ValidationException("dstHost", "host '" + dstHost + "' belongs to tenant '" + dst.tenantId
                    + "', not to '" + src.tenantId + "' like srcHost");
        }
        for (SessionDto s : sessions.values()) {
            if (s.srcHost.equals(srcHost) && s.dstHost.equals(dstHost)) {
                throw new ConflictException("dstHost", "session '" + s.id + "' already joins " + srcHost + " to " + dstHost);
            }
        }
        SessionDto s = new SessionDto("s" + (lastSessionNumber + 1), src.tenantId, srcHost, dstHost, demandBps, source);
        if (admitted && tenant(src.tenantId).minBandwidthBps != null) {
            List<SessionDto> after = sessions();
            after.add(s);
            admit(tenants(), allHosts(), after, s.tenantId, "srcHost");
        }
        commit(isStored(s) ? new Mutation.PutSession(s) : new Mutation.UseSessionNumbers(lastSessionNumber + 1));
        lastSessionNumber++;
        sessions.put(s.id, s);
        events.emit(EventTypes.SESSION_ADDED, s.id, Detail.of("tenantId", s.tenantId, "srcHost", srcHost, "dstHost", dstHost));
        return s;
    }

    public synchronized void removeSession(String id) {
        SessionDto s = session(id);
        if (isStored(s)) {
            commit(new Mutation.DeleteSession(id));
        }
        sessions.remove(id);
        events.emit(EventTypes.SESSION_REMOVED, id, Detail.of("tenantId", s.tenantId));
    }

    private static boolean isStored(SessionDto s) {
        return SessionDto.DECLARED.equals(s.source);
    }

    // ---- network configuration

    public synchronized java.util.Optional<String> networkConfig() {
        return state.networkConfig();
    }

    /** Replaces the network configuration; refused when it is invalid or strands an existing host. */
    public synchronized void putNetworkConfig(String json) {
        DeviceCatalog next = configValidator.validate(json);
        for (HostDto h : state.hosts().values()) {
            try {
                next.checkHost(h);
            } catch (ValidationException e) {
                throw new ValidationException(e.field(), "host '" + h.id + "' of tenant '" + h.tenantId
                        + "' attaches at " + h.location + ", which this configuration does not allow: " + e.getMessage());
            } catch (ConflictException e) {
                throw new ConflictException(e.field(), "host '" + h.id + "' of tenant '" + h.tenantId
                        + "' clashes with this configuration: " + e.getMessage());
            }
        }
        commit(new Mutation.PutNetworkConfig(json));
        catalog = next;
        events.emit(EventTypes.NETWORK_CONFIG_UPDATED, "network-config", Detail.of("bytes", json.length()));
    }

    private void commit(Mutation m) {
        store.append(m);
        state = m.applyTo(state);
    }
}
