package org.fairfabric.controller.rest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/** The API token's file must be private to its owner (mode 0600 or stricter), as ssh demands of keys. */
public final class TokenFiles {
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private TokenFiles() {
    }

    /** Throws IllegalArgumentException (never naming the token) when group or others have any access to {@code file}. */
    public static void requirePrivate(Path file) {
        Set<PosixFilePermission> perms;
        try {
            perms = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException e) {
            return; // not a POSIX file system: nothing to check
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --token-file " + file, e);
        }
        Set<PosixFilePermission> open = EnumSet.noneOf(PosixFilePermission.class);
        open.addAll(perms);
        open.retainAll(OTHERS);
        if (!open.isEmpty()) {
            throw new IllegalArgumentException("--token-file " + file + " is accessible to others (mode "
                    + PosixFilePermissions.toString(perms) + "): make it private with chmod 600 " + file);
        }
    }

    /** Writes {@code token} to a new file created with mode 0600 (never briefly readable by others). */
    public static void write(Path file, String token) {
        try {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, token);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the token file " + file, e);
        }
    }
}
