package org.fairfabric.onos.rest;

/** Where the API lives: the bundle's web context plus {@link #VERSION}, e.g. /onos/fairfabric/v1/tenants. */
public final class ApiPaths {
    public static final String WEB_CONTEXT = "/onos/fairfabric";
    public static final String VERSION = "v1";
    /** The embedded controller's prefix for the same paths (docs/api/openapi.yaml). */
    public static final String EMBEDDED_BASE = "/api/v1";

    private ApiPaths() {
    }
}
