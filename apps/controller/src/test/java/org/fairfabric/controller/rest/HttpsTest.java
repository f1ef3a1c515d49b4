package org.fairfabric.controller.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.fairfabric.controller.Controller;
import org.fairfabric.controller.ControllerSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS for the REST API (and GUI): served with the given certificate, a client that trusts another refuses it. */
class HttpsTest {
    static final String TOKEN = "https-test-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void servesHttpsWithTheGivenCertificateAndAWrongOneIsRefused() throws Exception {
        Path cert = selfSigned("right");
        Path other = selfSigned("wrong");
        ControllerSettings s = ControllerSettings.of(dir.resolve("data"), RestApiTest.LEAF_SPINE, "127.0.0.1", 0, null, TOKEN)
                .withHttps(new PemCredentials(cert, dir.resolve("right.key")));
        try (Controller controller = Controller.start(s)) {
            assertTrue(controller.baseUrl().startsWith("https://127.0.0.1:"), controller.baseUrl());
            HttpClient trusting = HttpClient.newBuilder().sslContext(trusting(cert)).build();
            HttpResponse<String> health = trusting.send(HttpRequest.newBuilder(URI.create(controller.baseUrl() + "/api/v1/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode(), health.body());
            HttpResponse<String> created = trusting.send(HttpRequest.newBuilder(URI.create(controller.baseUrl() + "/api/v1/tenants"))
                    .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"blue\",\"weight\":1}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, created.statusCode(), created.body());

            HttpClient wrong = HttpClient.newBuilder().sslContext(trusting(other)).build();
            assertThrows(SSLHandshakeException.class, () -> wrong.send(
                    HttpRequest.newBuilder(URI.create(controller.baseUrl() + "/api/v1/health")).build(), HttpResponse.BodyHandlers.ofString()));
            HttpClient systemTrust = HttpClient.newHttpClient();
            assertThrows(SSLHandshakeException.class, () -> systemTrust.send(
                    HttpRequest.newBuilder(URI.create(controller.baseUrl() + "/api/v1/health")).build(), HttpResponse.BodyHandlers.ofString()));

            String plain = controller.baseUrl().replace("https://", "http://") + "/api/v1/health";
            boolean servedPlain;
            try {
                servedPlain = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(plain)).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
            } catch (IOException e) {
                servedPlain = false;
            }
            assertFalse(servedPlain, "plain HTTP must not be served on the HTTPS port");
        }
    }

    @Test
    void unusableCredentialsStopTheStartWithAMessageNamingTheFile() throws Exception {
        Path cert = selfSigned("right");
        Path garbage = Files.writeString(dir.resolve("garbage.key"), "not a key");
        ControllerSettings s = ControllerSettings.of(dir.resolve("data"), RestApiTest.LEAF_SPINE, "127.0.0.1", 0, null, TOKEN)
                .withHttps(new PemCredentials(cert, garbage));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Controller.start(s));
        assertTrue(e.getMessage().contains("garbage.key"), e.getMessage());
    }

    @Test
    void theTokenFileMustBePrivateAndTheRefusalDoesNotShowTheToken() throws Exception {
        Path open = Files.writeString(dir.resolve("open-token"), TOKEN);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        String[] args = {"--data-dir", dir.toString(), "--token-file", open.toString()};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ControllerSettings.parse(args, Map.of()));
        assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
        assertFalse(e.getMessage().contains(TOKEN), e.getMessage());

        Path mine = dir.resolve("token");
        TokenFiles.write(mine, TOKEN);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(mine)));
        ControllerSettings ok = ControllerSettings.parse(new String[] {"--data-dir", dir.toString(), "--token-file", mine.toString()}, Map.of());
        assertEquals(TOKEN, ok.apiToken);
        assertThrows(IllegalArgumentException.class, () -> ControllerSettings.parse(
                new String[] {"--data-dir", dir.toString(), "--token-file", mine.toString(), "--tls-cert", "c.pem"}, Map.of()));
    }

    /** A self-signed EC certificate for 127.0.0.1 (openssl writes the key as PKCS#8): NAME.pem and NAME.key. */
    private Path selfSigned(String name) throws Exception {
        Path cert = dir.resolve(name + ".pem");
        Process p = new ProcessBuilder(List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes", "-days", "2", "-subj", "/CN=fairfabric " + name, "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", dir.resolve(name + ".key").toString(), "-out", cert.toString()))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        return cert;
    }

    private static SSLContext trusting(Path cert) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        try (InputStream in = Files.newInputStream(cert)) {
            ks.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }
}
