package org.fairfabric.onos.netcfg;

import java.util.Set;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

/**
 * A device's {@code "fairfabric": {"role": "leaf", "pod": 0}} block in ONOS's network
 * configuration (the same block the embedded controller reads, see docs/examples).
 */
public class FabricDeviceConfig extends Config<DeviceId> {
    public static final String KEY = "fairfabric";
    static final String ROLE = "role";
    static final String POD = "pod";
    /** As the embedded controller's parser accepts them. */
    public static final Set<String> ROLES = Set.of("leaf", "spine", "edge", "aggregation", "core");

    /** False (rather than ONOS's InvalidFieldException) for a block this app cannot use. */
    @Override
    public boolean isValid() {
        try {
            return hasOnlyFields(ROLE, POD)
                    && isString(ROLE, FieldPresence.MANDATORY)
                    && ROLES.contains(role())
                    && isIntegralNumber(POD, FieldPresence.OPTIONAL, 0, Integer.MAX_VALUE);
        } catch (InvalidFieldException e) {
            return false;
        }
    }

    public String role() {
        return get(ROLE, null);
    }

    /** The pod of a fat-tree switch; 0 when not given. */
    public int pod() {
        return get(POD, 0);
    }
}
