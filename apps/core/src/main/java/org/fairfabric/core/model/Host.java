package org.fairfabric.core.model;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A host (a VM in the papers' terms): addresses, where it attaches, and its tenant if assigned. A
 * host with a {@link #server} is a VM on that (physical) host: it shares the server's cable to the
 * switch and has none of its own; frames to it leave the switch with the server's MAC, and the
 * server delivers them by address.
 */
public final class Host {
    private static final Pattern IPV4 =
            Pattern.compile("^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$");
    private static final Pattern MAC = Pattern.compile("^([0-9a-f]{2}:){5}[0-9a-f]{2}$");

    private final String id;
    private final String ip;
    private final String mac;
    private final ConnectPoint attachment;
    private final String tenantId;
    private final String server;

    public Host(String id, String ip, String mac, ConnectPoint attachment, String tenantId) {
        this(id, ip, mac, attachment, tenantId, null);
    }

    /** {@code server}: the host whose cable this VM shares (null: the host has its own cable). */
    public Host(String id, String ip, String mac, ConnectPoint attachment, String tenantId, String server) {
        this.id = Checks.nonEmpty(id, "host id");
        if (ip == null || !IPV4.matcher(ip).matches()) {
            throw new IllegalArgumentException("host " + id + ": '" + ip + "' is not an IPv4 address");
        }
        if (mac == null || !MAC.matcher(mac.toLowerCase()).matches()) {
            throw new IllegalArgumentException("host " + id + ": '" + mac + "' is not a MAC address");
        }
        this.ip = ip;
        this.mac = mac.toLowerCase();
        this.attachment = Checks.notNull(attachment, "host attachment point");
        if (tenantId != null) {
            Checks.nonEmpty(tenantId, "host tenant id");
        }
        this.tenantId = tenantId;
        if (server != null && (Checks.nonEmpty(server, "host server").equals(id))) {
            throw new IllegalArgumentException("host " + id + " cannot be its own server");
        }
        this.server = server;
    }

    /** The physical host this VM runs on; empty for a host with its own cable. */
    public Optional<String> server() {
        return Optional.ofNullable(server);
    }

    /** The node whose cable carries this host's traffic: its server, or itself. */
    public String cableOwner() {
        return server == null ? id : server;
    }

    public String id() {
        return id;
    }

    public String ip() {
        return ip;
    }

    public String mac() {
        return mac;
    }

    /** The switch port this host is plugged into. */
    public ConnectPoint attachment() {
        return attachment;
    }

    public Optional<String> tenantId() {
        return Optional.ofNullable(tenantId);
    }

    public Host withTenant(String newTenantId) {
        return new Host(id, ip, mac, attachment, newTenantId, server);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Host)) {
            return false;
        }
        Host h = (Host) o;
        return id.equals(h.id) && ip.equals(h.ip) && mac.equals(h.mac) && attachment.equals(h.attachment)
                && Objects.equals(tenantId, h.tenantId) && Objects.equals(server, h.server);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, ip, mac, attachment, tenantId, server);
    }

    @Override
    public String toString() {
        return id + "(" + ip + "@" + attachment + ")";
    }
}
