package org.fairfabric.controller.component;

import org.fairfabric.controller.alloc.AllocationResult;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.routing.MetricEvent;

/**
 * What the controller's components tell each other over the {@link ControlBus}. Internal: the
 * audit trail that REST and Kafka show is the EventLog, which these never pass through.
 */
public interface ControlEvent {
    /**
     * The fabric model changed. {@code configurationReplaced}: a new network configuration with a
     * new fleet (state derived from the old one is void); otherwise only the tenants' hosts moved.
     */
    final class TopologyChanged implements ControlEvent {
        private final Topology topology;
        private final boolean configurationReplaced;

        public TopologyChanged(Topology topology, boolean configurationReplaced) {
            this.topology = topology;
            this.configurationReplaced = configurationReplaced;
        }

        public Topology topology() {
            return topology;
        }

        public boolean configurationReplaced() {
            return configurationReplaced;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof TopologyChanged)) {
                return false;
            }
            TopologyChanged other = (TopologyChanged) o;
            return java.util.Objects.equals(topology, other.topology)
                    && configurationReplaced == other.configurationReplaced;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(topology, configurationReplaced);
        }

        @Override
        public String toString() {
            return "TopologyChanged[topology=" + topology + ", configurationReplaced=" + configurationReplaced + "]";
        }
    }

    /** A P4TE gradient event from a switch, with when its packet-in arrived ({@link System#nanoTime}). */
    final class MetricReported implements ControlEvent {
        private final MetricEvent event;
        private final long receivedNanos;

        public MetricReported(MetricEvent event, long receivedNanos) {
            this.event = event;
            this.receivedNanos = receivedNanos;
        }

        public MetricEvent event() {
            return event;
        }

        public long receivedNanos() {
            return receivedNanos;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof MetricReported)) {
                return false;
            }
            MetricReported other = (MetricReported) o;
            return java.util.Objects.equals(event, other.event)
                    && receivedNanos == other.receivedNanos;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(event, receivedNanos);
        }

        @Override
        public String toString() {
            return "MetricReported[event=" + event + ", receivedNanos=" + receivedNanos + "]";
        }
    }

    /** A switch decided that one of its ports failed or recovered (vFab LINK_FAILURE report). */
    final class PortStateReported implements ControlEvent {
        private final String deviceId;
        private final int port;
        private final boolean failed;

        public PortStateReported(String deviceId, int port, boolean failed) {
            this.deviceId = deviceId;
            this.port = port;
            this.failed = failed;
        }

        public String deviceId() {
            return deviceId;
        }

        public int port() {
            return port;
        }

        public boolean failed() {
            return failed;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof PortStateReported)) {
                return false;
            }
            PortStateReported other = (PortStateReported) o;
            return java.util.Objects.equals(deviceId, other.deviceId)
                    && port == other.port
                    && failed == other.failed;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(deviceId, port, failed);
        }

        @Override
        public String toString() {
            return "PortStateReported[deviceId=" + deviceId + ", port=" + port + ", failed=" + failed + "]";
        }
    }

    /** Failure handling put a link's state in force: the link leaving {@code deviceId/port} is up or down. */
    final class LinkStateChanged implements ControlEvent {
        private final String deviceId;
        private final int port;
        private final boolean up;

        public LinkStateChanged(String deviceId, int port, boolean up) {
            this.deviceId = deviceId;
            this.port = port;
            this.up = up;
        }

        public String deviceId() {
            return deviceId;
        }

        public int port() {
            return port;
        }

        public boolean up() {
            return up;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof LinkStateChanged)) {
                return false;
            }
            LinkStateChanged other = (LinkStateChanged) o;
            return java.util.Objects.equals(deviceId, other.deviceId)
                    && port == other.port
                    && up == other.up;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(deviceId, port, up);
        }

        @Override
        public String toString() {
            return "LinkStateChanged[deviceId=" + deviceId + ", port=" + port + ", up=" + up + "]";
        }
    }

    /** Tenants, weights, hosts or sessions changed (REST or the monitor's view). */
    final class ProvisioningChanged implements ControlEvent {
        private final String why;

        public ProvisioningChanged(String why) {
            this.why = why;
        }

        public String why() {
            return why;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof ProvisioningChanged)) {
                return false;
            }
            ProvisioningChanged other = (ProvisioningChanged) o;
            return java.util.Objects.equals(why, other.why);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(why);
        }

        @Override
        public String toString() {
            return "ProvisioningChanged[why=" + why + "]";
        }
    }

    /** A new allocation is in force (the REST view, the shims' rates, the allocation slice). */
    final class Allocated implements ControlEvent {
        private final AllocationResult result;

        public Allocated(AllocationResult result) {
            this.result = result;
        }

        public AllocationResult result() {
            return result;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof Allocated)) {
                return false;
            }
            Allocated other = (Allocated) o;
            return java.util.Objects.equals(result, other.result);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(result);
        }

        @Override
        public String toString() {
            return "Allocated[result=" + result + "]";
        }
    }
}
