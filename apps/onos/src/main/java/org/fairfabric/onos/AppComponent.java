package org.fairfabric.onos;

import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Registers the fairfabric application with ONOS; the other components use its id. */
@Component(immediate = true, service = AppComponent.class)
public class AppComponent {

    private static final Logger log = LoggerFactory.getLogger(AppComponent.class);

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    private ApplicationId appId;

    @Activate
    protected void activate() {
        appId = coreService.registerApplication(AppConstants.APP_NAME);
        log.info("Started {}", appId);
    }

    @Deactivate
    protected void deactivate() {
        log.info("Stopped {}", appId);
        appId = null;
    }

    /** The id under which fairfabric's flows, groups and configs are installed. */
    public ApplicationId appId() {
        return appId;
    }
}
