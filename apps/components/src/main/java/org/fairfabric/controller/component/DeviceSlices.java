package org.fairfabric.controller.component;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.fairfabric.core.platform.DeviceProgramming;

/**
 * A component's slice on every switch, replaced as a whole: switches that no longer get anything
 * get an empty slice, and {@link #restore} hands everything again after a new fleet voided it.
 */
public final class DeviceSlices<E> {
    private final String slice;
    private final DeviceProgramming<E, ?> devices;
    private Map<String, List<E>> last = Map.of();

    public DeviceSlices(String slice, DeviceProgramming<E, ?> devices) {
        this.slice = slice;
        this.devices = devices;
    }

    public synchronized void replace(Map<String, List<E>> byDevice) {
        Set<String> all = new TreeSet<>(last.keySet());
        all.addAll(byDevice.keySet());
        for (String d : all) {
            devices.setSlice(slice, d, byDevice.getOrDefault(d, List.of()));
        }
        last = new TreeMap<>(byDevice);
    }

    public synchronized void restore() {
        last.forEach((d, entities) -> devices.setSlice(slice, d, entities));
    }
}
