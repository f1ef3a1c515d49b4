package org.fairfabric.controller.monitor;

import java.util.Optional;
import p4.config.v1.P4InfoOuterClass.Counter;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Register;

/**
 * The P4Info ids of the per-port counters (contract C1), found by the last dot-separated
 * component of their names, e.g. {@code FabricEgress.egress_port_counters.port_tx_counter}.
 */
public record PortCounterIds(int rx, int tx, int drops, int qdepth) {

    /** The ids, or empty when the pipeline lacks any of them (an older fabric.p4: no port stats). */
    public static Optional<PortCounterIds> of(P4Info p4info) {
        int rx = 0;
        int tx = 0;
        int drops = 0;
        int qdepth = 0;
        for (Counter c : p4info.getCountersList()) {
            switch (last(c.getPreamble().getName())) {
                case "port_rx_counter" -> rx = c.getPreamble().getId();
                case "port_tx_counter" -> tx = c.getPreamble().getId();
                case "port_drop_counter" -> drops = c.getPreamble().getId();
                default -> {
                }
            }
        }
        for (Register r : p4info.getRegistersList()) {
            if (last(r.getPreamble().getName()).equals("port_qdepth")) {
                qdepth = r.getPreamble().getId();
            }
        }
        if (rx == 0 || tx == 0 || drops == 0 || qdepth == 0) {
            return Optional.empty();
        }
        return Optional.of(new PortCounterIds(rx, tx, drops, qdepth));
    }

    static String last(String name) {
        return name.substring(name.lastIndexOf('.') + 1);
    }
}
