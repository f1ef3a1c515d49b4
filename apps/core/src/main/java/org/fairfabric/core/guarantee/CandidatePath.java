package org.fairfabric.core.guarantee;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.fairfabric.core.model.PathIds;

/** A path a pair may use, with the per-link feedback its latest probe brought back. */
public final class CandidatePath {
    private final int pathId;
    private final List<LinkFeedback> links;

    public CandidatePath(int pathId, List<LinkFeedback> links) {
        this.pathId = PathIds.check(pathId);
        if (links == null || links.isEmpty()) {
            throw new IllegalArgumentException("path " + pathId + " has no link feedback");
        }
        this.links = Collections.unmodifiableList(new ArrayList<>(links));
    }

    public int pathId() {
        return pathId;
    }

    public List<LinkFeedback> links() {
        return links;
    }
}
