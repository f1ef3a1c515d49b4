package org.fairfabric.controller.alloc;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.core.allocator.AllocationProblem;

/**
 * What extending a model by appended sessions needs to know about it without a pass over every
 * session ({@link ProblemAdapter}, docs/controller.md "An arrival costs its tenant and its links"):
 * its link ids, session ids, host pairs, each tenant's sessions, and each link's paths. Mutable, and
 * held by one model at a time ({@link AllocationModel#appendIndex}): a model extended from it takes it
 * over (and updates it), so the older model no longer has one and is indexed afresh if it is extended
 * again.
 */
final class AppendIndex {
    /** Problem link index by link id. */
    final Map<String, Integer> links;
    /** The ids of every session of the model's inputs, routable or not. */
    final Set<String> ids;
    /** The host pairs of the routable sessions. */
    final Set<List<String>> pairs;
    /** Per tenant, its routable sessions' problem indices, ascending. */
    final Map<String, IntList> byTenant;
    /** Per tenant, how many of its routable sessions are not idle. */
    final Map<String, Integer> active;
    /** Per problem link, the problem paths over it, ascending. */
    IntList[] linkPaths;

    private AppendIndex(int sessions, int links) {
        this.links = new HashMap<>(links * 4 / 3 + 1);
        ids = new HashSet<>(sessions * 4 / 3 + 1);
        pairs = new HashSet<>(sessions * 4 / 3 + 1);
        byTenant = new HashMap<>();
        active = new HashMap<>();
        linkPaths = new IntList[links];
    }

    /** The index of {@code model}, built from {@code in} (its inputs) in one pass. */
    static AppendIndex of(AllocationModel model, AllocationInputs in) {
        AllocationProblem p = model.problem();
        AppendIndex x = new AppendIndex(in.sessions().size(), p.linkCount());
        for (int e = 0; e < p.linkCount(); e++) {
            x.links.put(p.linkId(e), e);
            x.linkPaths[e] = new IntList();
        }
        for (SessionDto s : in.sessions()) {
            x.ids.add(s.id);
        }
        for (int i = 0; i < model.sessions().size(); i++) {
            x.addSession(model.sessions().get(i), i, in.idleSessions().contains(model.sessions().get(i).id));
            for (int q = p.firstPath(i); q < p.endPath(i); q++) {
                for (int k = 0; k < p.pathLength(q); k++) {
                    x.linkPaths[p.pathLink(q, k)].add(q);
                }
            }
        }
        return x;
    }

    void addSession(SessionDto s, int i, boolean idle) {
        pairs.add(List.of(s.srcHost, s.dstHost));
        byTenant.computeIfAbsent(s.tenantId, t -> new IntList()).add(i);
        if (!idle) {
            active.merge(s.tenantId, 1, Integer::sum);
        }
    }

    /** A growable list of ints. */
    static final class IntList {
        int[] values = new int[8];
        int size;

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, 2 * size);
            }
            values[size++] = v;
        }

        int get(int j) {
            return values[j];
        }
    }
}
