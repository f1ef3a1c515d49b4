package org.fairfabric.controller.rest;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.fairfabric.api.dto.ErrorDto;
import org.fairfabric.api.error.ApiException;
import org.fairfabric.api.error.BadRequestException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Jetty handler that serves a route table: matches method and path, checks the bearer token
 * on mutations, reads the body (JSON, at most {@link #MAX_BODY} bytes) and turns
 * {@link ApiException}s into their status with an {@link ErrorDto} body.
 */
public final class HttpApi extends Handler.Abstract {
    public static final int MAX_BODY = 4 << 20;
    private static final Logger LOG = LoggerFactory.getLogger(HttpApi.class);

    private final List<Route> routes;
    private final BearerAuth auth;

    public HttpApi(List<Route> routes, BearerAuth auth) {
        this.routes = List.copyOf(routes);
        this.auth = auth;
    }

    public List<Route> routes() {
        return routes;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Reply reply;
        try {
            reply = dispatch(request);
        } catch (ApiException e) {
            reply = Reply.status(e.status(), new ErrorDto(e.status(), e.field(), e.getMessage()));
        } catch (RuntimeException e) {
            LOG.error("{} {} failed", request.getMethod(), request.getHttpURI().getPath(), e);
            reply = Reply.status(500, new ErrorDto(500, null, "internal error: " + e.getClass().getSimpleName()));
        }
        response.setStatus(reply.status);
        if (reply.contentType != null) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.contentType + "; charset=utf-8");
        }
        if (reply.location != null) {
            response.getHeaders().put(HttpHeader.LOCATION, reply.location);
        }
        if (reply.allow != null) {
            response.getHeaders().put(HttpHeader.ALLOW, reply.allow);
        }
        if (reply.status == 401) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
        }
        if (reply.closeConnection) {
            // the unread body stays on the wire: nothing may follow it on this connection
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        byte[] body = reply.body.getBytes(StandardCharsets.UTF_8);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        if (request.getMethod().equals("HEAD")) {
            callback.succeeded(); // HEAD: the headers GET would send, no body
        } else {
            response.write(true, ByteBuffer.wrap(body), callback);
        }
        return true;
    }

    private Reply dispatch(Request request) {
        String path = request.getHttpURI().getDecodedPath();
        if (path == null) {
            throw new BadRequestException(null, "the request has no path");
        }
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        String method = request.getMethod();
        // Read the body before any answer, even a refusal: an unread body makes the server drop the
        // connection, which a client that already sent its next request on it sees as a reset.
        boolean takesBody = !method.equals("GET") && !method.equals("HEAD");
        String body;
        try {
            body = body(request, takesBody);
        } catch (PayloadTooLarge e) {
            return Reply.status(413, new ErrorDto(413, null, e.getMessage())).closingConnection();
        }
        String routeMethod = method.equals("HEAD") ? "GET" : method;
        Set<String> allowed = new TreeSet<>();
        for (Route r : routes) {
            Map<String, String> params = r.match(path);
            if (params == null) {
                continue;
            }
            allowed.add(r.method);
            if (!r.method.equals(routeMethod)) {
                continue;
            }
            if (r.mutating() && !auth.allows(request.getHeaders().get(HttpHeader.AUTHORIZATION))) {
                return Reply.status(401, new ErrorDto(401, null, "this operation needs 'Authorization: Bearer <token>' with the controller's API token"));
            }
            if (takesBody && !body.isEmpty()) {
                requireJson(request);
            }
            return r.handle(new Call(params, query(request), body));
        }
        if (!allowed.isEmpty()) {
            if (allowed.contains("GET")) {
                allowed.add("HEAD");
            }
            return Reply.status(405, new ErrorDto(405, null, method + " is not allowed on " + path
                    + " (allowed: " + String.join(", ", allowed) + ")")).allowing(String.join(", ", allowed));
        }
        return Reply.status(404, new ErrorDto(404, null, "no such resource: " + path + " (the API is under /api/v1, see /api/v1/openapi.yaml)"));
    }

    /**
     * The body as text, at most {@link #MAX_BODY} bytes. Always read to its end (also for GET,
     * whose body is ignored), so that the connection is in a known state when the answer goes out.
     */
    private static String body(Request request, boolean takesBody) {
        long declared = request.getLength();
        if (declared > MAX_BODY) {
            throw new PayloadTooLarge();
        }
        if (declared == 0) {
            return "";
        }
        try {
            byte[] bytes = Content.Source.asByteArrayAsync(request, MAX_BODY).get();
            return takesBody ? new String(bytes, StandardCharsets.UTF_8) : "";
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IllegalArgumentException) {
                throw new PayloadTooLarge(); // a chunked body over the limit
            }
            throw new BadRequestException(null, "the request body could not be read: " + e.getCause().getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the request body", e);
        }
    }

    private static void requireJson(Request request) {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        if (type != null && !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new UnsupportedType(type);
        }
    }

    private static Map<String, String> query(Request request) {
        Map<String, String> out = new HashMap<>();
        Fields fields = Request.extractQueryParameters(request);
        for (Fields.Field f : fields) {
            out.put(f.getName(), f.getValue());
        }
        return out;
    }

    private static final class PayloadTooLarge extends ApiException {
        PayloadTooLarge() {
            super(413, null, "the request body exceeds " + MAX_BODY + " bytes");
        }
    }

    private static final class UnsupportedType extends ApiException {
        UnsupportedType(String type) {
            super(415, null, "send JSON (Content-Type: application/json), not " + type);
        }
    }
}
