package org.fairfabric.controller.p4rt;

import com.google.protobuf.TextFormat;
import java.util.HashMap;
import java.util.Map;
import p4.config.v1.P4InfoOuterClass.Action;
import p4.config.v1.P4InfoOuterClass.MatchField;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Table;

/**
 * Names to ids in a P4Info, so that programming code names tables, match fields, actions and
 * parameters as the P4 program does (fully qualified, {@code RouterIngress.ipv4_lpm}, or by alias).
 */
public final class P4InfoIndex {
    private final P4Info p4info;
    private final Map<String, Table> tables = new HashMap<>();
    private final Map<String, Action> actions = new HashMap<>();

    public P4InfoIndex(P4Info p4info) {
        this.p4info = p4info;
        for (Table t : p4info.getTablesList()) {
            tables.put(t.getPreamble().getName(), t);
            tables.putIfAbsent(t.getPreamble().getAlias(), t);
        }
        for (Action a : p4info.getActionsList()) {
            actions.put(a.getPreamble().getName(), a);
            actions.putIfAbsent(a.getPreamble().getAlias(), a);
        }
    }

    /** Parses a P4Info in protobuf text format (as p4c and p4switch write it). */
    public static P4Info parseText(String text) {
        P4Info.Builder b = P4Info.newBuilder();
        try {
            TextFormat.merge(text, b);
        } catch (TextFormat.ParseException e) {
            throw new IllegalArgumentException("not a P4Info in text format: " + e.getMessage(), e);
        }
        return b.build();
    }

    public P4Info p4info() {
        return p4info;
    }

    public int tableId(String name) {
        return table(name).getPreamble().getId();
    }

    public int matchFieldId(String table, String field) {
        for (MatchField f : table(table).getMatchFieldsList()) {
            if (f.getName().equals(field)) {
                return f.getId();
            }
        }
        throw new IllegalArgumentException("table " + table + " has no match field " + field);
    }

    public int actionId(String name) {
        return action(name).getPreamble().getId();
    }

    public int actionProfileId(String name) {
        for (p4.config.v1.P4InfoOuterClass.ActionProfile p : p4info.getActionProfilesList()) {
            if (p.getPreamble().getName().equals(name) || p.getPreamble().getAlias().equals(name)) {
                return p.getPreamble().getId();
            }
        }
        throw new IllegalArgumentException("the P4Info has no action profile " + name);
    }

    public int paramId(String action, String param) {
        for (Action.Param p : action(action).getParamsList()) {
            if (p.getName().equals(param)) {
                return p.getId();
            }
        }
        throw new IllegalArgumentException("action " + action + " has no parameter " + param);
    }

    private Table table(String name) {
        Table t = tables.get(name);
        if (t == null) {
            throw new IllegalArgumentException("the P4Info has no table " + name);
        }
        return t;
    }

    private Action action(String name) {
        Action a = actions.get(name);
        if (a == null) {
            throw new IllegalArgumentException("the P4Info has no action " + name);
        }
        return a;
    }
}
