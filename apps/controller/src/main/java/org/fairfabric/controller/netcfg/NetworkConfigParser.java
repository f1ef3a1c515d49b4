package org.fairfabric.controller.netcfg;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fairfabric.api.error.BadRequestException;
import org.fairfabric.api.error.ValidationException;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.json.Rules;
import org.fairfabric.api.service.DeviceCatalog;
import org.fairfabric.api.service.NetworkConfigValidator;

/**
 * Reads ONOS network-config JSON, the format both ONOS and the embedded controller load:
 * <pre>
 * {"devices": {"device:leaf1": {"basic": {"managementAddress": "grpc://127.0.0.1:50001?device_id=1",
 *                                         "pipeconf": "org.fairfabric.pipeconf.fabric", "driver": "..."},
 *                               "fairfabric": {"role": "leaf", "pod": 0}}},
 *  "ports":   {"device:leaf1/1": {"interfaces": [{"name": "leaf1-eth1"}]}},
 *  "links":   {"device:leaf1/5-device:spine1/1": {"basic": {"type": "DIRECT", "bandwidth": 100, "bidirectional": true}}},
 *  "hosts":   {"00:00:0a:00:01:01/None": {"basic": {"name": "h1", "ips": ["10.0.1.1"], "locations": ["device:leaf1/1"]}}},
 *  "apps":    {...}}
 * </pre>
 * Every error names its JSON path, for example {@code devices["device:leaf1"].basic.managementAddress}.
 */
public final class NetworkConfigParser implements NetworkConfigValidator {
    public static final Set<String> ROLES = Set.of("leaf", "spine", "edge", "aggregation", "core");

    @Override
    public DeviceCatalog validate(String json) {
        return new ConfiguredHosts(parse(json));
    }

    public NetworkConfig parse(String json) {
        JsonNode root = Json.parse(json);
        if (!root.isObject()) {
            throw new BadRequestException(null, "a network configuration is a JSON object");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!Set.of("devices", "ports", "links", "hosts", "apps").contains(k)) {
                throw new ValidationException(k, "unknown section (expected devices, ports, links, hosts, apps)");
            }
        }
        Map<String, NetworkConfig.Device> devices = devices(object(root, "devices", true));
        Map<NetworkConfig.Point, String> portNames = ports(object(root, "ports", false), devices);
        Set<NetworkConfig.Point> linkPorts = new HashSet<>();
        List<NetworkConfig.Link> links = links(object(root, "links", false), devices, linkPorts);
        List<NetworkConfig.Host> hosts = hosts(object(root, "hosts", false), devices, linkPorts);
        return new NetworkConfig(devices, portNames, links, hosts, linkPorts);
    }

    private static JsonNode object(JsonNode parent, String name, boolean required) {
        JsonNode n = parent.get(name);
        if (n == null) {
            if (required) {
                throw new ValidationException(name, "is required");
            }
            return Json.MAPPER.createObjectNode();
        }
        if (!n.isObject()) {
            throw new BadRequestException(name, "must be an object keyed by subject");
        }
        return n;
    }

    private static Map<String, NetworkConfig.Device> devices(JsonNode section) {
        Map<String, NetworkConfig.Device> out = new LinkedHashMap<>();
        Map<String, String> byAddress = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = section.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String id = e.getKey();
            String at = "devices[\"" + id + "\"]";
            if (!id.matches("[a-z]+:[A-Za-z0-9._-]+")) {
                throw new ValidationException(at, "device ids look like 'device:leaf1' (scheme:name)");
            }
            JsonNode basic = e.getValue().get("basic");
            if (basic == null || !basic.isObject()) {
                throw new ValidationException(at + ".basic", "is required");
            }
            String mgmt = text(basic, "managementAddress", at + ".basic");
            GrpcAddress addr;
            try {
                addr = GrpcAddress.parse(mgmt);
            } catch (IllegalArgumentException ex) {
                throw new ValidationException(at + ".basic.managementAddress", ex.getMessage());
            }
            String other = byAddress.put(addr.toString(), id);
            if (other != null) {
                throw new ValidationException(at + ".basic.managementAddress", "same address and device_id as '" + other + "'");
            }
            String pipeconf = text(basic, "pipeconf", at + ".basic");
            JsonNode ff = e.getValue().get("fairfabric");
            if (ff == null || !ff.isObject()) {
                throw new ValidationException(at + ".fairfabric", "is required ({\"role\": one of " + ROLES + "})");
            }
            String role = text(ff, "role", at + ".fairfabric");
            if (!ROLES.contains(role)) {
                throw new ValidationException(at + ".fairfabric.role", "'" + role + "' is not one of " + ROLES);
            }
            Integer pod = null;
            if (ff.has("pod")) {
                if (!ff.get("pod").isInt() || ff.get("pod").intValue() < 0) {
                    throw new ValidationException(at + ".fairfabric.pod", "must be an integer >= 0");
                }
                pod = ff.get("pod").intValue();
            }
            out.put(id, new NetworkConfig.Device(id, role, addr, pipeconf, pod));
        }
        if (out.isEmpty()) {
            throw new ValidationException("devices", "must hold at least one device");
        }
        return out;
    }

    private static Map<NetworkConfig.Point, String> ports(JsonNode section, Map<String, NetworkConfig.Device> devices) {
        Map<NetworkConfig.Point, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = section.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = "ports[\"" + e.getKey() + "\"]";
            NetworkConfig.Point p = point(e.getKey(), at, devices);
            JsonNode ifs = e.getValue().get("interfaces");
            String name = null;
            if (ifs != null) {
                if (!ifs.isArray() || ifs.size() != 1 || !ifs.get(0).isObject()) {
                    throw new ValidationException(at + ".interfaces", "must be a list of one interface object");
                }
                name = text(ifs.get(0), "name", at + ".interfaces[0]");
            }
            out.put(p, name == null ? "" : name);
        }
        return out;
    }

    private static List<NetworkConfig.Link> links(JsonNode section, Map<String, NetworkConfig.Device> devices, Set<NetworkConfig.Point> used) {
        List<NetworkConfig.Link> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = section.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = "links[\"" + e.getKey() + "\"]";
            int dash = e.getKey().indexOf('-', e.getKey().indexOf('/'));
            if (dash < 0) {
                throw new ValidationException(at, "link keys look like 'device:a/1-device:b/2'");
            }
            NetworkConfig.Point a = point(e.getKey().substring(0, dash), at, devices);
            NetworkConfig.Point b = point(e.getKey().substring(dash + 1), at, devices);
            if (a.device.equals(b.device)) {
                throw new ValidationException(at, "a link joins two different devices");
            }
            JsonNode basic = e.getValue().get("basic");
            if (basic == null || !basic.isObject()) {
                throw new ValidationException(at + ".basic", "is required");
            }
            JsonNode bw = basic.get("bandwidth");
            if (bw == null || !bw.isIntegralNumber() || bw.longValue() <= 0) {
                throw new ValidationException(at + ".basic.bandwidth", "must be the link capacity in Mbit/s, an integer > 0");
            }
            if (basic.has("bidirectional") && !basic.get("bidirectional").asBoolean(true)) {
                throw new ValidationException(at + ".basic.bidirectional", "fabric links are cables: only bidirectional links are supported");
            }
            for (NetworkConfig.Point p : List.of(a, b)) {
                if (!used.add(p)) {
                    throw new ValidationException(at, "port " + p + " is already used by another link");
                }
            }
            out.add(new NetworkConfig.Link(a, b, bw.longValue()));
        }
        return out;
    }

    private static List<NetworkConfig.Host> hosts(JsonNode section, Map<String, NetworkConfig.Device> devices, Set<NetworkConfig.Point> linkPorts) {
        List<NetworkConfig.Host> out = new ArrayList<>();
        Set<String> ips = new HashSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = section.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = "hosts[\"" + e.getKey() + "\"]";
            String[] macVlan = e.getKey().split("/", -1);
            if (macVlan.length != 2) {
                throw new ValidationException(at, "host keys look like 'MAC/VLAN', for example '00:00:0a:00:01:01/None'");
            }
            String mac;
            try {
                mac = Rules.mac(at, macVlan[0]);
            } catch (ValidationException ex) {
                throw new ValidationException(at, ex.getMessage().substring(at.length() + 2));
            }
            JsonNode basic = e.getValue().get("basic");
            if (basic == null || !basic.isObject()) {
                throw new ValidationException(at + ".basic", "is required");
            }
            JsonNode ipList = basic.get("ips");
            if (ipList == null || !ipList.isArray() || ipList.isEmpty()) {
                throw new ValidationException(at + ".basic.ips", "must be a non-empty list of IPv4 addresses");
            }
            List<String> hostIps = new ArrayList<>();
            for (int i = 0; i < ipList.size(); i++) {
                String ip = Rules.ipv4(at + ".basic.ips[" + i + "]", ipList.get(i).asText());
                if (!ips.add(ip)) {
                    throw new ValidationException(at + ".basic.ips[" + i + "]", ip + " is already another host's");
                }
                hostIps.add(ip);
            }
            JsonNode locs = basic.get("locations");
            if (locs == null || !locs.isArray() || locs.size() != 1) {
                throw new ValidationException(at + ".basic.locations", "must list exactly one attachment point 'device:x/port'");
            }
            NetworkConfig.Point loc = point(locs.get(0).asText(), at + ".basic.locations[0]", devices);
            if (linkPorts.contains(loc)) {
                throw new ValidationException(at + ".basic.locations[0]", loc + " carries a fabric link");
            }
            String name = basic.has("name") ? basic.get("name").asText() : mac;
            JsonNode ff = hostBlock(e.getValue().get("fairfabric"), at);
            out.add(new NetworkConfig.Host(mac, name, hostIps, loc, shim(ff, at), bandwidth(ff, at)));
        }
        return out;
    }

    /**
     * The app's own host config, {@code "fairfabric": {"shim": true, "bandwidth": 10}}: whether the host
     * runs the host shim, and its cable's capacity in Mbit/s. Both optional; null when absent.
     */
    private static JsonNode hostBlock(JsonNode ff, String at) {
        if (ff == null) {
            return null;
        }
        if (!ff.isObject()) {
            throw new ValidationException(at + ".fairfabric", "must be an object ({\"shim\": true|false, \"bandwidth\": Mbit/s})");
        }
        for (Iterator<String> it = ff.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!k.equals("shim") && !k.equals("bandwidth")) {
                throw new ValidationException(at + ".fairfabric." + k, "unknown field (expected shim or bandwidth)");
            }
        }
        return ff;
    }

    private static boolean shim(JsonNode ff, String at) {
        JsonNode v = ff == null ? null : ff.get("shim");
        if (v == null) {
            return false;
        }
        if (!v.isBoolean()) {
            throw new ValidationException(at + ".fairfabric.shim", "must be true or false");
        }
        return v.booleanValue();
    }

    private static long bandwidth(JsonNode ff, String at) {
        JsonNode v = ff == null ? null : ff.get("bandwidth");
        if (v == null) {
            return 0;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() <= 0) {
            throw new ValidationException(at + ".fairfabric.bandwidth", "must be the host link's capacity in Mbit/s, an integer > 0");
        }
        return v.longValue();
    }

    private static NetworkConfig.Point point(String text, String at, Map<String, NetworkConfig.Device> devices) {
        int slash = text.lastIndexOf('/');
        if (slash < 0) {
            throw new ValidationException(at, "'" + text + "' is not a port 'device:x/N'");
        }
        String device = text.substring(0, slash);
        if (!devices.containsKey(device)) {
            throw new ValidationException(at, "unknown device '" + device + "'");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1) {
            throw new ValidationException(at, "'" + text + "': the port must be a number >= 1");
        }
        return new NetworkConfig.Point(device, port);
    }

    private static String text(JsonNode obj, String name, String at) {
        JsonNode v = obj.get(name);
        if (v == null || !v.isTextual() || v.textValue().isBlank()) {
            throw new ValidationException(at + "." + name, "is required (a non-empty string)");
        }
        return v.textValue();
    }
}
