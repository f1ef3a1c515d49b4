package org.fairfabric.onos.rest;

import java.util.Set;
import org.onlab.rest.AbstractWebApplication;

/**
 * The JAX-RS application that web.xml names: every fairfabric resource and our error mappers.
 * Not {@code getClasses(Class...)} of the parent: its ONOS mappers (404, 400, ...) would answer in
 * ONOS's error shape instead of the project's {@code {"status", "field", "message"}}.
 */
public class FabricWebApplication extends AbstractWebApplication {
    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(ApiDocWebResource.class, TenantsWebResource.class, SessionsWebResource.class,
                NetworkWebResource.class, StreamWebResource.class, EmulationWebResource.class, MonitorWebResource.class,
                ApiExceptionMapper.class, WebErrorMapper.class, InternalErrorMapper.class);
    }
}
