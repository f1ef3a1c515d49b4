package org.fairfabric.api.service;

/** Checks a network configuration (ONOS network-config JSON) and tells which attachment points it defines. */
public interface NetworkConfigValidator {
    /** Throws an {@code ApiException} naming the offending JSON path when {@code json} is not a usable configuration. */
    DeviceCatalog validate(String json);
}
