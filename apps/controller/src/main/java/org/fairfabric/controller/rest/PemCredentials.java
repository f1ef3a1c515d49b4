package org.fairfabric.controller.rest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server's certificate chain and private key from PEM files (as openssl writes them: the key in
 * PKCS#8, "BEGIN PRIVATE KEY"), turned into an in-memory key store for Jetty.
 */
public final class PemCredentials {
    static final String IN_MEMORY_PASSWORD = "in-memory";
    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z ]+)-----([^-]*)-----END \\1-----");

    private final Path certFile;
    private final Path keyFile;

    public PemCredentials(Path certFile, Path keyFile) {
        this.certFile = certFile;
        this.keyFile = keyFile;
    }

    public Path certFile() {
        return certFile;
    }

    /** Reads both files; throws IllegalArgumentException naming the file when one is unusable. */
    public KeyStore keyStore() {
        List<Certificate> chain = new ArrayList<>();
        try {
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            for (byte[] der : blocks(certFile, "CERTIFICATE")) {
                chain.add(cf.generateCertificate(new ByteArrayInputStream(der)));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(certFile + ": not a PEM certificate: " + e.getMessage(), e);
        }
        if (chain.isEmpty()) {
            throw new IllegalArgumentException(certFile + ": no 'BEGIN CERTIFICATE' block");
        }
        List<byte[]> keys = blocks(keyFile, "PRIVATE KEY");
        if (keys.size() != 1) {
            throw new IllegalArgumentException(keyFile + ": expected one PKCS#8 'BEGIN PRIVATE KEY' block, found " + keys.size());
        }
        PrivateKey key = null;
        for (String algorithm : new String[] {"EC", "RSA", "Ed25519"}) {
            try {
                key = KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(keys.get(0)));
                break;
            } catch (GeneralSecurityException e) {
                // try the next algorithm
            }
        }
        if (key == null) {
            throw new IllegalArgumentException(keyFile + ": not an EC, RSA or Ed25519 PKCS#8 private key");
        }
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("server", key, IN_MEMORY_PASSWORD.toCharArray(), chain.toArray(new Certificate[0]));
            return ks;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException(certFile + " / " + keyFile + ": key and certificate do not fit: " + e.getMessage(), e);
        }
    }

    private static List<byte[]> blocks(Path file, String type) {
        String pem;
        try {
            pem = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        List<byte[]> out = new ArrayList<>();
        Matcher m = BLOCK.matcher(pem);
        while (m.find()) {
            if (m.group(1).equals(type)) {
                out.add(Base64.getMimeDecoder().decode(m.group(2)));
            }
        }
        return out;
    }
}
