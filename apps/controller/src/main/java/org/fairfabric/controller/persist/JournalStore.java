package org.fairfabric.controller.persist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.fairfabric.api.store.FabricStore;
import org.fairfabric.api.store.Mutation;
import org.fairfabric.api.store.StoredState;

/**
 * The embedded controller's system of record (tenants, hosts, declared sessions, network
 * configuration): an append-only journal file of mutations, one line
 * each, {@code <crc32 in hex> <json>}, fsynced before {@link #append} returns. Opening replays it;
 * a torn last line (the process died mid-write, so the write was never acknowledged) is cut off;
 * a damaged line before the end is an error, never silently skipped. When the journal has grown
 * to many times the live state (checked at open and after each append) it is rewritten as one put
 * per live item (write, fsync, rename).
 */
public final class JournalStore implements FabricStore {
    static final String FILE = "journal.log";
    private static final int COMPACT_MIN_RECORDS = 1000;

    private final Path dir;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private FileChannel journal;
    private StoredState state;
    private long records;

    private JournalStore(Path dir, FileChannel lockChannel, FileLock lock) {
        this.dir = dir;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Opens (creating when absent) the journal in {@code dir}; refuses a directory another process holds. */
    public static JournalStore open(Path dir) {
        try {
            Files.createDirectories(dir);
            FileChannel lc = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = lc.tryLock();
            } catch (java.nio.channels.OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                lc.close();
                throw new IllegalStateException("data directory " + dir + " is in use by another controller");
            }
            JournalStore s = new JournalStore(dir, lc, lock);
            try {
                s.replay();
            } catch (IOException | RuntimeException e) {
                s.closeQuietly();
                throw e;
            }
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open journal in " + dir, e);
        }
    }

    private void replay() throws IOException {
        Path file = dir.resolve(FILE);
        StoredState st = StoredState.EMPTY;
        long good = 0;
        long n = 0;
        if (Files.exists(file)) {
            byte[] bytes = Files.readAllBytes(file);
            int start = 0;
            while (start < bytes.length) {
                int end = indexOf(bytes, (byte) '\n', start);
                String line = new String(bytes, start, (end < 0 ? bytes.length : end) - start, StandardCharsets.UTF_8);
                Mutation m = end < 0 ? null : parse(line);
                if (m == null) {
                    if (end >= 0 && end + 1 < bytes.length) {
                        throw new IllegalStateException(file + ": damaged record at byte " + start
                                + " before the end of the journal; refusing to guess (restore a backup or inspect it)");
                    }
                    break; // torn tail: never acknowledged
                }
                st = m.applyTo(st);
                n++;
                start = end + 1;
                good = start;
            }
        }
        journal = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        journal.truncate(good);
        journal.position(good);
        journal.force(true);
        state = st;
        records = n;
        if (records >= COMPACT_MIN_RECORDS && records > 4L * liveItems()) {
            compact();
        }
    }

    private static Mutation parse(String line) {
        int space = line.indexOf(' ');
        if (space != 8) {
            return null;
        }
        String json = line.substring(space + 1);
        if (!line.substring(0, 8).equals(crc(json))) {
            return null;
        }
        try {
            return MutationCodec.decode(json);
        } catch (RuntimeException e) {
            throw new IllegalStateException("journal record with a valid checksum cannot be read: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized StoredState load() {
        return state;
    }

    @Override
    public synchronized void append(Mutation m) {
        StoredState next = m.applyTo(state);
        String json = MutationCodec.encode(m);
        byte[] line = (crc(json) + " " + json + "\n").getBytes(StandardCharsets.UTF_8);
        long before;
        try {
            before = journal.position();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            ByteBuffer buf = ByteBuffer.wrap(line);
            while (buf.hasRemaining()) {
                journal.write(buf);
            }
            journal.force(false);
        } catch (IOException e) {
            try {
                journal.truncate(before);
                journal.position(before);
            } catch (IOException ignored) {
                // the half-written line has a bad checksum and is cut off at the next open
            }
            throw new UncheckedIOException("cannot write the journal", e);
        }
        state = next;
        records++;
        if (records >= COMPACT_MIN_RECORDS && records > 4L * liveItems()) {
            compact();
        }
    }

    /** Number of records in the journal file (for tests and the compaction rule). */
    public synchronized long records() {
        return records;
    }

    /** Rewrites the journal as the minimal sequence of puts that rebuilds the current state. */
    public synchronized void compact() {
        List<Mutation> puts = new ArrayList<>();
        state.networkConfig().ifPresent(c -> puts.add(new Mutation.PutNetworkConfig(c)));
        if (state.sessionNumbersUsed() > 0) {
            puts.add(new Mutation.UseSessionNumbers(state.sessionNumbersUsed()));
        }
        state.tenants().values().forEach(t -> puts.add(new Mutation.PutTenant(t)));
        state.hosts().values().forEach(h -> puts.add(new Mutation.PutHost(h)));
        state.sessions().values().forEach(s -> puts.add(new Mutation.PutSession(s)));
        Path tmp = dir.resolve(FILE + ".tmp");
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            for (Mutation m : puts) {
                String json = MutationCodec.encode(m);
                ByteBuffer buf = ByteBuffer.wrap((crc(json) + " " + json + "\n").getBytes(StandardCharsets.UTF_8));
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
            }
            out.force(true);
            journal.close();
            Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            }
            journal = FileChannel.open(dir.resolve(FILE), StandardOpenOption.WRITE);
            journal.position(journal.size());
            records = puts.size();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compact the journal in " + dir, e);
        }
    }

    private long liveItems() {
        return state.tenants().size() + state.hosts().size() + state.sessions().size() + (state.networkConfig().isPresent() ? 1 : 0)
                + (state.sessionNumbersUsed() > 0 ? 1 : 0);
    }

    @Override
    public synchronized void close() {
        try {
            journal.close();
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Releases the directory after a failed open (a damaged journal must not keep it locked). */
    private void closeQuietly() {
        try {
            if (journal != null) {
                journal.close();
            }
            lock.release();
            lockChannel.close();
        } catch (IOException ignored) {
            // the failure being reported matters more
        }
    }

    private static String crc(String json) {
        CRC32 c = new CRC32();
        c.update(json.getBytes(StandardCharsets.UTF_8));
        return String.format("%08x", c.getValue());
    }

    private static int indexOf(byte[] b, byte x, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }
}
