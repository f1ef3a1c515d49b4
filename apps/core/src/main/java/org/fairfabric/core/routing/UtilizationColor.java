package org.fairfabric.core.routing;

/** Colour of a port's link-utilisation meter (trTCM): below CIR, between CIR and PIR, above PIR. */
public enum UtilizationColor {
    GREEN, YELLOW, RED
}
