package org.fairfabric.controller.p4rt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fairfabric.controller.netcfg.GrpcAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.CapabilitiesRequest;

/**
 * P4Runtime over TLS with the real p4switch: {@code p4switch run --tls-cert --tls-key} serves
 * grpcs, the controller's agent verifies the switch's certificate against its trust bundle and
 * programs the switch; a switch whose certificate the bundle does not vouch for is refused, and so
 * is a plaintext client.
 */
class P4RuntimeTlsTest {
    @TempDir
    Path tmp;

    @Test
    void theControllerTalksTlsToASwitchItTrustsAndRefusesOneItDoesNot() throws Exception {
        Path bin = P4SwitchAgentTest.binary();
        Path cert = selfSigned("switch");
        Path other = selfSigned("other");
        P4Info p4info = P4InfoIndex.parseText(P4SwitchProcess.tool(bin, "p4info", P4SwitchAgentTest.PROGRAM.toString()));
        Path bundle = tmp.resolve("l3router.bundle");
        P4SwitchProcess.tool(bin, "bundle", P4SwitchAgentTest.PROGRAM.toString(), "-o", bundle.toString());
        try (P4SwitchProcess sw = new P4SwitchProcess(bin, 1, tmp.resolve("p4switch.log"),
                List.of("--tls-cert", cert.toString(), "--tls-key", tmp.resolve("switch.key").toString()))) {
            sw.start();
            GrpcAddress address = GrpcAddress.parse("grpcs://127.0.0.1:" + sw.port + "?device_id=1");
            assertTrue(address.tls);

            ManagedChannel trusted = ChannelSecurity.trusting(cert).open(address, 1 << 20);
            try (DeviceAgent agent = new DeviceAgent("tls", trusted, 1, DeviceAgent.electionIdNow(), new DeviceListener() { }, 8)) {
                agent.setPipeline(p4info, Files.readAllBytes(bundle));
                agent.start();
                DeviceAgentTest.await("ready over TLS", agent::ready);
            } finally {
                trusted.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }

            for (ManagedChannel refused : List.of(ChannelSecurity.trusting(other).open(address, 1 << 20),
                    ChannelSecurity.systemTrust().open(address, 1 << 20),
                    ChannelSecurity.systemTrust().open(new GrpcAddress("127.0.0.1", sw.port, 1, false), 1 << 20))) {
                try {
                    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> P4RuntimeGrpc.newBlockingStub(refused)
                            .withDeadlineAfter(20, TimeUnit.SECONDS).capabilities(CapabilitiesRequest.getDefaultInstance()));
                    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
                } finally {
                    refused.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
                }
            }
        }
    }

    @Test
    void managementAddressesKeepTheirScheme() {
        assertFalse(GrpcAddress.parse("grpc://10.0.0.1:50001?device_id=3").tls);
        assertEquals("grpcs://10.0.0.1:50001?device_id=3", GrpcAddress.parse("grpcs://10.0.0.1:50001?device_id=3").toString());
        assertThrows(IllegalArgumentException.class, () -> GrpcAddress.parse("https://10.0.0.1:50001?device_id=3"));
        assertThrows(IllegalArgumentException.class, () -> ChannelSecurity.trusting(tmp.resolve("missing.pem")));
    }

    private Path selfSigned(String name) throws Exception {
        Path cert = tmp.resolve(name + ".pem");
        Process p = new ProcessBuilder(List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes", "-days", "2", "-subj", "/CN=fairfabric " + name, "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", tmp.resolve(name + ".key").toString(), "-out", cert.toString()))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        return cert;
    }
}
