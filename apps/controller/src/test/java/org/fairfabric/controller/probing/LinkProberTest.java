package org.fairfabric.controller.probing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class LinkProberTest {
    @Test
    void theMissFloorIsHalfTheIntervalIn10MsUnitsWithinOneByte() {
        assertEquals(12, LinkProber.missFloor(250));
        assertEquals(50, LinkProber.missFloor(1000));
        assertEquals(1, LinkProber.missFloor(5));
        assertEquals(255, LinkProber.missFloor(60_000));
    }

    @Test
    void theEchoRequestCarriesTheFloorInTheByteAfterItsType() {
        LinkProber.Target t = new LinkProber.Target("device:leaf1", 5, "00:00:00:00:aa:01", "00:00:00:00:bb:01");
        byte[] frame = LinkProber.echoRequest(t, 12);
        assertEquals(14 + LinkProber.ECHO_BYTES, frame.length);
        assertArrayEquals(HexFormat.of().parseHex("00000000bb0100000000aa0188b6" + "010c0005"),
                java.util.Arrays.copyOf(frame, 18));
        for (int i = 18; i < frame.length; i++) {
            assertEquals(0, frame[i], "meter byte " + i);
        }
    }
}
