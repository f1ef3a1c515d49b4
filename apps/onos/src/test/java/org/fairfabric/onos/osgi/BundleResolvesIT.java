package org.fairfabric.onos.osgi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleException;

/**
 * The .oar as ONOS would load it: its bundle installs into Felix next to ONOS 2.7's API bundles
 * and their dependencies, every import resolves, and SCR activates every component against stub
 * ONOS services. Runs after {@code package} (failsafe), on the .oar the build produced.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BundleResolvesIT {
    static final String OUR_BSN = "org.fairfabric.fairfabric-onos";
    static final Path TARGET = Path.of("target");

    Path work;
    Path oar;
    Path bundleJar;
    OnosLikeFramework felix;
    Bundle ours;

    @BeforeAll
    void start() throws Exception {
        try (Stream<Path> s = Files.list(TARGET)) {
            oar = s.filter(p -> p.toString().endsWith(".oar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no .oar under target/: run 'mvn verify'"));
        }
        work = Files.createTempDirectory("fairfabric-felix");
        String version = new String(Jars.entry(oar, "app.xml"), StandardCharsets.UTF_8).replaceAll("(?s).*<app [^>]*version=\"([^\"]+)\".*", "$1");
        byte[] jar = Jars.entry(oar, "m2/org/fairfabric/fairfabric-onos/" + version + "/fairfabric-onos-" + version + ".jar");
        assertNotNull(jar, "the .oar carries the bundle under m2/");
        bundleJar = Files.write(work.resolve("fairfabric-onos.jar"), jar);

        // ONOS has protobuf only as its own com_google_protobuf_protobuf_java bundle; the test class
        // path also has protobuf-java (from grpc-protobuf-lite), which ONOS does not install.
        // osgi.cmpn is a compile-time-only jar that must not resolve.
        felix = new OnosLikeFramework(work.resolve("cache"), Set.of(OUR_BSN, "com.google.protobuf", "osgi.cmpn"));
        felix.install(adapterFragment());
        Bundle stubs = felix.install(stubBundle());
        felix.bundle(OnosLikeFramework.SCR_BSN).start();
        stubs.start();
        ours = felix.install(bundleJar);
    }

    @AfterAll
    void stop() throws Exception {
        if (felix != null) {
            felix.close();
        }
        OnosLikeFramework.deleteQuietly(work);
    }

    @Test
    void everyImportResolvesAndEveryComponentActivates() throws Exception {
        try {
            ours.start();
        } catch (BundleException e) {
            fail("ONOS would refuse the bundle: " + e.getMessage() + "\nnot installed: " + felix.skipped);
        }
        assertEquals(Bundle.ACTIVE, ours.getState());

        Map<String, Integer> states = Map.of();
        for (int i = 0; i < 100; i++) {
            states = felix.componentStates(ours);
            if (!states.isEmpty() && states.values().stream().allMatch(s -> s == OnosLikeFramework.ACTIVE)) {
                break;
            }
            Thread.sleep(100);
        }
        assertEquals(components(), states.keySet(), "SCR knows every component the bundle declares");
        for (Map.Entry<String, Integer> e : states.entrySet()) {
            assertEquals(OnosLikeFramework.ACTIVE, e.getValue(), e.getKey() + " is not active: " + felix.unsatisfied(ours));
        }
        assertNotNull(felix.context().getServiceReference("org.fairfabric.onos.fabric.FairfabricService"));
        assertNotNull(felix.context().getServiceReference("org.fairfabric.onos.platform.FabricPlatform"),
                "the platform boundary (topology, PI programming, packet processor) is up");

        // the node leads (stub LeadershipService): the controller's components start inside the bundle
        Object platform = felix.context().getService(felix.context().getServiceReference("org.fairfabric.onos.platform.FabricPlatform"));
        java.lang.reflect.Method running = platform.getClass().getDeclaredMethod("componentsRunning");
        running.setAccessible(true);
        boolean started = false;
        for (int i = 0; i < 100 && !started; i++) {
            started = (Boolean) running.invoke(platform);
            if (!started) {
                Thread.sleep(100);
            }
        }
        assertTrue(started, "the leader runs the components (forwarding, routing groups, failure, probing) in the bundle");
        java.lang.reflect.Method runnerOf = platform.getClass().getDeclaredMethod("runner");
        runnerOf.setAccessible(true);
        Object runner = runnerOf.invoke(platform);
        for (String part : new String[] {"allocation", "guarantees"}) {
            java.lang.reflect.Method m = runner.getClass().getDeclaredMethod(part);
            m.setAccessible(true);
            assertNotNull(m.invoke(runner), "the leader runs the " + part + " component inside the bundle");
        }
        // the relay of packet-ins and the event publisher load from the bundle with what it imports
        ours.loadClass("org.fairfabric.onos.platform.RelayedPacketIn").getDeclaredMethods();
        ours.loadClass("org.fairfabric.controller.kafka.KafkaEventPublisher").getDeclaredMethods();
    }

    /**
     * The inlined Kafka client builds its admin client and producer from the bundle's classes even
     * when the calling thread's context class loader knows nothing of Kafka (as on ONOS's threads).
     * No broker listens at the address: topic creation gives up with a warning, the producer is
     * created anyway and retries later, as in embedded mode.
     */
    @Test
    void theKafkaSinkIsBuiltFromTheInlinedClientInsideTheBundle() throws Exception {
        ours.start();
        Class<?> sinkClass = ours.loadClass("org.fairfabric.controller.alloc.KafkaRatesSink");
        assertEquals(ours, org.osgi.framework.FrameworkUtil.getBundle(sinkClass), "KafkaRatesSink comes from our bundle");
        Class<?> producer = ours.loadClass("org.apache.kafka.clients.producer.KafkaProducer");
        assertEquals(ours, org.osgi.framework.FrameworkUtil.getBundle(producer), "kafka-clients is inlined");
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(new java.net.URLClassLoader(new java.net.URL[0], null));
        try {
            Object sink = sinkClass.getConstructor(String.class, String.class).newInstance("127.0.0.1:1", "ff.ctl.rates.v1");
            ((AutoCloseable) sink).close();
        } finally {
            t.setContextClassLoader(before);
        }
    }

    @Test
    void theWebApplicationAndItsResourcesLoadInsideTheBundle() throws Exception {
        ours.start();
        Object app = ours.loadClass("org.fairfabric.onos.rest.FabricWebApplication").getConstructor().newInstance();
        Set<?> classes = (Set<?>) app.getClass().getMethod("getClasses").invoke(app);
        // (failsafe's class path has the bundle jar, whose classes sit under WEB-INF/classes: count them there)
        long resourcesAndMappers;
        try (java.util.jar.JarFile f = new java.util.jar.JarFile(bundleJar.toFile())) {
            resourcesAndMappers = f.stream().map(java.util.jar.JarEntry::getName)
                    .filter(n -> n.matches("WEB-INF/classes/org/fairfabric/onos/rest/[A-Za-z]+(WebResource|Mapper)\\.class")).count();
        }
        assertEquals(resourcesAndMappers, classes.size());
        for (Object c : classes) {
            ((Class<?>) c).getMethods(); // links every JAX-RS and ONOS type the resource uses
        }
        ours.loadClass("org.glassfish.jersey.servlet.ServletContainer");
    }

    @Test
    void theOarCarriesTheAppTheFeatureTheWebContextAndThePipeconf() throws Exception {
        String app = new String(Jars.entry(oar, "app.xml"), StandardCharsets.UTF_8);
        assertTrue(app.contains("name=\"org.fairfabric\""), app);
        assertTrue(app.contains("features=\"fairfabric-onos\""), app);
        assertTrue(app.contains("apps=\"org.onosproject.drivers.bmv2\""), app);
        String features = Stream.of("m2/org/fairfabric/fairfabric-onos/")
                .map(p -> p).collect(Collectors.joining());
        byte[] featuresXml = null;
        String version = app.replaceAll("(?s).*<app [^>]*version=\"([^\"]+)\".*", "$1");
        featuresXml = Jars.entry(oar, features + version + "/fairfabric-onos-" + version + "-features.xml");
        assertNotNull(featuresXml, "features.xml in the .oar");
        String f = new String(featuresXml, StandardCharsets.UTF_8);
        assertTrue(f.contains("<feature name=\"fairfabric-onos\""), f);
        assertTrue(f.contains("<bundle>mvn:org.fairfabric/fairfabric-onos/" + version + "</bundle>"), f);

        Attributes m = Jars.manifest(bundleJar);
        assertEquals("/onos/fairfabric", m.getValue("Web-ContextPath"));
        assertEquals("org.fairfabric.onos.cli", m.getValue("Karaf-Commands"));
        assertNotNull(Jars.entry(bundleJar, "WEB-INF/web.xml"));
        assertNotNull(Jars.entry(bundleJar, "WEB-INF/classes/openapi/openapi.yaml"));
        assertNotNull(Jars.entry(bundleJar, "WEB-INF/classes/p4info.txt"), "the pipeconf's P4Info");
        assertNotNull(Jars.entry(bundleJar, "OSGI-INF/org.fairfabric.pipeconf.PipeconfLoader.xml"), "the pipeconf's component");
        for (String gui : new String[] {"fairfabricTopov/css.html", "fairfabricTopov/js.html",
                "app/view/fairfabricTopov/fairfabricTopovOverlay.js", "app/view/fairfabricTopov/fairfabricTopov.css"}) {
            assertNotNull(Jars.entry(bundleJar, "WEB-INF/classes/" + gui), "GUI resource " + gui);
        }
    }

    /** The component names the bundle's OSGI-INF declares. */
    Set<String> components() throws IOException {
        Set<String> out = new TreeSet<>();
        try (java.util.jar.JarFile f = new java.util.jar.JarFile(bundleJar.toFile())) {
            f.stream().map(java.util.jar.JarEntry::getName)
                    .filter(n -> n.startsWith("OSGI-INF/") && n.endsWith(".xml"))
                    .forEach(n -> out.add(n.substring("OSGI-INF/".length(), n.length() - ".xml".length())));
        }
        return out;
    }

    /** onos-api's test jar as a fragment of onos-api: its adapters live in onos-api's own packages. */
    Path adapterFragment() throws IOException {
        Path tests = jarOnClassPath("onos-api-", "-tests.jar");
        Path api = jarOnClassPath("onos-api-", ".jar", "-tests.jar");
        Set<String> own = Jars.packages(api);
        String exports = Jars.packages(tests).stream().filter(p -> !own.contains(p))
                .map(p -> p + ";version=\"2.7.0\"").collect(Collectors.joining(","));
        Map<String, byte[]> classes = new LinkedHashMap<>();
        Jars.copyClasses(tests, classes);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Bundle-ManifestVersion", "2");
        headers.put("Bundle-SymbolicName", "org.fairfabric.test.onos-api-adapters");
        headers.put("Bundle-Version", "2.7.0");
        headers.put("Fragment-Host", OnosLikeFramework.ONOS_API_BSN);
        if (!exports.isEmpty()) {
            headers.put("Export-Package", exports);
        }
        return Jars.write(work.resolve("onos-api-adapters.jar"), headers, classes);
    }

    /** A bundle whose activator registers the adapters as ONOS's services. */
    Path stubBundle() throws IOException {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        Path dir = Path.of(StubServicesActivator.class.getResource("StubServicesActivator.class").getPath()).getParent();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path c : (Iterable<Path>) s.filter(p -> p.getFileName().toString().startsWith("StubServicesActivator"))::iterator) {
                classes.put("org/fairfabric/onos/osgi/" + c.getFileName(), Files.readAllBytes(c));
            }
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Bundle-ManifestVersion", "2");
        headers.put("Bundle-SymbolicName", "org.fairfabric.test.onos-stubs");
        headers.put("Bundle-Version", "1.0.0");
        headers.put("Bundle-Activator", StubServicesActivator.class.getName());
        headers.put("Import-Package", "org.osgi.framework,org.onosproject.core,org.onosproject.net,org.onosproject.net.config,org.onosproject.net.device,org.onosproject.net.link,"
                + "org.onosproject.net.pi,org.onosproject.net.pi.service,org.onosproject.store.service,org.onosproject.ui,"
                + "org.onosproject.net.host,org.onosproject.net.flow,org.onosproject.net.group,org.onosproject.net.packet,"
                + "org.onosproject.cluster,org.onosproject.store.cluster.messaging,org.onlab.packet");
        return Jars.write(work.resolve("onos-stubs.jar"), headers, classes);
    }

    static Path jarOnClassPath(String prefix, String suffix, String... notSuffix) {
        for (Path p : OnosLikeFramework.classPathJars()) {
            String n = p.getFileName().toString();
            if (n.startsWith(prefix) && n.endsWith(suffix) && Stream.of(notSuffix).noneMatch(n::endsWith)
                    && n.substring(prefix.length()).matches("\\d.*")) {
                return p;
            }
        }
        throw new IllegalStateException("no " + prefix + "*" + suffix + " on the test class path");
    }
}
