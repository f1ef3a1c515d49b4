package org.fairfabric.onos.platform;

import java.util.List;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.GroupDescription;

/** One switch's slice as ONOS writes it: PI flow rules and groups (action profile groups, clone sessions). */
public final class PiEntities {
    private final List<FlowRule> rules;
    private final List<GroupDescription> groups;

    PiEntities(List<FlowRule> rules, List<GroupDescription> groups) {
        this.rules = List.copyOf(rules);
        this.groups = List.copyOf(groups);
    }

    public List<FlowRule> rules() {
        return rules;
    }

    public List<GroupDescription> groups() {
        return groups;
    }
}
