package org.fairfabric.onos;

/** Constants shared by the fairfabric ONOS components. */
public final class AppConstants {
    /** Application name; must match {@code onos.app.name} in the pom and app.xml. */
    public static final String APP_NAME = "org.fairfabric";

    private AppConstants() {
    }
}
