package org.fairfabric.monitor;

import java.util.List;

/**
 * The topic names the monitor reads and writes (docs/kafka.md), each with an optional suffix so
 * that test runs never see each other's records.
 */
public final class Topics {
    public final String shimSessions;
    public final String shimPathBytes;
    public final String shimStats;
    public final String shimRlnc;
    public final String portStats;
    public final String dataplaneEvents;
    public final String controllerTopology;
    public final String catalog;
    public final String pairSignals;
    public final String linkSignals;
    public final String tenantSignals;
    public final String sessions;
    public final String links;
    public final String tenants;
    public final String events;
    public final String rejected;

    public Topics(String suffix) {
        shimSessions = "ff.shim.sessions.v1" + suffix;
        shimPathBytes = "ff.shim.pathbytes.v1" + suffix;
        shimStats = "ff.shim.stats.v1" + suffix;
        shimRlnc = "ff.shim.rlnc.v1" + suffix;
        portStats = "ff.ctl.portstats.v1" + suffix;
        dataplaneEvents = "ff.ctl.dataplane-events.v1" + suffix;
        controllerTopology = "ff.ctl.topology.v1" + suffix;
        catalog = "ff.ctl.catalog.v1" + suffix;
        pairSignals = "ff.mon.internal.pairs.v1" + suffix;
        linkSignals = "ff.mon.internal.links.v1" + suffix;
        tenantSignals = "ff.mon.internal.tenants.v1" + suffix;
        sessions = "ff.mon.sessions.v1" + suffix;
        links = "ff.mon.links.v1" + suffix;
        tenants = "ff.mon.tenants.v1" + suffix;
        events = "ff.mon.events.v1" + suffix;
        rejected = "ff.mon.rejected.v1" + suffix;
    }

    /** Inputs written by others (the monitor creates them when absent so that it can start first). */
    public List<String> inputs() {
        return List.of(shimSessions, shimPathBytes, shimStats, shimRlnc, portStats, dataplaneEvents, controllerTopology);
    }

    /** Topics between the monitor's stages; partitioned by the key of the next stage. */
    public List<String> internal() {
        return List.of(pairSignals, linkSignals, tenantSignals);
    }

    /** Compacted outputs: the latest view of every key. */
    public List<String> compactedOutputs() {
        return List.of(sessions, links, tenants);
    }

    public List<String> eventOutputs() {
        return List.of(events, rejected);
    }
}
