package org.fairfabric.api.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.error.ValidationException;

/**
 * Tenants from JSON. Create: {@code {"id", "name"?, "weight", "minBandwidthBps"?}}. Update: any of
 * {@code name, weight, minBandwidthBps}; {@code "minBandwidthBps": null} removes the guarantee.
 */
public final class TenantJson {
    private static final Set<String> CREATE = Set.of("id", "name", "weight", "minBandwidthBps");
    private static final Set<String> UPDATE = Set.of("name", "weight", "minBandwidthBps");

    private TenantJson() {
    }

    public static TenantDto create(JsonNode body) {
        JsonFields f = JsonFields.root(body, CREATE);
        String id = Rules.id("id", f.requiredString("id"));
        String name = f.has("name") ? Rules.name("name", f.optionalString("name")) : id;
        double weight = Rules.weight("weight", f.requiredNumber("weight"));
        Long min = f.has("minBandwidthBps") ? Rules.bandwidth("minBandwidthBps", f.optionalInteger("minBandwidthBps")) : null;
        return new TenantDto(id, name, weight, min);
    }

    public static TenantDto update(JsonNode body, TenantDto current) {
        JsonFields f = JsonFields.root(body, UPDATE);
        if (f.isEmpty()) {
            throw new ValidationException(null, "nothing to update: give at least one of name, weight, minBandwidthBps");
        }
        String name = f.has("name") ? Rules.name("name", f.optionalString("name")) : current.name;
        double weight = body.has("weight") ? Rules.weight("weight", f.requiredNumber("weight")) : current.weight;
        Long min = current.minBandwidthBps;
        if (body.has("minBandwidthBps")) {
            min = f.has("minBandwidthBps") ? Rules.bandwidth("minBandwidthBps", f.optionalInteger("minBandwidthBps")) : null;
        }
        if (body.has("name") && !f.has("name")) {
            throw new ValidationException("name", "cannot be null");
        }
        return new TenantDto(current.id, name, weight, min);
    }
}
