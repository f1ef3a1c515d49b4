package org.fairfabric.monitor;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Bounds the native memory of all the instance's RocksDB stores together (Kafka Streams' own
 * recipe for bounded memory): one block cache shared by every store, and the memtables charged to
 * it through one write-buffer manager. Without it each of the 16 stores has its own 50 MiB block
 * cache and up to three 16 MiB memtables, and the instance's RSS crept up by about 1 MiB a
 * minute for the whole of a 30-minute soak (docs/reliability.md) although its Java heap stayed flat.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {
    /** Block cache and memtables of all stores together. */
    static final long TOTAL_BYTES = 32L << 20;
    /** Of which memtables may take at most this much. */
    static final long MEMTABLE_BYTES = 8L << 20;
    static final long WRITE_BUFFER_BYTES = 1L << 20;

    // shared by every store of the process; never closed (they live as long as the process)
    private static final Cache CACHE = new LRUCache(TOTAL_BYTES, -1, false, 0.1);
    private static final WriteBufferManager WRITE_BUFFERS = new WriteBufferManager(MEMTABLE_BYTES, CACHE);

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(CACHE);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setTableFormatConfig(table);
        options.setWriteBufferManager(WRITE_BUFFERS);
        options.setWriteBufferSize(WRITE_BUFFER_BYTES);
        options.setMaxWriteBufferNumber(2);
    }

    @Override
    public void close(String storeName, Options options) {
        // the shared cache and write-buffer manager outlive any one store
    }
}
