package org.fairfabric.core.routing;

/** Direction of a gradient event: the metric got worse (INCREASE) or better (DECREASE). */
public enum Trend {
    INCREASE, DECREASE
}
