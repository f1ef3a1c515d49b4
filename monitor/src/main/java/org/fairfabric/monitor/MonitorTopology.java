package org.fairfabric.monitor;

import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.fairfabric.monitor.catalog.Catalog;
import org.fairfabric.monitor.catalog.CatalogLoader;
import org.fairfabric.monitor.input.DataplaneEventReader;
import org.fairfabric.monitor.input.InputDispatcher;
import org.fairfabric.monitor.input.PathBytesReader;
import org.fairfabric.monitor.input.PortStatsReader;
import org.fairfabric.monitor.input.RlncReportReader;
import org.fairfabric.monitor.input.SessionReportReader;
import org.fairfabric.monitor.input.ShimStatsReader;
import org.fairfabric.monitor.input.TopologyEventReader;
import org.fairfabric.monitor.stream.Out;
import org.fairfabric.monitor.stream.TickPartitioner;
import org.fairfabric.monitor.view.LinkAggregator;
import org.fairfabric.monitor.view.SessionTracker;
import org.fairfabric.monitor.view.TenantAggregator;

/**
 * The monitor's Kafka Streams topology (docs/monitor.md, "Topology"): one reader per input topic,
 * all in one task per partition number ({@link InputDispatcher}), checks, orders and translates records into signals on three internal topics keyed by session
 * pair, link and tenant; one stage per internal topic keeps the view in changelogged stores and
 * writes ff.mon.*. The catalog is a global store on every instance.
 */
public final class MonitorTopology {
    private static final Serde<String> STRING = Serdes.String();

    private MonitorTopology() {
    }

    public static Topology build(Topics topics, MonitorSettings settings) {
        return build(topics, settings, false);
    }

    /** @param fromEnd a new application starts at the end of the input topics (after {@code --reset}), else at their start */
    public static Topology build(Topics topics, MonitorSettings settings, boolean fromEnd) {
        StreamsBuilder b = new StreamsBuilder();
        b.addGlobalStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(Catalog.STORE), STRING, STRING)
                        .withLoggingDisabled(),
                topics.catalog, Consumed.with(STRING, STRING), CatalogLoader::new);

        String[] readerStores = {SessionReportReader.STORE, PathBytesReader.STORE, PortStatsReader.STORE,
            PortStatsReader.COUNTERS_STORE, ShimStatsReader.STORE, RlncReportReader.STORE, DataplaneEventReader.STORE,
            TopologyEventReader.STORE};
        for (String s : readerStores) {
            b.addStateStore(store(s));
        }
        Consumed<String, String> inputs = Consumed.with(STRING, STRING);
        if (fromEnd) {
            inputs = inputs.withOffsetResetPolicy(Topology.AutoOffsetReset.LATEST);
        }
        route(b.stream(topics.inputs(), inputs).process(() -> new InputDispatcher(Map.of(
                topics.shimSessions, new SessionReportReader(topics.shimSessions, settings),
                topics.shimPathBytes, new PathBytesReader(topics.shimPathBytes, settings),
                topics.portStats, new PortStatsReader(topics.portStats, settings),
                topics.shimStats, new ShimStatsReader(topics.shimStats, settings),
                topics.shimRlnc, new RlncReportReader(topics.shimRlnc, settings),
                topics.dataplaneEvents, new DataplaneEventReader(topics.dataplaneEvents, settings),
                topics.controllerTopology, new TopologyEventReader(topics.controllerTopology, settings))),
                readerStores), topics);

        b.addStateStore(store(SessionTracker.STORE));
        route(b.stream(topics.pairSignals, Consumed.with(STRING, STRING))
                .process(() -> new SessionTracker(settings), SessionTracker.STORE), topics);

        b.addStateStore(store(LinkAggregator.STORE));
        b.addStateStore(store(LinkAggregator.PERIODS_STORE));
        route(b.stream(topics.linkSignals, Consumed.with(STRING, STRING))
                .process(() -> new LinkAggregator(topics.linkSignals, settings), LinkAggregator.STORE,
                        LinkAggregator.PERIODS_STORE), topics);

        b.addStateStore(store(TenantAggregator.STORE));
        b.addStateStore(store(TenantAggregator.PERIODS_STORE));
        route(b.stream(topics.tenantSignals, Consumed.with(STRING, STRING))
                .process(() -> new TenantAggregator(topics.tenantSignals, settings), TenantAggregator.STORE,
                        TenantAggregator.PERIODS_STORE), topics);
        return b.build();
    }

    /**
     * A persistent store; Kafka Streams backs it with a changelog topic (logging is on by default).
     * Cached: the many updates of one key between two commits (a period's accumulator, a stage's
     * clock) reach RocksDB and the changelog once per commit, not once per signal.
     */
    private static StoreBuilder<KeyValueStore<String, String>> store(String name) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), STRING, STRING).withCachingEnabled();
    }

    private static void route(KStream<String, Out> out, Topics topics) {
        to(out, Out.Kind.PAIR_SIGNAL, topics.pairSignals, true);
        to(out, Out.Kind.LINK_SIGNAL, topics.linkSignals, true);
        to(out, Out.Kind.TENANT_SIGNAL, topics.tenantSignals, true);
        to(out, Out.Kind.SESSION_VIEW, topics.sessions, false);
        to(out, Out.Kind.LINK_VIEW, topics.links, false);
        to(out, Out.Kind.TENANT_VIEW, topics.tenants, false);
        to(out, Out.Kind.EVENT, topics.events, false);
        to(out, Out.Kind.REJECTED, topics.rejected, false);
    }

    private static void to(KStream<String, Out> out, Out.Kind kind, String topic, boolean signal) {
        Produced<String, String> produced = Produced.with(STRING, STRING);
        if (signal) {
            produced = produced.withStreamPartitioner(new TickPartitioner());
        }
        out.filter((k, v) -> v.kind() == kind).mapValues(Out::value).to(topic, produced);
    }
}
