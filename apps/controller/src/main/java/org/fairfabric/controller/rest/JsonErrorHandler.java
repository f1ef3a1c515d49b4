package org.fairfabric.controller.rest;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.fairfabric.api.dto.ErrorDto;
import org.fairfabric.api.json.Json;

/**
 * The errors Jetty produces itself (a request line or header it cannot parse, a path with an
 * ambiguous or invalid encoding, a failure outside the API handler) in the API's one error shape,
 * {@code {"status", "field", "message"}}, instead of Jetty's HTML page or an empty body.
 */
public final class JsonErrorHandler extends ErrorHandler {
    @Override
    public boolean errorPageForMethod(String method) {
        return true; // every method gets the JSON body (HEAD drops it on the wire)
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        Object attr = request.getAttribute(ERROR_STATUS);
        if (attr instanceof Integer) {
            status = (Integer) attr;
        }
        if (status < 400) {
            status = HttpStatus.INTERNAL_SERVER_ERROR_500;
        }
        Object message = request.getAttribute(ERROR_MESSAGE);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Reply.JSON + "; charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        Content.Sink.write(response, true, body(status, message == null ? null : message.toString()), callback);
        return true;
    }

    /** The body of a response Jetty sends before any handler sees the request (a malformed request line or header). */
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, Reply.JSON + "; charset=utf-8");
        return ByteBuffer.wrap(body(status, reason).getBytes(StandardCharsets.UTF_8));
    }

    static String body(int status, String reason) {
        String what = HttpStatus.getMessage(status);
        String message;
        if (status >= 500) {
            message = "internal error (" + what + ")";
        } else if (reason == null || reason.isBlank() || reason.equals(what)) {
            message = "the request cannot be served: " + what;
        } else {
            message = "the request cannot be served: " + what + " (" + reason + ")";
        }
        return Json.write(new ErrorDto(status, null, message));
    }
}
