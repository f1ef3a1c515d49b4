package org.fairfabric.controller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * How the controller is started. The API token never has a default and never comes from the
 * command line (where {@code ps} would show it): {@code --token-file FILE} or the environment
 * variable {@code FF_API_TOKEN}.
 */
public final class ControllerSettings {
    public static final String USAGE = String.join("\n",
            "usage: fairfabric-controller --data-dir DIR [--netcfg FILE] [--http-host H] [--http-port N]",
            "                             [--kafka HOST:PORT] [--token-file FILE]",
            "  --data-dir DIR     where the journal (tenants, hosts, network configuration) lives",
            "  --netcfg FILE      ONOS network-config JSON; replaces the stored one when it differs",
            "  --http-host H      REST listen address (default 127.0.0.1)",
            "  --http-port N      REST port (default 8181; 0 picks a free one, printed on start)",
            "  --kafka HOST:PORT  Kafka bootstrap server for events (default $FAIRFABRIC_KAFKA; none: no events to Kafka)",
            "  --token-file FILE  file holding the bearer token for mutations (else $FF_API_TOKEN; required)");

    public final Path dataDir;
    public final Path netcfg;
    public final String httpHost;
    public final int httpPort;
    public final String kafka;
    public final String apiToken;

    private ControllerSettings(Path dataDir, Path netcfg, String httpHost, int httpPort, String kafka, String apiToken) {
        this.dataDir = dataDir;
        this.netcfg = netcfg;
        this.httpHost = httpHost;
        this.httpPort = httpPort;
        this.kafka = kafka;
        this.apiToken = apiToken;
    }

    public static ControllerSettings of(Path dataDir, Path netcfg, String httpHost, int httpPort, String kafka, String apiToken) {
        return new ControllerSettings(dataDir, netcfg, httpHost, httpPort, kafka, apiToken);
    }

    /** Parses the command line; throws IllegalArgumentException with a message for the user. */
    public static ControllerSettings parse(String[] args, Map<String, String> env) {
        Path dataDir = null;
        Path netcfg = null;
        Path tokenFile = null;
        String host = "127.0.0.1";
        int port = 8181;
        String kafka = env.get("FAIRFABRIC_KAFKA");
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
                default: throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        if (dataDir == null) {
            throw new IllegalArgumentException("--data-dir is required");
        }
        String token;
        if (tokenFile != null) {
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
        if (kafka != null && kafka.isBlank()) {
            kafka = null;
        }
        return new ControllerSettings(dataDir, netcfg, host, port, kafka, token);
    }
}
