package org.fairfabric.controller.arp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

public class ArpResponderTest {
    static final Function<String, Optional<String>> HOSTS = ip -> Optional.ofNullable(Map.of("10.0.1.2", "00:00:0a:00:01:02").get(ip));
    static final HexFormat HEX = HexFormat.of();

    // Ethernet broadcast from 00:00:0a:00:01:01 (10.0.1.1) asking who has TARGET
    public static byte[] request(String vlan, String oper, String target) {
        return HEX.parseHex("ffffffffffff" + "00000a000101" + vlan + "0806" + "0001" + "0800" + "06" + "04" + oper
                + "00000a000101" + "0a000101" + "000000000000" + target);
    }

    @ParameterizedTest
    @CsvSource({"''", "8100002a"})
    void answersForAKnownHostKeepingTheVlanTag(String vlan) {
        byte[] reply = ArpResponder.reply(request(vlan, "0001", "0a000102"), HOSTS).orElseThrow();
        assertArrayEquals(HEX.parseHex("00000a000101" + "00000a000102" + vlan + "0806" + "0001" + "0800" + "06" + "04" + "0002"
                + "00000a000102" + "0a000102" + "00000a000101" + "0a000101"), reply);
    }

    @ParameterizedTest
    @CsvSource({
        "'', 0001, 0a000199, unknown address",
        "'', 0002, 0a000102, a reply, not a request",
    })
    void leavesOtherPacketsAlone(String vlan, String oper, String target, String why) {
        assertTrue(ArpResponder.reply(request(vlan, oper, target), HOSTS).isEmpty(), why);
    }

    @ParameterizedTest
    @CsvSource({"ffffffffffff00000a0001010800450000", "ffffffffffff00000a0001010806000108", "0000"})
    void ignoresNonArpAndTruncatedFrames(String hex) {
        assertTrue(ArpResponder.reply(HEX.parseHex(hex), HOSTS).isEmpty());
    }
}
