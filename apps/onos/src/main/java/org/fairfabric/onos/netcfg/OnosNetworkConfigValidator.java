package org.fairfabric.onos.netcfg;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Objects;
import java.util.Set;
import org.fairfabric.api.error.BadRequestException;
import org.fairfabric.api.error.ValidationException;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.service.DeviceCatalog;
import org.fairfabric.api.service.NetworkConfigValidator;

/**
 * In ONOS the network configuration that programs devices is ONOS's own (onos-netcfg); fairfabric
 * keeps the document it is given for its own view and checks its outline as the embedded
 * controller does. Hosts attach where ONOS's device and link services allow, whatever it says.
 */
public final class OnosNetworkConfigValidator implements NetworkConfigValidator {
    static final Set<String> SECTIONS = Set.of("devices", "ports", "links", "hosts", "apps");

    private final DeviceCatalog live;

    public OnosNetworkConfigValidator(DeviceCatalog live) {
        this.live = Objects.requireNonNull(live);
    }

    @Override
    public DeviceCatalog validate(String json) {
        JsonNode root = Json.parse(json);
        if (!root.isObject()) {
            throw new BadRequestException(null, "a network configuration is a JSON object");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!SECTIONS.contains(k)) {
                throw new ValidationException(k, "unknown section (expected devices, ports, links, hosts, apps)");
            }
            if (!root.get(k).isObject()) {
                throw new BadRequestException(k, "must be an object keyed by subject");
            }
        }
        JsonNode devices = root.get("devices");
        if (devices == null) {
            throw new ValidationException("devices", "is required");
        }
        if (devices.size() == 0) {
            throw new ValidationException("devices", "must hold at least one device");
        }
        for (Iterator<String> it = devices.fieldNames(); it.hasNext(); ) {
            String id = it.next();
            if (!id.matches("[a-z]+:[A-Za-z0-9._-]+")) {
                throw new ValidationException("devices[\"" + id + "\"]", "device ids look like 'device:leaf1' (scheme:name)");
            }
        }
        return live;
    }
}
