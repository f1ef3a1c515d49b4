package org.fairfabric.core.aq;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The answer to an AQ request: a grant (plus the AQs at the same position whose rate changed, in
 * weighted mode), or a decline with its reason. A decline changes nothing.
 */
public final class AqDecision {
    private final AqGrant grant;
    private final List<AqGrant> rerated;
    private final String declineReason;

    private AqDecision(AqGrant grant, List<AqGrant> rerated, String declineReason) {
        this.grant = grant;
        this.rerated = Collections.unmodifiableList(new ArrayList<>(rerated));
        this.declineReason = declineReason;
    }

    static AqDecision granted(AqGrant grant, List<AqGrant> rerated) {
        return new AqDecision(grant, rerated, null);
    }

    static AqDecision declined(String reason) {
        return new AqDecision(null, List.of(), reason);
    }

    public boolean isGranted() {
        return grant != null;
    }

    public Optional<AqGrant> grant() {
        return Optional.ofNullable(grant);
    }

    /** Other AQs at the same position with their new rate (weighted mode). */
    public List<AqGrant> rerated() {
        return rerated;
    }

    public Optional<String> declineReason() {
        return Optional.ofNullable(declineReason);
    }

    @Override
    public String toString() {
        return isGranted() ? "granted " + grant : "declined: " + declineReason;
    }
}
