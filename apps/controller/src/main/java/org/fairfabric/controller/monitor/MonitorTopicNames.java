package org.fairfabric.controller.monitor;

/** The topics of the controller side of the monitor (docs/kafka.md, "Controller topics for the monitor"). */
public final class MonitorTopicNames {
    public static final String PORTSTATS = "ff.ctl.portstats.v1";
    public static final String DATAPLANE_EVENTS = "ff.ctl.dataplane-events.v1";
    public static final String CATALOG = "ff.ctl.catalog.v1";
    public static final String SESSIONS = "ff.mon.sessions.v1";
    public static final String LINKS = "ff.mon.links.v1";
    public static final String TENANTS = "ff.mon.tenants.v1";

    private MonitorTopicNames() {
    }
}
