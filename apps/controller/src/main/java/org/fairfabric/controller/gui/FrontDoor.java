package org.fairfabric.controller.gui;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.fairfabric.controller.rest.HttpApi;
import org.fairfabric.controller.rest.Reply;
import org.fairfabric.controller.rest.Route;

/**
 * The controller's one HTTP handler: the event stream at {@link EventStream#PATH}, the REST API
 * for everything else under {@code /api/}, the web GUI's files for the rest.
 */
public final class FrontDoor extends Handler.Abstract {
    private final HttpApi api;
    private final EventStream stream;
    private final StaticFiles files;

    public FrontDoor(HttpApi api, EventStream stream, StaticFiles files) {
        this.api = api;
        this.stream = stream;
        this.files = files;
    }

    /** Every documented operation: the API's routes and the stream. */
    public List<Route> routes() {
        List<Route> all = new ArrayList<>(api.routes());
        all.add(new Route("GET", EventStream.PATH, c -> Reply.noContent()));
        return all;
    }

    @Override
    protected void doStop() throws Exception {
        stream.close();
        super.doStop();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = request.getHttpURI().getDecodedPath();
        if (path.equals(EventStream.PATH) || path.equals(EventStream.PATH + "/")) {
            stream.handle(request, response, callback);
            return true;
        }
        if (path.equals("/api") || path.startsWith("/api/")) {
            return api.handle(request, response, callback);
        }
        files.handle(request, response, callback);
        return true;
    }
}
