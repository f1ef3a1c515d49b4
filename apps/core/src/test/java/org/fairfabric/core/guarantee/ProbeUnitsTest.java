package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ProbeUnitsTest {
    @Test
    void fieldsRoundTripAndSaturate() {
        assertEquals(28_480, ProbeUnits.decodeWindow(ProbeUnits.encodeWindow(28_500)), 1e-9);
        assertEquals(0xFFFF, ProbeUnits.encodeWindow(1e12));
        assertEquals(0xFFF, ProbeUnits.encodeQueue(1e9), "q saturates at 4095");
        assertEquals(300_000, ProbeUnits.decodeTx(ProbeUnits.encodeTx(300_000, 100_000_000_000L), 100_000_000_000L),
                2e6);
        assertEquals(0xFFFF, ProbeUnits.encodeTx(10e9, 10_000_000_000L));
        assertEquals(11, ProbeUnits.speedCode(10_000_000_000L));
        assertEquals(50_000_000L, ProbeUnits.lineRate(ProbeUnits.speedCode(50_000_000L)));
        assertThrows(IllegalArgumentException.class, () -> ProbeUnits.speedCode(123));
        assertThrows(IllegalArgumentException.class, () -> ProbeUnits.encodeWindow(-1));
    }
}
