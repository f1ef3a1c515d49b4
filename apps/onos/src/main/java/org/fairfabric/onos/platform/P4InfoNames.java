package org.fairfabric.onos.platform;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import com.google.protobuf.TextFormat;
import org.fairfabric.pipeconf.PipeconfLoader;
import org.onosproject.net.pi.model.PiPipeconf;
import p4.config.v1.P4InfoOuterClass.Action;
import p4.config.v1.P4InfoOuterClass.ActionProfile;
import p4.config.v1.P4InfoOuterClass.ControllerPacketMetadata;
import p4.config.v1.P4InfoOuterClass.MatchField;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Table;

/**
 * The P4Info's numeric ids by name: what turns the P4Runtime entities the controller's components
 * build (ids) into ONOS's PI entities (names), with the bit widths values are fitted to.
 */
public final class P4InfoNames {
    /** A named thing of the program with a bit width (match field, action parameter, header field). */
    public static final class Field {
        public final String name;
        public final int bitwidth;

        Field(String name, int bitwidth) {
            this.name = name;
            this.bitwidth = bitwidth;
        }
    }

    /** A table or action: its name and its fields (match fields or parameters) by id. */
    public static final class Named {
        public final String name;
        private final Map<Integer, Field> fields;

        Named(String name, Map<Integer, Field> fields) {
            this.name = name;
            this.fields = fields;
        }

        public Field field(int id) {
            Field f = fields.get(id);
            if (f == null) {
                throw new IllegalArgumentException(name + " has no field or parameter with id " + id);
            }
            return f;
        }
    }

    /** An action profile: its name and the table that uses it. */
    public static final class Profile {
        public final String name;
        public final int tableId;

        Profile(String name, int tableId) {
            this.name = name;
            this.tableId = tableId;
        }
    }

    private final Map<Integer, Named> tables = new HashMap<>();
    private final Map<Integer, Named> actions = new HashMap<>();
    private final Map<Integer, Profile> profiles = new HashMap<>();
    private final Map<String, Map<String, Field>> packetHeaders = new HashMap<>();

    public P4InfoNames(P4Info info) {
        for (Table t : info.getTablesList()) {
            Map<Integer, Field> fields = new HashMap<>();
            for (MatchField m : t.getMatchFieldsList()) {
                fields.put(m.getId(), new Field(m.getName(), m.getBitwidth()));
            }
            tables.put(t.getPreamble().getId(), new Named(t.getPreamble().getName(), fields));
        }
        for (Action a : info.getActionsList()) {
            Map<Integer, Field> params = new HashMap<>();
            for (Action.Param p : a.getParamsList()) {
                params.put(p.getId(), new Field(p.getName(), p.getBitwidth()));
            }
            actions.put(a.getPreamble().getId(), new Named(a.getPreamble().getName(), params));
        }
        for (ActionProfile p : info.getActionProfilesList()) {
            if (p.getTableIdsCount() != 1) {
                throw new IllegalArgumentException("action profile " + p.getPreamble().getName()
                        + " is used by " + p.getTableIdsCount() + " tables, expected one");
            }
            profiles.put(p.getPreamble().getId(), new Profile(p.getPreamble().getName(), p.getTableIds(0)));
        }
        for (ControllerPacketMetadata h : info.getControllerPacketMetadataList()) {
            Map<String, Field> fields = new HashMap<>();
            for (ControllerPacketMetadata.Metadata m : h.getMetadataList()) {
                fields.put(m.getName(), new Field(m.getName(), m.getBitwidth()));
            }
            packetHeaders.put(h.getPreamble().getName(), Collections.unmodifiableMap(fields));
        }
    }

    /**
     * The P4Info of the fairfabric pipeconf, in the form the pipeconf hands ONOS (fields ONOS's
     * protos do not know already dropped).
     */
    public static P4InfoNames ofPipeconf() {
        return new P4InfoNames(pipeconfP4Info());
    }

    static P4Info pipeconfP4Info() {
        PiPipeconf pipeconf = PipeconfLoader.buildPipeconf();
        P4Info.Builder info = P4Info.newBuilder();
        try (InputStream in = pipeconf.extension(PiPipeconf.ExtensionType.P4_INFO_TEXT)
                .orElseThrow(() -> new IllegalStateException("the pipeconf has no P4Info"));
             Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            TextFormat.merge(reader, info);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the pipeconf's P4Info: " + e.getMessage(), e);
        }
        return info.build();
    }

    public Named table(int id) {
        return known(tables.get(id), "table", id);
    }

    public Named action(int id) {
        return known(actions.get(id), "action", id);
    }

    public Profile actionProfile(int id) {
        return known(profiles.get(id), "action profile", id);
    }

    /** The fields of a controller header ({@code packet_in}, {@code packet_out}) by name; empty when the program has none. */
    public Map<String, Field> packetHeader(String name) {
        return packetHeaders.getOrDefault(name, Map.of());
    }

    private static <T> T known(T thing, String kind, int id) {
        if (thing == null) {
            throw new IllegalArgumentException("the P4Info has no " + kind + " with id " + id);
        }
        return thing;
    }
}
