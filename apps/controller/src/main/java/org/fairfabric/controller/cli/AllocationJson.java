package org.fairfabric.controller.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.fairfabric.core.allocator.Allocation;
import org.fairfabric.core.allocator.AllocationProblem;

/** The allocation as JSON: mode, convergence, per-session rates and per-link load and price. */
public final class AllocationJson {
    private AllocationJson() {
    }

    public static ObjectNode toJson(Allocation a) {
        AllocationProblem pb = a.problem();
        ObjectNode root = ProblemJson.MAPPER.createObjectNode();
        root.put("mode", a.mode() == Allocation.Mode.EXACT ? "exact" : "paper");
        root.put("converged", a.converged());
        root.put("iterations", a.iterations());
        if (a.mode() == Allocation.Mode.EXACT) {
            root.put("tolerance", a.tolerance());
            root.put("relativeGap", a.relativeGap());
        } else {
            root.putNull("tolerance");
        }
        ArrayNode sessions = root.putArray("sessions");
        for (int i = 0; i < pb.sessionCount(); i++) {
            ObjectNode s = sessions.addObject().put("id", pb.sessionId(i)).put("rate", a.sessionRate(i));
            ArrayNode pathRates = s.putArray("pathRates");
            for (int p = pb.firstPath(i); p < pb.endPath(i); p++) {
                pathRates.add(a.pathRate(p));
            }
        }
        ArrayNode links = root.putArray("links");
        for (int e = 0; e < pb.linkCount(); e++) {
            links.addObject().put("id", pb.linkId(e)).put("load", a.linkLoad(e)).put("price", a.linkPrice(e));
        }
        return root;
    }
}
