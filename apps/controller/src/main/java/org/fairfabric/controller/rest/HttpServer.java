package org.fairfabric.controller.rest;

import java.security.KeyStore;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The Jetty configuration of the REST API (and whatever else the controller serves over HTTP):
 * one connector, plain HTTP or HTTPS, errors in the API's JSON shape, no server version header.
 */
public final class HttpServer {
    private HttpServer() {
    }

    /**
     * A server (not started) listening on {@code host:port} (0: a free port) that serves
     * {@code handler}; HTTPS with {@code tls} when it is not null.
     */
    public static Server create(String host, int port, Handler handler, PemCredentials tls) {
        Server server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        config.setSendXPoweredBy(false);
        // Paths with encoded separators, dot segments and the like are refused (400 in the JSON
        // shape) rather than guessed at: ids never contain them.
        config.setUriCompliance(UriCompliance.DEFAULT);
        ServerConnector connector;
        if (tls == null) {
            connector = new ServerConnector(server, new HttpConnectionFactory(config));
        } else {
            config.setSecureScheme("https");
            config.addCustomizer(new SecureRequestCustomizer(false)); // no SNI host check: served by IP address too
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            KeyStore keys = tls.keyStore();
            ssl.setKeyStore(keys);
            ssl.setKeyStorePassword(PemCredentials.IN_MEMORY_PASSWORD);
            ssl.setIncludeProtocols("TLSv1.3", "TLSv1.2");
            connector = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"), new HttpConnectionFactory(config));
        }
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        server.setErrorHandler(new JsonErrorHandler());
        server.setHandler(handler);
        return server;
    }

    /** The port the server listens on (after start). */
    public static int localPort(Server server) {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }
}
