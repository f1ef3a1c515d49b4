package org.fairfabric.onos.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import javax.ws.rs.HttpMethod;
import org.junit.jupiter.api.Test;

/** The ONOS API has exactly the operations of docs/api/openapi.yaml (which the embedded API is held to as well). */
class OpenApiPathsTest {
    static final Path DOCUMENT = Path.of("../../docs/api/openapi.yaml");

    /**
     * Every operation not marked {@code x-embedded-only} is served; the embedded-only ones (the GUI
     * stream, emulation controls) are served too, with the differences docs/onos.md lists; nothing else is.
     */
    @Test
    void onosResourcesServeExactlyTheDocumentedOperations() throws Exception {
        Set<String> missing = new TreeSet<>(documented(false));
        missing.removeAll(served());
        assertEquals(Set.of(), missing, "documented but not served under ONOS");
        Set<String> extra = new TreeSet<>(served());
        extra.removeAll(documented(true));
        assertEquals(Set.of(), extra, "served under ONOS but not documented");
    }

    /** "METHOD /tenants/{tenantId}" for each documented operation, without the embedded /api/v1 prefix. */
    static Set<String> documented(boolean withEmbeddedOnly) throws Exception {
        JsonNode paths = new ObjectMapper(new YAMLFactory()).readTree(DOCUMENT.toFile()).get("paths");
        Set<String> out = new TreeSet<>();
        for (Iterator<String> it = paths.fieldNames(); it.hasNext(); ) {
            String path = it.next();
            String relative = path.substring(ApiPaths.EMBEDDED_BASE.length());
            for (Iterator<String> ms = paths.get(path).fieldNames(); ms.hasNext(); ) {
                String name = ms.next();
                String m = name.toUpperCase(Locale.ROOT);
                boolean embeddedOnly = paths.get(path).get(name).path("x-embedded-only").asBoolean(false);
                if (Set.of("GET", "PUT", "POST", "DELETE", "PATCH").contains(m) && (withEmbeddedOnly || !embeddedOnly)) {
                    out.add(m + " " + relative);
                }
            }
        }
        return out;
    }

    /** The same form from the JAX-RS annotations of the application's resources, without /v1. */
    static Set<String> served() {
        Set<String> out = new TreeSet<>();
        for (Class<?> c : new FabricWebApplication().getClasses()) {
            javax.ws.rs.Path base = c.getAnnotation(javax.ws.rs.Path.class);
            if (base == null) {
                continue;
            }
            for (Method m : c.getMethods()) {
                String verb = verb(m);
                if (verb == null) {
                    continue;
                }
                javax.ws.rs.Path sub = m.getAnnotation(javax.ws.rs.Path.class);
                String path = "/" + base.value() + (sub == null ? "" : "/" + sub.value());
                out.add(verb + " " + path.substring(("/" + ApiPaths.VERSION).length()));
            }
        }
        return out;
    }

    private static String verb(Method m) {
        for (Annotation a : m.getAnnotations()) {
            HttpMethod h = a.annotationType().getAnnotation(HttpMethod.class);
            if (h != null) {
                return h.value();
            }
        }
        return null;
    }
}
