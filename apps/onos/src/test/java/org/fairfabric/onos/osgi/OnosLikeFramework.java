package org.fairfabric.onos.osgi;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.jar.Attributes;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;

/**
 * Apache Felix with SCR and the bundles ONOS 2.7's API artifacts run with (every OSGi bundle of the
 * test class path: onos-api, onlab-*, onos-protocols-p4runtime-*, Jersey 2, Jackson 2.11, Guava
 * 22, Kryo, ...), plus onos-api's test adapters as a fragment of onos-api and a stub bundle that
 * registers them as ONOS's core services. What stands in for ONOS's runtime, which is not on Maven Central.
 */
final class OnosLikeFramework implements AutoCloseable {
    static final String FRAMEWORK_BSN = "org.apache.felix.framework";
    static final String SCR_BSN = "org.apache.felix.scr";
    static final String ONOS_API_BSN = "org.onosproject.onos-api";
    /** ServiceComponentRuntime's ComponentConfigurationDTO.ACTIVE. */
    static final int ACTIVE = 8;

    /**
     * Plain jars that ONOS's Karaf features install with a {@code wrap:} URL (an OSGi manifest
     * made on the fly); file-name prefix -> the symbolic name given to the wrapped bundle.
     */
    static final Map<String, String> WRAPPED = Map.of(
            "proto-google-common-protos-", "wrap_proto_google_common_protos",
            "grpc-core-", "wrap_grpc_core",
            "grpc-protobuf-lite-", "wrap_grpc_protobuf_lite");

    final Framework framework;
    final Map<String, String> skipped = new LinkedHashMap<>();

    OnosLikeFramework(Path storage, Set<String> excludedBundles) throws Exception {
        Map<String, String> config = new HashMap<>();
        config.put(Constants.FRAMEWORK_STORAGE, storage.toString());
        config.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        // What Karaf's config.properties adds for ONOS's libraries (Netty, Kryo, Guava).
        config.put(Constants.FRAMEWORK_SYSTEMPACKAGES_EXTRA, "sun.misc,sun.nio.ch,com.sun.management");
        framework = ServiceLoader.load(FrameworkFactory.class).iterator().next().newFramework(config);
        framework.start();
        for (Path jar : classPathJars()) {
            Attributes m = Jars.manifest(jar);
            String bsn = m == null ? null : m.getValue(Constants.BUNDLE_SYMBOLICNAME);
            if (bsn == null) {
                String wrapped = wrappedName(jar);
                if (wrapped != null) {
                    context().installBundle(wrap(jar, wrapped, storage.getParent()).toUri().toString());
                }
                continue;
            }
            String name = bsn.split(";")[0].trim();
            if (name.equals(FRAMEWORK_BSN) || excludedBundles.contains(name)) {
                continue;
            }
            try {
                context().installBundle(jar.toUri().toString());
            } catch (BundleException e) {
                skipped.put(jar.getFileName().toString(), e.getMessage());
            }
        }
    }

    private static String wrappedName(Path jar) {
        for (Map.Entry<String, String> w : WRAPPED.entrySet()) {
            if (jar.getFileName().toString().startsWith(w.getKey())) {
                return w.getValue();
            }
        }
        return null;
    }

    /** What Karaf's wrap: does: export every package of the jar, import whatever it uses dynamically. */
    static Path wrap(Path jar, String bsn, Path dir) throws IOException {
        String name = jar.getFileName().toString();
        String version = name.replaceAll(".*-(\\d+(\\.\\d+)*)\\.jar$", "$1");
        Map<String, byte[]> classes = new LinkedHashMap<>();
        Jars.copyClasses(jar, classes);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(Constants.BUNDLE_MANIFESTVERSION, "2");
        headers.put(Constants.BUNDLE_SYMBOLICNAME, bsn);
        headers.put(Constants.BUNDLE_VERSION, version);
        headers.put(Constants.EXPORT_PACKAGE, String.join(",", Jars.packages(jar).stream()
                .map(p -> p + ";version=\"" + version + "\"").toArray(String[]::new)));
        headers.put(Constants.DYNAMICIMPORT_PACKAGE, "*");
        return Jars.write(dir.resolve("wrapped-" + name), headers, classes);
    }

    BundleContext context() {
        return framework.getBundleContext();
    }

    Bundle bundle(String symbolicName) {
        for (Bundle b : context().getBundles()) {
            if (symbolicName.equals(b.getSymbolicName())) {
                return b;
            }
        }
        throw new IllegalStateException("no bundle " + symbolicName + " installed");
    }

    Bundle install(Path jar) throws BundleException {
        return context().installBundle(jar.toUri().toString());
    }

    /**
     * Component name -> state (ServiceComponentRuntime's ComponentConfigurationDTO state, 8 = active)
     * of every component of {@code bundle}; a component without configuration maps to 0.
     */
    Map<String, Integer> componentStates(Bundle bundle) throws Exception {
        Object scr = scr();
        Method descriptions = scr.getClass().getMethod("getComponentDescriptionDTOs", Bundle[].class);
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Object d : (java.util.Collection<?>) descriptions.invoke(scr, (Object) new Bundle[] {bundle})) {
            String name = (String) d.getClass().getField("name").get(d);
            Method configurations = scr.getClass().getMethod("getComponentConfigurationDTOs", d.getClass());
            int state = 0;
            for (Object c : (java.util.Collection<?>) configurations.invoke(scr, d)) {
                state = c.getClass().getField("state").getInt(c);
            }
            out.put(name, state);
        }
        return out;
    }

    /** The unsatisfied references of each component configuration of {@code bundle} (for failure messages). */
    String unsatisfied(Bundle bundle) throws Exception {
        Object scr = scr();
        StringBuilder out = new StringBuilder();
        Method descriptions = scr.getClass().getMethod("getComponentDescriptionDTOs", Bundle[].class);
        for (Object d : (java.util.Collection<?>) descriptions.invoke(scr, (Object) new Bundle[] {bundle})) {
            Method configurations = scr.getClass().getMethod("getComponentConfigurationDTOs", d.getClass());
            for (Object c : (java.util.Collection<?>) configurations.invoke(scr, d)) {
                Object refs = c.getClass().getField("unsatisfiedReferences").get(c);
                for (int i = 0; refs != null && i < Array.getLength(refs); i++) {
                    Object r = Array.get(refs, i);
                    out.append(d.getClass().getField("name").get(d)).append(" needs ")
                            .append(r.getClass().getField("target").get(r)).append(' ')
                            .append(r.getClass().getField("name").get(r)).append("; ");
                }
                Object failure = c.getClass().getFields().length > 0 ? fieldOrNull(c, "failure") : null;
                if (failure != null) {
                    out.append(d.getClass().getField("name").get(d)).append(" failed: ").append(failure).append("; ");
                }
            }
        }
        return out.toString();
    }

    /** SCR's runtime service; its API classes are SCR's, not the test's, so it is used reflectively. */
    private Object scr() throws Exception {
        ServiceReference<?>[] refs = context().getAllServiceReferences("org.osgi.service.component.runtime.ServiceComponentRuntime", null);
        if (refs == null) {
            throw new IllegalStateException("SCR is not running");
        }
        return context().getService(refs[0]);
    }

    private static Object fieldOrNull(Object o, String name) {
        try {
            return o.getClass().getField(name).get(o);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    static List<Path> classPathJars() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<Path> out = new ArrayList<>();
        for (String entry : cp.split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (entry.endsWith(".jar") && Files.isRegularFile(p)) {
                out.add(p);
            }
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        framework.stop();
        framework.waitForStop(10_000);
    }

    static void deleteQuietly(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
