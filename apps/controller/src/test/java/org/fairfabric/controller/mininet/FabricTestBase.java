package org.fairfabric.controller.mininet;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * One Mininet fabric and one controller process for a whole test class; the tests run in
 * {@code @Order} and each leaves the fabric as it found it.
 */
@Tag("mininet")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class FabricTestBase {
    static final int FLOWS = 64;

    @TempDir
    static Path work;
    MininetFabric fabric;
    FabricController ctl;

    /** The topology the driver builds: {@code fattree} or {@code leafspine}. */
    abstract String topology();

    /** The rate of every link, Mbit/s. */
    abstract double linkMbit();

    /** The controller's vFab echo interval. */
    long echoIntervalMs() {
        return FabricController.ECHO_INTERVAL_MS;
    }

    /** Node name prefix (keeps interface names and rates-table keys apart from other classes' fabrics). */
    String prefix() {
        return "cj";
    }

    /** Whether every host runs the host shim. */
    boolean shims() {
        return false;
    }

    /** More driver options (fairfabric_mn.driver). */
    java.util.List<String> driverArgs() {
        return java.util.List.of();
    }

    /** More controller options. */
    java.util.List<String> controllerArgs() {
        return java.util.List.of();
    }

    @BeforeAll
    void startFabric() throws Exception {
        fabric = MininetFabric.start(topology(), prefix(), linkMbit(), work.resolve("fabric"), shims(), driverArgs());
        ctl = FabricController.start(fabric, work.resolve("controller"), echoIntervalMs(), controllerArgs());
    }

    @AfterAll
    void stopFabric() throws Exception {
        try {
            if (ctl != null) {
                ctl.close();
            }
        } finally {
            if (fabric != null) {
                fabric.close();
            }
        }
    }

    /** The machine's load average, printed beside every figure. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (java.io.IOException e) {
            return "?";
        }
    }
}
