package org.fairfabric.pipeconf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionModel;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiPacketMetadataModel;
import org.onosproject.net.pi.model.PiPacketOperationType;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.model.PiTableModel;

/** The pipeconf as ONOS would build it, checked against the generated P4Info. */
class PipeconfLoaderTest {

    private final PiPipeconf pipeconf = PipeconfLoader.buildPipeconf();
    private final PiPipelineModel model = pipeconf.pipelineModel();

    @Test
    void pipeconfHasInterpreterAndP4Info() {
        assertEquals(PipeconfLoader.PIPECONF_ID, pipeconf.id());
        assertTrue(pipeconf.hasBehaviour(PiPipelineInterpreter.class));
        assertTrue(pipeconf.extension(PiPipeconf.ExtensionType.P4_INFO_TEXT).isPresent());
    }

    @Test
    void controllerHeadersHaveTheLayoutTheInterpreterUses() {
        List<String> out = new ArrayList<>();
        for (PiPacketMetadataModel m : model.packetOperationModel(PiPacketOperationType.PACKET_OUT).get().metadatas()) {
            out.add(m.id().id() + ":" + m.bitWidth());
        }
        assertEquals(List.of("egress_port:9", "do_forward:1", "_pad:6"), out);
        List<String> in = new ArrayList<>();
        for (PiPacketMetadataModel m : model.packetOperationModel(PiPacketOperationType.PACKET_IN).get().metadatas()) {
            in.add(m.id().id() + ":" + m.bitWidth());
        }
        assertEquals(List.of("ingress_port:9", "_pad0:7", "reason:8", "event_port:9", "_pad1:7",
                "metric:8", "direction:8", "value:32"), in);
    }

    @Test
    void everyTableActionAndProfileNamedInFabricConstantsExists() throws Exception {
        List<String> missing = new ArrayList<>();
        for (Field f : FabricConstants.class.getFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            Object value = f.get(null);
            if (value instanceof PiTableId && model.table((PiTableId) value).isEmpty()) {
                missing.add(f.getName());
            } else if (value instanceof PiActionProfileId && model.actionProfiles((PiActionProfileId) value).isEmpty()) {
                missing.add(f.getName());
            } else if (value instanceof PiActionId && !actionExists((PiActionId) value)) {
                missing.add(f.getName());
            }
        }
        assertEquals(List.of(), missing);
    }

    private boolean actionExists(PiActionId id) {
        for (PiTableModel table : model.tables()) {
            for (PiActionModel action : table.actions()) {
                if (action.id().equals(id)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void routingGroupTablesUseSelectors() {
        for (PiTableId id : List.of(FabricConstants.UP_DELAY, FabricConstants.UP_QUEUE, FabricConstants.UP_UTIL)) {
            PiTableModel table = model.table(id).get();
            assertTrue(table.actionProfile() != null, id + " has an action profile");
            assertTrue(table.actionProfile().hasSelector(), id + " uses a selector");
        }
    }
}
