package org.fairfabric.onos.platform;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.GroupId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupServiceAdapter;

/** ONOS's group store as the tests need it, with every call recorded in order ("add 3", "set 3", "remove 3"). */
final class RecordingGroups extends GroupServiceAdapter {
    final Map<String, Group> groups = new LinkedHashMap<>();
    final List<String> calls = new ArrayList<>();

    private static String key(DeviceId d, GroupKey k) {
        return d + "/" + k;
    }

    @Override
    public synchronized void addGroup(GroupDescription g) {
        calls.add("add " + g.givenGroupId());
        groups.put(key(g.deviceId(), g.appCookie()), new DefaultGroup(new GroupId(g.givenGroupId()), g));
    }

    @Override
    public synchronized void setBucketsForGroup(DeviceId device, GroupKey old, GroupBuckets buckets, GroupKey key,
                                                ApplicationId app) {
        Group g = groups.get(key(device, old));
        calls.add("set " + g.givenGroupId());
        groups.put(key(device, key), new DefaultGroup(g.id(), new DefaultGroupDescription(device, g.type(), buckets, key,
                g.givenGroupId(), app)));
    }

    @Override
    public synchronized void removeGroup(DeviceId device, GroupKey key, ApplicationId app) {
        Group g = groups.remove(key(device, key));
        calls.add("remove " + g.givenGroupId());
    }

    @Override
    public synchronized Group getGroup(DeviceId device, GroupKey key) {
        return groups.get(key(device, key));
    }

    @Override
    public synchronized Iterable<Group> getGroups(DeviceId device, ApplicationId app) {
        List<Group> out = new ArrayList<>();
        for (Group g : groups.values()) {
            if (g.deviceId().equals(device) && g.appId().equals(app)) {
                out.add(g);
            }
        }
        return out;
    }

    @Override
    public synchronized Iterable<Group> getGroups(DeviceId device) {
        List<Group> out = new ArrayList<>();
        for (Group g : groups.values()) {
            if (g.deviceId().equals(device)) {
                out.add(g);
            }
        }
        return out;
    }
}
