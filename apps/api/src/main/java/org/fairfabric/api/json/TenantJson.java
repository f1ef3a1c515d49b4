package org.fairfabric.api.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.error.ValidationException;

/**
 * Tenants from JSON. Create: {@code {"id", "name"?, "weight", "minBandwidthBps"?}}. Update: any of
 * {@code name, weight, minBandwidthBps}; {@code "minBandwidthBps": null} removes the guarantee.
 * JSON null anywhere else is a wrong type (400), as the OpenAPI schemas make no other field nullable.
 */
public final class TenantJson {
    private static final Set<String> CREATE = Set.of("id", "name", "weight", "minBandwidthBps");
    private static final Set<String> UPDATE = Set.of("name", "weight", "minBandwidthBps");

    private TenantJson() {
    }

    public static TenantDto create(JsonNode body) {
        JsonFields f = JsonFields.root(body, CREATE);
        String id = Rules.id("id", f.requiredString("id"));
        String name = f.optionalString("name");
        double weight = Rules.weight("weight", f.requiredNumber("weight"));
        Long min = f.optionalInteger("minBandwidthBps");
        return new TenantDto(id, name == null ? id : Rules.name("name", name), weight,
                min == null ? null : Rules.bandwidth("minBandwidthBps", min));
    }

    public static TenantDto update(JsonNode body, TenantDto current) {
        JsonFields f = JsonFields.root(body, UPDATE);
        if (f.isEmpty()) {
            throw new ValidationException(null, "nothing to update: give at least one of name, weight, minBandwidthBps");
        }
        Long min = current.minBandwidthBps;
        if (f.isNull("minBandwidthBps")) {
            min = null;
        } else if (f.has("minBandwidthBps")) {
            min = Rules.bandwidth("minBandwidthBps", f.optionalInteger("minBandwidthBps"));
        }
        String name = f.optionalString("name");
        Double weight = f.optionalNumber("weight");
        return new TenantDto(current.id, name == null ? current.name : Rules.name("name", name),
                weight == null ? current.weight : Rules.weight("weight", weight), min);
    }
}
