package org.fairfabric.onos.gui;

import java.util.List;
import org.onosproject.ui.UiExtension;
import org.onosproject.ui.UiExtensionService;
import org.onosproject.ui.UiMessageHandlerFactory;
import org.onosproject.ui.UiTopoOverlayFactory;
import org.onosproject.ui.UiViewHidden;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

/** Registers the topology overlay (resources under fairfabricTopov/ and app/view/fairfabricTopov/) with ONOS's GUI. */
@Component(immediate = true)
public class FabricUiComponent {
    /** A hidden view carries a topology overlay; its id names the client module (ovFairfabricTopov). */
    static final String VIEW_ID = "fairfabricTopov";
    static final String RESOURCE_PATH = VIEW_ID;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected UiExtensionService uiExtensionService;

    private final UiMessageHandlerFactory handlers = () -> List.of(new FabricTopoMessageHandler());
    private final UiTopoOverlayFactory overlays = () -> List.of(new FabricTopoOverlay());
    private UiExtension extension;

    @Activate
    protected void activate() {
        extension = new UiExtension.Builder(getClass().getClassLoader(), List.of(new UiViewHidden(VIEW_ID)))
                .resourcePath(RESOURCE_PATH)
                .messageHandlerFactory(handlers)
                .topoOverlayFactory(overlays)
                .build();
        uiExtensionService.register(extension);
    }

    @Deactivate
    protected void deactivate() {
        uiExtensionService.unregister(extension);
    }
}
