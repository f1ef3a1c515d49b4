package org.fairfabric.onos.platform;

/** What replacing one slice of one switch changed in ONOS's flow rule and group stores. */
public final class SliceWrite {
    public final String slice;
    public final String deviceId;
    public final int rulesAdded;
    public final int rulesModified;
    public final int rulesRemoved;
    public final int groupsAdded;
    public final int groupsModified;
    public final int groupsRemoved;

    SliceWrite(String slice, String deviceId, int rulesAdded, int rulesModified, int rulesRemoved,
               int groupsAdded, int groupsModified, int groupsRemoved) {
        this.slice = slice;
        this.deviceId = deviceId;
        this.rulesAdded = rulesAdded;
        this.rulesModified = rulesModified;
        this.rulesRemoved = rulesRemoved;
        this.groupsAdded = groupsAdded;
        this.groupsModified = groupsModified;
        this.groupsRemoved = groupsRemoved;
    }

    public boolean unchanged() {
        return rulesAdded + rulesModified + rulesRemoved + groupsAdded + groupsModified + groupsRemoved == 0;
    }

    @Override
    public String toString() {
        return slice + "@" + deviceId + ": rules +" + rulesAdded + " ~" + rulesModified + " -" + rulesRemoved
                + ", groups +" + groupsAdded + " ~" + groupsModified + " -" + groupsRemoved;
    }
}
