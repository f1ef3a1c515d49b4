package org.fairfabric.onos.netcfg;

import org.onosproject.net.HostId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

/**
 * A host's {@code "fairfabric": {"shim": true, "bandwidth": 10}} block (both optional): whether a
 * fairfabric host shim runs on it, and its cable's capacity in Mbit/s.
 */
public class FabricHostConfig extends Config<HostId> {
    public static final String KEY = "fairfabric";
    static final String SHIM = "shim";
    static final String BANDWIDTH = "bandwidth";

    /** False (rather than ONOS's InvalidFieldException) for a block this app cannot use. */
    @Override
    public boolean isValid() {
        try {
            return hasOnlyFields(SHIM, BANDWIDTH) && isBoolean(SHIM, FieldPresence.OPTIONAL)
                    && isIntegralNumber(BANDWIDTH, FieldPresence.OPTIONAL, 1, Long.MAX_VALUE);
        } catch (InvalidFieldException e) {
            return false;
        }
    }

    public boolean shim() {
        return get(SHIM, false);
    }

    /** Mbit/s, 0 when not declared. */
    public long bandwidthMbps() {
        return get(BANDWIDTH, 0L);
    }
}
