package org.fairfabric.onos.platform;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import com.google.protobuf.ByteString;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.group.DefaultGroupBucket;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.DefaultGroupKey;
import org.onosproject.net.group.GroupBucket;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiGroupKey;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiOptionalFieldMatch;
import org.onosproject.net.pi.runtime.PiRangeFieldMatch;
import org.onosproject.net.pi.runtime.PiTableAction;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;
import p4.v1.P4RuntimeOuterClass.ActionProfileGroup;
import p4.v1.P4RuntimeOuterClass.ActionProfileMember;
import p4.v1.P4RuntimeOuterClass.CloneSessionEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.Replica;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/**
 * Turns the P4Runtime entities the controller's components build into ONOS's PI entities, which
 * ONOS's P4Runtime driver turns back into the same P4Runtime writes:
 * <ul>
 * <li>a table entry becomes a flow rule in the table of the same name, its match a
 *     {@link PiCriterion}, its action a {@link PiAction} or the {@link PiActionProfileGroupId} it
 *     points to; values are fitted to the P4Info's bit widths (ONOS keeps them at full width);</li>
 * <li>an action profile group becomes a SELECT group keyed by {@link PiGroupKey} (table, profile,
 *     group id) with the group id given, one bucket per member carrying the member's action and
 *     weight; members exist only inside groups (ONOS numbers them itself), so a member no group
 *     of the slice names is dropped;</li>
 * <li>a clone session becomes a CLONE group whose id is the session id, one bucket per replica.</li>
 * </ul>
 * Anything else (default entries, meters, multicast groups, members used directly) is refused
 * with an {@link IllegalArgumentException} before anything is written.
 */
public final class EntityTranslator {
    private final P4InfoNames p4;

    public EntityTranslator(P4InfoNames p4) {
        this.p4 = p4;
    }

    public PiEntities translate(DeviceId device, ApplicationId app, List<Entity> entities) {
        Map<String, PiAction> members = new LinkedHashMap<>();
        for (Entity e : entities) {
            if (e.hasActionProfileMember()) {
                ActionProfileMember m = e.getActionProfileMember();
                members.put(m.getActionProfileId() + "/" + m.getMemberId(), action(m.getAction()));
            }
        }
        List<FlowRule> rules = new ArrayList<>();
        List<GroupDescription> groups = new ArrayList<>();
        for (Entity e : entities) {
            switch (e.getEntityCase()) {
                case TABLE_ENTRY:
                    rules.add(rule(device, app, e.getTableEntry()));
                    break;
                case ACTION_PROFILE_MEMBER:
                    break;
                case ACTION_PROFILE_GROUP:
                    groups.add(selectGroup(device, app, e.getActionProfileGroup(), members));
                    break;
                case PACKET_REPLICATION_ENGINE_ENTRY:
                    if (!e.getPacketReplicationEngineEntry().hasCloneSessionEntry()) {
                        throw new IllegalArgumentException(device + ": multicast groups are not supported under ONOS");
                    }
                    groups.add(cloneGroup(device, app, e.getPacketReplicationEngineEntry().getCloneSessionEntry()));
                    break;
                default:
                    throw new IllegalArgumentException(device + ": " + e.getEntityCase() + " entities are not supported under ONOS");
            }
        }
        return new PiEntities(rules, groups);
    }

    /** The key ONOS knows a clone session's group by. */
    public static GroupKey cloneSessionKey(int sessionId) {
        return new DefaultGroupKey(("fairfabric-clone-session-" + sessionId).getBytes(StandardCharsets.UTF_8));
    }

    private FlowRule rule(DeviceId device, ApplicationId app, TableEntry t) {
        P4InfoNames.Named table = p4.table(t.getTableId());
        if (t.getIsDefaultAction()) {
            throw new IllegalArgumentException(table.name + ": default entries are not supported under ONOS");
        }
        if (t.getMatchCount() == 0) {
            throw new IllegalArgumentException(table.name + ": an entry without match fields is not supported under ONOS");
        }
        PiCriterion.Builder match = PiCriterion.builder();
        for (FieldMatch m : t.getMatchList()) {
            match.add(fieldMatch(table, m));
        }
        PiTableAction action;
        switch (t.getAction().getTypeCase()) {
            case ACTION:
                action = action(t.getAction().getAction());
                break;
            case ACTION_PROFILE_GROUP_ID:
                action = PiActionProfileGroupId.of(t.getAction().getActionProfileGroupId());
                break;
            default:
                throw new IllegalArgumentException(table.name + ": table action " + t.getAction().getTypeCase()
                        + " is not supported under ONOS");
        }
        return DefaultFlowRule.builder()
                .forDevice(device)
                .forTable(PiTableId.of(table.name))
                .withSelector(DefaultTrafficSelector.builder().matchPi(match.build()).build())
                .withTreatment(treatment(action))
                .withPriority(t.getPriority())
                .fromApp(app)
                .makePermanent()
                .build();
    }

    private PiFieldMatch fieldMatch(P4InfoNames.Named table, FieldMatch m) {
        P4InfoNames.Field f = table.field(m.getFieldId());
        PiMatchFieldId id = PiMatchFieldId.of(f.name);
        switch (m.getFieldMatchTypeCase()) {
            case EXACT:
                return new PiExactFieldMatch(id, fit(m.getExact().getValue(), f, table.name));
            case TERNARY:
                return new PiTernaryFieldMatch(id, fit(m.getTernary().getValue(), f, table.name),
                        fit(m.getTernary().getMask(), f, table.name));
            case LPM:
                return new PiLpmFieldMatch(id, fit(m.getLpm().getValue(), f, table.name), m.getLpm().getPrefixLen());
            case RANGE:
                return new PiRangeFieldMatch(id, fit(m.getRange().getLow(), f, table.name),
                        fit(m.getRange().getHigh(), f, table.name));
            case OPTIONAL:
                return new PiOptionalFieldMatch(id, fit(m.getOptional().getValue(), f, table.name));
            default:
                throw new IllegalArgumentException(table.name + ": match " + m.getFieldMatchTypeCase() + " on "
                        + f.name + " is not supported under ONOS");
        }
    }

    private PiAction action(p4.v1.P4RuntimeOuterClass.Action a) {
        P4InfoNames.Named named = p4.action(a.getActionId());
        PiAction.Builder b = PiAction.builder().withId(PiActionId.of(named.name));
        for (p4.v1.P4RuntimeOuterClass.Action.Param p : a.getParamsList()) {
            P4InfoNames.Field f = named.field(p.getParamId());
            b.withParameter(new PiActionParam(PiActionParamId.of(f.name), fit(p.getValue(), f, named.name)));
        }
        return b.build();
    }

    private GroupDescription selectGroup(DeviceId device, ApplicationId app, ActionProfileGroup g,
                                         Map<String, PiAction> members) {
        P4InfoNames.Profile profile = p4.actionProfile(g.getActionProfileId());
        List<GroupBucket> buckets = new ArrayList<>();
        for (ActionProfileGroup.Member m : g.getMembersList()) {
            PiAction action = members.get(g.getActionProfileId() + "/" + m.getMemberId());
            if (action == null) {
                throw new IllegalArgumentException(profile.name + ": group " + g.getGroupId() + " names member "
                        + m.getMemberId() + ", which the slice does not define");
            }
            if (m.getWeight() < 1 || m.getWeight() > Short.MAX_VALUE) {
                throw new IllegalArgumentException(profile.name + ": group " + g.getGroupId() + " member "
                        + m.getMemberId() + " has weight " + m.getWeight() + ", expected 1.." + Short.MAX_VALUE);
            }
            buckets.add(DefaultGroupBucket.createSelectGroupBucket(treatment(action), (short) m.getWeight()));
        }
        PiGroupKey key = new PiGroupKey(PiTableId.of(p4.table(profile.tableId).name),
                PiActionProfileId.of(profile.name), g.getGroupId());
        return new DefaultGroupDescription(device, GroupDescription.Type.SELECT, new GroupBuckets(buckets), key,
                g.getGroupId(), app);
    }

    private static GroupDescription cloneGroup(DeviceId device, ApplicationId app, CloneSessionEntry c) {
        if (c.getClassOfService() != 0 || c.getPacketLengthBytes() != 0) {
            throw new IllegalArgumentException(device + ": clone session " + c.getSessionId()
                    + " with class of service or truncation is not supported under ONOS");
        }
        List<GroupBucket> buckets = new ArrayList<>();
        for (Replica r : c.getReplicasList()) {
            buckets.add(DefaultGroupBucket.createCloneGroupBucket(DefaultTrafficTreatment.builder()
                    .setOutput(PortNumber.portNumber(r.getEgressPort())).build()));
        }
        return new DefaultGroupDescription(device, GroupDescription.Type.CLONE, new GroupBuckets(buckets),
                cloneSessionKey(c.getSessionId()), c.getSessionId(), app);
    }

    private static TrafficTreatment treatment(PiTableAction action) {
        return DefaultTrafficTreatment.builder().piTableAction(action).build();
    }

    private static ImmutableByteSequence fit(ByteString value, P4InfoNames.Field f, String where) {
        try {
            return ImmutableByteSequence.copyFrom(value.toByteArray()).fit(f.bitwidth);
        } catch (ImmutableByteSequence.ByteSequenceTrimException e) {
            throw new IllegalArgumentException(where + ": value of " + f.name + " does not fit in " + f.bitwidth + " bits");
        }
    }
}
