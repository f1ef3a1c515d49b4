package org.fairfabric.controller.monitor;

import java.util.Optional;
import p4.config.v1.P4InfoOuterClass.Counter;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Register;

/**
 * The P4Info ids of the per-port counters (contract C1), found by the last dot-separated
 * component of their names, e.g. {@code FabricEgress.egress_port_counters.port_tx_counter}, and of
 * the FACK counters per port ({@code fack_decrease_counter}, {@code fack_increase_counter}; 0 when
 * the pipeline has none or FACK is off: then they are not read).
 */
public record PortCounterIds(int rx, int tx, int drops, int qdepth, int fackDecrease, int fackIncrease) {

    /** Whether the FACK counters are read too. */
    public boolean facks() {
        return fackDecrease != 0 && fackIncrease != 0;
    }

    /** The same ids without the FACK counters (FACK is off: the records carry no FACK fields). */
    public PortCounterIds withoutFacks() {
        return new PortCounterIds(rx, tx, drops, qdepth, 0, 0);
    }

    /** The ids, or empty when the pipeline lacks any of them (an older fabric.p4: no port stats). */
    public static Optional<PortCounterIds> of(P4Info p4info) {
        int rx = 0;
        int tx = 0;
        int drops = 0;
        int qdepth = 0;
        int fackDecrease = 0;
        int fackIncrease = 0;
        for (Counter c : p4info.getCountersList()) {
            switch (last(c.getPreamble().getName())) {
                case "port_rx_counter" -> rx = c.getPreamble().getId();
                case "port_tx_counter" -> tx = c.getPreamble().getId();
                case "port_drop_counter" -> drops = c.getPreamble().getId();
                case "fack_decrease_counter" -> fackDecrease = c.getPreamble().getId();
                case "fack_increase_counter" -> fackIncrease = c.getPreamble().getId();
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
        return Optional.of(new PortCounterIds(rx, tx, drops, qdepth, fackDecrease, fackIncrease));
    }

    static String last(String name) {
        return name.substring(name.lastIndexOf('.') + 1);
    }
}
