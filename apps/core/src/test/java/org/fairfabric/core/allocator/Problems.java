package org.fairfabric.core.allocator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Small hand-written problems from the digest's §10 T1/T3. */
final class Problems {
    private Problems() {
    }

    static List<List<String>> paths(String... specs) {
        List<List<String>> result = new ArrayList<>();
        for (String spec : specs) {
            result.add(Arrays.asList(spec.split(",")));
        }
        return result;
    }

    /** One link of capacity c shared by sessions with the given weights. */
    static AllocationProblem singleLink(double c, double... weights) {
        AllocationProblemBuilder b = new AllocationProblemBuilder().addLink("l", c);
        for (int i = 0; i < weights.length; i++) {
            b.addSession("s" + i, weights[i], AllocationProblem.NO_DEMAND, 0, paths("l"));
        }
        return b.build();
    }

    /** L links in series; a long session (weight wLong) over all, one short session per link. */
    static AllocationProblem parkingLot(int links, double c, double wLong) {
        AllocationProblemBuilder b = new AllocationProblemBuilder();
        StringBuilder all = new StringBuilder();
        for (int j = 1; j <= links; j++) {
            b.addLink("l" + j, c);
            all.append(j == 1 ? "" : ",").append("l").append(j);
        }
        b.addSession("long", wLong, AllocationProblem.NO_DEMAND, 0, paths(all.toString()));
        for (int j = 1; j <= links; j++) {
            b.addSession("short" + j, 1, AllocationProblem.NO_DEMAND, 0, paths("l" + j));
        }
        return b.build();
    }

    /** A over {l1} or {l2}, B over {l1}. */
    static AllocationProblem twoPathsOneShared(double c) {
        return new AllocationProblemBuilder().addLink("l1", c).addLink("l2", c)
                .addSession("A", 1, AllocationProblem.NO_DEMAND, 0, paths("l1", "l2"))
                .addSession("B", 1, AllocationProblem.NO_DEMAND, 0, paths("l1"))
                .build();
    }
}
