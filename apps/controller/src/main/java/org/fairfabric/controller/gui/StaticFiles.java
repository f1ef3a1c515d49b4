package org.fairfabric.controller.gui;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Serves the built web GUI (apps/gui/dist) for every GET outside /api/: {@code /} is index.html.
 * Files are read from disk on each request (a handful of small files, one operator at a time).
 */
public final class StaticFiles {
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml",
            "png", "image/png",
            "json", "application/json; charset=utf-8",
            "map", "application/json; charset=utf-8");

    private final Path root;

    /** {@code root} may be null or missing: then every page says how to build the GUI. */
    public StaticFiles(Path root) {
        this.root = root == null ? null : root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    public void handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            answer(response, callback, 405, "text/plain; charset=utf-8", bytes(method + " is not allowed on the GUI's files\n"));
            return;
        }
        if (root == null || !Files.isRegularFile(root.resolve("index.html"))) {
            answer(response, callback, 503, "text/html; charset=utf-8", bytes("<!doctype html><title>fairfabric</title>"
                    + "<p>The web GUI is not built (no " + (root == null ? "GUI directory" : root.resolve("index.html"))
                    + "). Run <code>./fairfabric setup</code>. The REST API is at <a href=\"/api/v1/openapi.yaml\">/api/v1</a>.</p>"));
            return;
        }
        String path = request.getHttpURI().getDecodedPath();
        if (path.equals("/") || path.isEmpty()) {
            path = "/index.html";
        }
        Path file = root.resolve(path.substring(1)).normalize();
        if (!file.startsWith(root) || !Files.isRegularFile(file)) {
            answer(response, callback, 404, "text/plain; charset=utf-8", bytes("no such page: " + path + "\n"));
            return;
        }
        byte[] body;
        try {
            body = Files.readAllBytes(file);
        } catch (IOException e) {
            answer(response, callback, 500, "text/plain; charset=utf-8", bytes("reading " + path + " failed: " + e.getMessage() + "\n"));
            return;
        }
        String name = file.getFileName().toString();
        String ext = name.substring(name.lastIndexOf('.') + 1);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        answer(response, callback, 200, TYPES.getOrDefault(ext, "application/octet-stream"), method.equals("HEAD") ? new byte[0] : body);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void answer(Response response, Callback callback, int status, String type, byte[] body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /** $FF_GUI_DIR when set, else {@link #defaultRoot()}. */
    public static Path configuredRoot() {
        String env = System.getenv("FF_GUI_DIR");
        return env != null && !env.isBlank() ? Path.of(env) : defaultRoot();
    }

    /**
     * Where the GUI is when none is given: apps/gui/dist of the source tree the controller's
     * classes were built in (apps/controller/target/classes), if it exists.
     */
    public static Path defaultRoot() {
        try {
            Path classes = Path.of(StaticFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dist = classes.resolve("../../../gui/dist").normalize();
            return Files.isDirectory(dist) ? dist : null;
        } catch (Exception e) {
            return null;
        }
    }
}
