package org.fairfabric.api.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.fairfabric.api.error.ValidationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RulesTest {
    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.1", "192.168.255.254", "1.2.3.4"})
    void acceptsHostAddresses(String ip) {
        assertEquals(ip, Rules.ipv4("ip", ip));
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0", "10.0.0.1.2", "10.0.0.256", "10.00.0.1", "a.b.c.d", "0.1.2.3", "127.0.0.1", "224.0.0.1", "10.0.0.-1", " 10.0.0.1"})
    void refusesOtherAddresses(String ip) {
        ValidationException e = assertThrows(ValidationException.class, () -> Rules.ipv4("ip", ip));
        assertEquals("ip", e.field());
    }

    @ParameterizedTest
    @CsvSource({"00:00:0A:00:00:01,00:00:0a:00:00:01", "02:ab:cd:ef:01:23,02:ab:cd:ef:01:23"})
    void normalisesMacs(String in, String out) {
        assertEquals(out, Rules.mac("mac", in));
    }

    @ParameterizedTest
    @ValueSource(strings = {"00:00:00:00:00", "00-00-00-00-00-01", "ff:ff:ff:ff:ff:ff", "00:00:00:00:00:00", "0g:00:00:00:00:01"})
    void refusesOtherMacs(String mac) {
        assertThrows(ValidationException.class, () -> Rules.mac("mac", mac));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, -1, 1e7, Double.NaN, Double.POSITIVE_INFINITY})
    void refusesWeights(double w) {
        assertThrows(ValidationException.class, () -> Rules.weight("weight", w));
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.\u0661", "\uff11.2.3.4", "10.0.0.1\n", "223.255.255.255x"})
    void refusesNonAsciiDigitsAndTrailingCharacters(String ip) {
        assertThrows(ValidationException.class, () -> Rules.ipv4("ip", ip));
    }

    @ParameterizedTest
    @ValueSource(strings = {"01:00:5e:00:00:01", "33:33:00:00:00:01", "0f:00:00:00:00:01", "00:00:00:00:00:00\n"})
    void refusesMulticastMacs(String mac) {
        assertThrows(ValidationException.class, () -> Rules.mac("mac", mac));
    }

    @ParameterizedTest
    @ValueSource(strings = {"00:00:00:00:00:01", "00:00:00:00:01:00", "00:01:00:00:00:00", "10:00:00:00:00:00", "fe:ff:ff:ff:ff:ff"})
    void acceptsUnicastMacs(String mac) {
        assertEquals(mac, Rules.mac("mac", mac));
    }

    /** JSON Schema counts characters (code points): 64 emoji are 128 UTF-16 units and still a valid name. */
    @org.junit.jupiter.api.Test
    void nameLengthCountsCharacters() {
        String emoji = new String(Character.toChars(0x1F600));
        assertEquals(emoji.repeat(64), Rules.name("name", emoji.repeat(64)));
        assertThrows(ValidationException.class, () -> Rules.name("name", emoji.repeat(65)));
        assertEquals("x".repeat(64), Rules.name("name", "x".repeat(64)));
        assertThrows(ValidationException.class, () -> Rules.name("name", "x".repeat(65)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\u00a0\u3000", "a\u0000b", "tab\there", "a\u0085", "x\n"})
    void refusesBlankOrUnprintableNames(String name) {
        assertThrows(ValidationException.class, () -> Rules.name("name", name));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Blue", " x ", "\u00e9t\u00e9", "a\u00a0b", "\ud83d\ude00"})
    void acceptsPrintableNames(String name) {
        assertEquals(name, Rules.name("name", name));
    }
}
