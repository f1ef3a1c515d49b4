package org.fairfabric.controller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.fairfabric.controller.alloc.CapacityHeadroom;
import org.fairfabric.controller.fack.FackSettings;
import org.fairfabric.controller.p4rt.ChannelSecurity;
import org.fairfabric.controller.rest.PemCredentials;
import org.fairfabric.controller.rest.TokenFiles;
import org.fairfabric.controller.routing.RoutingMode;

/**
 * How the controller is started. The API token never has a default and never comes from the
 * command line (where {@code ps} would show it): {@code --token-file FILE} or the environment
 * variable {@code FF_API_TOKEN}.
 */
public final class ControllerSettings {
    public static final String USAGE = String.join("\n",
            "usage: fairfabric-controller --data-dir DIR [--netcfg FILE] [--http-host H] [--http-port N]",
            "                             [--kafka HOST:PORT] [--token-file FILE] [--p4info FILE --p4-device-config FILE]",
            "                             [--echo-interval-ms N] [--tls-cert FILE --tls-key FILE] [--p4rt-trust FILE]",
            "  --data-dir DIR     where the journal (tenants, hosts, network configuration) lives",
            "  --netcfg FILE      ONOS network-config JSON; replaces the stored one when it differs",
            "  --http-host H      REST listen address (default 127.0.0.1)",
            "  --http-port N      REST port (default 8181; 0 picks a free one, printed on start)",
            "  --kafka HOST:PORT  Kafka bootstrap server for events (default $FAIRFABRIC_KAFKA; none: no events to Kafka)",
            "  --token-file FILE  file holding the bearer token for mutations (else $FF_API_TOKEN; required)",
            "  --p4info FILE      P4Info (text format) of the pipeline to push to every switch",
            "  --p4-device-config FILE  the target's device config for that pipeline (p4switch: 'p4switch bundle' output)",
            "  --echo-interval-ms N     vFab echo interval (default 250): a link without replies for 3 intervals fails",
            "  --tls-cert FILE    serve the REST API and GUI over HTTPS with this PEM certificate (chain)",
            "  --tls-key FILE     ... and this PEM private key (PKCS#8, 'BEGIN PRIVATE KEY'); the token file must be 0600",
            "  --p4rt-trust FILE  PEM certificates that grpcs:// switches' certificates must verify against",
            "                     (default: the JVM's trust store); grpc:// switches are plaintext",
            "  --fack-dscp LIST   P4TE FACK rate control on for these DSCPs (e.g. 0,10; default: off)",
            "  --fack-min-bytes N at most one FACK per N bytes of a flow (default 5000)",
            "  --routing MODE     pinned (default: the allocator's paths, tagged by the shims) or ecmp (switches hash",
            "                     flows over equal-cost uplinks; shims limit each session's total only)",
            "  --headroom F       keep the fraction F (0-0.5, e.g. 0.03) of every link out of allocations and guarantees,",
            "                     for what no allocation counts: TCP's ACKs, ARP, probes (default 0)");

    public final Path dataDir;
    public final Path netcfg;
    public final String httpHost;
    public final int httpPort;
    public final String kafka;
    public final String apiToken;
    /** Both null, or both set: the pipeline pushed to every switch. */
    public final Path p4info;
    public final Path p4DeviceConfig;
    /** vFab echo interval: software switches on a busy machine may need more than the default. */
    public final long echoIntervalMs;
    /** The HTTPS certificate and key of the REST API and GUI; null: plain HTTP. */
    public final PemCredentials https;
    /** What grpcs:// switches' certificates are verified against. */
    public final ChannelSecurity p4rtSecurity;
    /** P4TE FACK (off unless --fack-dscp). */
    public final FackSettings fack;
    /** Pinned paths (default) or ECMP. */
    public final RoutingMode routing;
    /** The share of every link that allocations leave free (none unless --headroom). */
    public final CapacityHeadroom headroom;

    private ControllerSettings(Path dataDir, Path netcfg, String httpHost, int httpPort, String kafka, String apiToken,
                               Path p4info, Path p4DeviceConfig, long echoIntervalMs, PemCredentials https,
                               ChannelSecurity p4rtSecurity, FackSettings fack, RoutingMode routing, CapacityHeadroom headroom) {
        this.headroom = headroom;
        this.routing = routing;
        this.fack = fack;
        this.https = https;
        this.p4rtSecurity = p4rtSecurity;
        this.dataDir = dataDir;
        this.netcfg = netcfg;
        this.httpHost = httpHost;
        this.httpPort = httpPort;
        this.kafka = kafka;
        this.apiToken = apiToken;
        this.p4info = p4info;
        this.p4DeviceConfig = p4DeviceConfig;
        this.echoIntervalMs = echoIntervalMs;
    }

    public static ControllerSettings of(Path dataDir, Path netcfg, String httpHost, int httpPort, String kafka, String apiToken) {
        return new ControllerSettings(dataDir, netcfg, httpHost, httpPort, kafka, apiToken, null, null, Controller.ECHO_INTERVAL_MS,
                null, ChannelSecurity.systemTrust(), FackSettings.OFF, RoutingMode.PINNED, CapacityHeadroom.NONE);
    }

    public ControllerSettings withPipeline(Path p4infoFile, Path deviceConfigFile) {
        return new ControllerSettings(dataDir, netcfg, httpHost, httpPort, kafka, apiToken, p4infoFile, deviceConfigFile,
                echoIntervalMs, https, p4rtSecurity, fack, routing, headroom);
    }

    /** The same settings, serving HTTPS with {@code credentials} (null: plain HTTP). */
    public ControllerSettings withHttps(PemCredentials credentials) {
        return new ControllerSettings(dataDir, netcfg, httpHost, httpPort, kafka, apiToken, p4info, p4DeviceConfig, echoIntervalMs,
                credentials, p4rtSecurity, fack, routing, headroom);
    }

    /** The same settings, verifying grpcs:// switches as {@code security} says. */
    public ControllerSettings withP4RuntimeSecurity(ChannelSecurity security) {
        return new ControllerSettings(dataDir, netcfg, httpHost, httpPort, kafka, apiToken, p4info, p4DeviceConfig, echoIntervalMs,
                https, security, fack, routing, headroom);
    }

    /** The same settings with FACK as {@code fackSettings} says. */
    public ControllerSettings withFack(FackSettings fackSettings) {
        return new ControllerSettings(dataDir, netcfg, httpHost, httpPort, kafka, apiToken, p4info, p4DeviceConfig, echoIntervalMs,
                https, p4rtSecurity, fackSettings, routing, headroom);
    }

    /** The same settings with {@code mode} routing. */
    public ControllerSettings withRouting(RoutingMode mode) {
        return new ControllerSettings(dataDir, netcfg, httpHost, httpPort, kafka, apiToken, p4info, p4DeviceConfig, echoIntervalMs,
                https, p4rtSecurity, fack, mode, headroom);
    }

    /** Parses the command line; throws IllegalArgumentException with a message for the user. */
    public static ControllerSettings parse(String[] args, Map<String, String> env) {
        Path dataDir = null;
        Path netcfg = null;
        Path tokenFile = null;
        Path p4info = null;
        Path p4DeviceConfig = null;
        String host = "127.0.0.1";
        int port = 8181;
        String kafka = env.get("FAIRFABRIC_KAFKA");
        long echoMs = Controller.ECHO_INTERVAL_MS;
        Path tlsCert = null;
        Path tlsKey = null;
        ChannelSecurity p4rt = ChannelSecurity.systemTrust();
        String fackDscp = null;
        String fackMinBytes = null;
        RoutingMode routing = RoutingMode.PINNED;
        CapacityHeadroom headroom = CapacityHeadroom.NONE;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a.startsWith("--") ? a + " needs a value" : "unexpected argument '" + a + "'");
            }
            String v = args[++i];
            switch (a) {
                case "--data-dir": dataDir = Path.of(v); break;
                case "--netcfg": netcfg = Path.of(v); break;
                case "--http-host": host = v; break;
                case "--http-port":
                    try {
                        port = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        port = -1;
                    }
                    if (port < 0 || port > 65535) {
                        throw new IllegalArgumentException("--http-port must be 0-65535, got '" + v + "'");
                    }
                    break;
                case "--kafka": kafka = v; break;
                case "--token-file": tokenFile = Path.of(v); break;
                case "--p4info": p4info = Path.of(v); break;
                case "--tls-cert": tlsCert = Path.of(v); break;
                case "--tls-key": tlsKey = Path.of(v); break;
                case "--p4rt-trust": p4rt = ChannelSecurity.trusting(Path.of(v)); break;
                case "--p4-device-config": p4DeviceConfig = Path.of(v); break;
                case "--fack-dscp": fackDscp = v; break;
                case "--fack-min-bytes": fackMinBytes = v; break;
                case "--routing": routing = RoutingMode.parse(v); break;
                case "--headroom": headroom = CapacityHeadroom.parse("--headroom", v); break;
                case "--echo-interval-ms":
                    try {
                        echoMs = Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        echoMs = -1;
                    }
                    if (echoMs < 10 || echoMs > 60_000) {
                        throw new IllegalArgumentException("--echo-interval-ms must be 10-60000, got '" + v + "'");
                    }
                    break;
                default: throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        FackSettings fack = FackSettings.parse(fackDscp, fackMinBytes);
        if (dataDir == null) {
            throw new IllegalArgumentException("--data-dir is required");
        }
        String token;
        if (tokenFile != null) {
            TokenFiles.requirePrivate(tokenFile);
            try {
                token = Files.readString(tokenFile).strip();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read --token-file " + tokenFile, e);
            }
        } else {
            token = env.get("FF_API_TOKEN");
        }
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("no API token: set FF_API_TOKEN or pass --token-file FILE (there is no default)");
        }
        if ((p4info == null) != (p4DeviceConfig == null)) {
            throw new IllegalArgumentException("--p4info and --p4-device-config go together");
        }
        if (kafka != null && kafka.isBlank()) {
            kafka = null;
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together");
        }
        PemCredentials https = tlsCert == null ? null : new PemCredentials(tlsCert, tlsKey);
        return new ControllerSettings(dataDir, netcfg, host, port, kafka, token, p4info, p4DeviceConfig, echoMs, https, p4rt, fack, routing, headroom);
    }
}
