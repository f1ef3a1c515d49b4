package org.fairfabric.controller.p4rt;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLException;
import org.fairfabric.controller.netcfg.GrpcAddress;

/**
 * How the controller opens its P4Runtime channels: plaintext for {@code grpc://} addresses; TLS for
 * {@code grpcs://}, with the switch's certificate verified (chain and host name) against a PEM
 * trust bundle, or the JVM's default trust store when none is given. A switch whose certificate
 * does not verify is never talked to: its agent keeps reconnecting and stays unavailable.
 */
public final class ChannelSecurity {
    private final Path trustFile;

    private ChannelSecurity(Path trustFile) {
        this.trustFile = trustFile;
    }

    public static ChannelSecurity systemTrust() {
        return new ChannelSecurity(null);
    }

    /** Trusts the certificates (CAs or the switches' own) in a PEM file. */
    public static ChannelSecurity trusting(Path pemFile) {
        if (!Files.isReadable(pemFile)) {
            throw new IllegalArgumentException("--p4rt-trust " + pemFile + " is not a readable file");
        }
        return new ChannelSecurity(pemFile);
    }

    public ManagedChannel open(GrpcAddress address, int maxInboundMessageBytes) {
        NettyChannelBuilder b = NettyChannelBuilder.forAddress(address.host, address.port).maxInboundMessageSize(maxInboundMessageBytes);
        if (!address.tls) {
            return b.usePlaintext().build();
        }
        SslContextBuilder ssl = GrpcSslContexts.forClient();
        if (trustFile != null) {
            ssl.trustManager(trustFile.toFile());
        }
        try {
            return b.sslContext(ssl.build()).build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("P4Runtime TLS to " + address + ": cannot use the trust bundle " + trustFile + ": " + e.getMessage(), e);
        }
    }
}
