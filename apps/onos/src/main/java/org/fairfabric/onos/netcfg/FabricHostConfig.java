package org.fairfabric.onos.netcfg;

import org.onosproject.net.HostId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

/** A host's {@code "fairfabric": {"shim": true}} block: whether a fairfabric host shim runs on it. */
public class FabricHostConfig extends Config<HostId> {
    public static final String KEY = "fairfabric";
    static final String SHIM = "shim";

    /** False (rather than ONOS's InvalidFieldException) for a block this app cannot use. */
    @Override
    public boolean isValid() {
        try {
            return hasOnlyFields(SHIM) && isBoolean(SHIM, FieldPresence.MANDATORY);
        } catch (InvalidFieldException e) {
            return false;
        }
    }

    public boolean shim() {
        return get(SHIM, false);
    }
}
