package org.fairfabric.controller.p4rt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import p4.config.v1.P4InfoOuterClass.P4Info;

/** The pipeline the controller pushes to every switch: a P4Info (text format) and the target's device config bytes. */
public final class PipelineFiles {
    public final P4Info p4info;
    public final byte[] deviceConfig;

    private PipelineFiles(P4Info p4info, byte[] deviceConfig) {
        this.p4info = p4info;
        this.deviceConfig = deviceConfig;
    }

    public static PipelineFiles read(Path p4infoText, Path deviceConfig) {
        try {
            P4Info info = P4InfoIndex.parseText(Files.readString(p4infoText));
            if (info.getTablesCount() == 0) {
                throw new IllegalArgumentException(p4infoText + ": the P4Info has no tables");
            }
            return new PipelineFiles(info, Files.readAllBytes(deviceConfig));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the pipeline files", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(p4infoText + ": " + e.getMessage(), e);
        }
    }
}
