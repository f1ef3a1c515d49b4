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
}
