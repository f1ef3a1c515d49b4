package org.fairfabric.controller.monitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.fairfabric.api.dto.AllocationDto;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.controller.alloc.ProblemAdapter;
import org.fairfabric.controller.core.CoreTopology;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.Path;
import org.fairfabric.core.model.PathEnumerator;
import org.fairfabric.core.model.Topology;

/**
 * The ff.ctl.catalog.v1 records (docs/kafka.md) of one moment of the controller's model: every
 * directed link, the candidate paths of every ordered pair of hosts of one tenant (the
 * allocator's: up to {@link ProblemAdapter#MAX_PATHS} up-down paths in path-id order), the
 * tenant hosts, the tenants with their guarantee and allocated rate, and the sessions.
 */
public final class CatalogBuilder {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CatalogBuilder() {
    }

    /** Key → value, sorted by key. */
    public static Map<String, String> build(NetworkConfig cfg, List<TenantDto> tenants, List<HostDto> hosts,
                                            List<SessionDto> sessions, List<AllocationDto> allocations) {
        Map<String, String> out = new TreeMap<>();
        if (cfg == null) {
            return out;
        }
        Topology topo = CoreTopology.build(cfg, hosts);
        for (Link l : topo.links()) {
            ObjectNode v = record();
            v.put("src", l.src().toString());
            v.put("dst", l.dst().toString());
            v.put("src_is_switch", topo.devices().containsKey(l.src().elementId()));
            v.put("dst_is_switch", topo.devices().containsKey(l.dst().elementId()));
            v.put("capacity_bps", l.capacityBps());
            out.put("link/" + l.id(), v.toString());
        }
        Set<String> shimMacs = new HashSet<>();
        Set<String> shimNames = new HashSet<>();
        for (NetworkConfig.Host h : cfg.hosts) {
            if (h.shim) {
                shimMacs.add(h.mac);
                shimNames.add(h.name);
            }
        }
        Map<String, HostDto> byId = new HashMap<>();
        for (HostDto h : hosts) {
            byId.put(h.id, h);
            ObjectNode v = record();
            v.put("host", h.id);
            v.put("tenant", h.tenantId);
            v.put("shim", shimMacs.contains(h.mac) || shimNames.contains(h.id));
            out.put("host/" + h.ip, v.toString());
        }
        PathEnumerator enumerator = new PathEnumerator(topo);
        for (HostDto a : hosts) {
            for (HostDto b : hosts) {
                if (a == b || !a.tenantId.equals(b.tenantId) || a.ip.equals(b.ip)) {
                    continue;
                }
                List<Path> paths = paths(topo, enumerator, a.id, b.id);
                if (paths.isEmpty()) {
                    continue;
                }
                ObjectNode v = record();
                v.put("src_host", a.id);
                v.put("dst_host", b.id);
                ArrayNode arr = v.putArray("paths");
                for (Path p : paths) {
                    ObjectNode po = arr.addObject();
                    po.put("id", p.id());
                    ArrayNode links = po.putArray("links");
                    p.links().forEach(l -> links.add(l.id()));
                }
                out.put("pair/" + a.ip + ">" + b.ip, v.toString());
            }
        }
        Map<String, Double> allocated = new HashMap<>();
        for (AllocationDto a : allocations) {
            allocated.merge(a.tenantId, a.totalBps, Double::sum);
        }
        for (TenantDto t : tenants) {
            ObjectNode v = record();
            v.put("weight", t.weight);
            v.put("guarantee_bps", t.minBandwidthBps == null ? 0 : t.minBandwidthBps);
            v.put("allocated_bps", Math.round(allocated.getOrDefault(t.id, 0.0)));
            out.put("tenant/" + t.id, v.toString());
        }
        for (SessionDto s : sessions) {
            HostDto src = byId.get(s.srcHost);
            HostDto dst = byId.get(s.dstHost);
            if (src == null || dst == null) {
                continue;
            }
            ObjectNode v = record();
            v.put("tenant", s.tenantId);
            v.put("src", src.ip);
            v.put("dst", dst.ip);
            out.put("session/" + s.id, v.toString());
        }
        return out;
    }

    private static List<Path> paths(Topology topo, PathEnumerator enumerator, String src, String dst) {
        List<Path> up = new ArrayList<>();
        try {
            for (Path p : enumerator.paths(src, dst)) {
                if (up.size() < ProblemAdapter.MAX_PATHS && p.isUpIn(topo)) {
                    up.add(p);
                }
            }
        } catch (IllegalArgumentException noPath) {
            return List.of();
        }
        return up;
    }

    private static ObjectNode record() {
        ObjectNode v = JSON.createObjectNode();
        v.put("schema", 1);
        return v;
    }
}
