package org.fairfabric.controller.netcfg;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed and checked network configuration (see {@link NetworkConfigParser} for the format). The
 * ONOS app builds one from ONOS's view (its constructors are public for that); it is not checked then.
 */
public final class NetworkConfig {
    /** A switch: its ONOS device id, fabric role, P4Runtime address and pipeconf. */
    public static final class Device {
        public final String id;
        public final String role;
        public final GrpcAddress address;
        public final String pipeconf;
        public final Integer pod;

        public Device(String id, String role, GrpcAddress address, String pipeconf, Integer pod) {
            this.id = id;
            this.role = role;
            this.address = address;
            this.pipeconf = pipeconf;
            this.pod = pod;
        }
    }

    /** A port of a device. */
    public static final class Point {
        public final String device;
        public final int port;

        public Point(String device, int port) {
            this.device = device;
            this.port = port;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Point && device.equals(((Point) o).device) && port == ((Point) o).port;
        }

        @Override
        public int hashCode() {
            return device.hashCode() * 31 + port;
        }

        @Override
        public String toString() {
            return device + "/" + port;
        }
    }

    /** A cable between two switch ports; {@code bandwidthMbps} as in ONOS's basic link config. */
    public static final class Link {
        public final Point a;
        public final Point b;
        public final long bandwidthMbps;

        public Link(Point a, Point b, long bandwidthMbps) {
            this.a = a;
            this.b = b;
            this.bandwidthMbps = bandwidthMbps;
        }
    }

    /** A host from the configuration (ONOS basic host config). */
    public static final class Host {
        public final String mac;
        public final String name;
        public final List<String> ips;
        public final Point location;
        /** The host runs the fairfabric host shim ({@code "fairfabric": {"shim": true}}). */
        public final boolean shim;
        /** Its cable's capacity in Mbit/s ({@code "fairfabric": {"bandwidth": 10}}), 0 when not declared. */
        public final long bandwidthMbps;

        public Host(String mac, String name, List<String> ips, Point location, boolean shim) {
            this(mac, name, ips, location, shim, 0);
        }

        public Host(String mac, String name, List<String> ips, Point location, boolean shim, long bandwidthMbps) {
            this.mac = mac;
            this.name = name;
            this.ips = List.copyOf(ips);
            this.location = location;
            this.shim = shim;
            this.bandwidthMbps = bandwidthMbps;
        }
    }

    public final Map<String, Device> devices;
    /** Interface names by port, from the {@code ports} section. */
    public final Map<Point, String> portNames;
    public final List<Link> links;
    public final List<Host> hosts;
    /** Ports that carry a fabric link (no host may attach there). */
    public final Set<Point> linkPorts;

    public NetworkConfig(Map<String, Device> devices, Map<Point, String> portNames, List<Link> links, List<Host> hosts, Set<Point> linkPorts) {
        this.devices = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(devices));
        this.portNames = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(portNames));
        this.links = List.copyOf(links);
        this.hosts = List.copyOf(hosts);
        this.linkPorts = Set.copyOf(linkPorts);
    }
}
