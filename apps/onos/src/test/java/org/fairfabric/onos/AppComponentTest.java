package org.fairfabric.onos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;

class AppComponentTest {

    /** Records the name the component registers under. */
    private static final class RecordingCoreService extends CoreServiceAdapter {
        String registered;

        @Override
        public ApplicationId registerApplication(String name) {
            registered = name;
            return new DefaultApplicationId(42, name);
        }
    }

    @Test
    void activateRegistersTheApplicationAndDeactivateForgetsIt() {
        RecordingCoreService core = new RecordingCoreService();
        AppComponent component = new AppComponent();
        component.coreService = core;

        component.activate();
        assertEquals("org.fairfabric", core.registered);
        assertEquals(42, component.appId().id());

        component.deactivate();
        assertNull(component.appId());
    }
}
