package org.fairfabric.onos.gui;

import org.onosproject.ui.UiTopoOverlay;
import org.onosproject.ui.topo.PropertyPanel;

/** The fairfabric overlay of ONOS's topology view; the summary panel names it. */
public class FabricTopoOverlay extends UiTopoOverlay {
    public static final String OVERLAY_ID = "fairfabric-overlay";

    public FabricTopoOverlay() {
        super(OVERLAY_ID);
    }

    @Override
    public void modifySummary(PropertyPanel panel) {
        panel.title("fairfabric");
    }
}
