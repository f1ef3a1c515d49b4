package org.fairfabric.pipeconf;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.google.protobuf.TextFormat;
import p4.config.v1.P4InfoOuterClass.P4Info;

import org.onosproject.net.pi.model.DefaultPiPipeconf;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.p4runtime.model.P4InfoParser;
import org.onosproject.p4runtime.model.P4InfoParserException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

/**
 * Registers the fairfabric pipeconf with ONOS: the generated P4Info, the BMv2 JSON
 * when the jar carries one (built with p4c, see docs/pipeline.md), and the
 * packet-in/out interpreter.
 */
@Component(immediate = true)
public final class PipeconfLoader {

    public static final PiPipeconfId PIPECONF_ID = new PiPipeconfId("org.fairfabric.pipeconf.fabric");
    static final String P4INFO_RESOURCE = "/p4info.txt";
    static final String BMV2_JSON_RESOURCE = "/bmv2.json";

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Activate
    protected void activate() {
        if (pipeconfService.getPipeconf(PIPECONF_ID).isPresent()) {
            pipeconfService.unregister(PIPECONF_ID);
        }
        pipeconfService.register(buildPipeconf());
    }

    @Deactivate
    protected void deactivate() {
        if (pipeconfService.getPipeconf(PIPECONF_ID).isPresent()) {
            pipeconfService.unregister(PIPECONF_ID);
        }
    }

    /**
     * The pipeconf, built from the resources of this jar.
     *
     * @throws IllegalStateException if the P4Info is missing or does not parse
     */
    public static PiPipeconf buildPipeconf() {
        URL generated = PipeconfLoader.class.getResource(P4INFO_RESOURCE);
        if (generated == null) {
            throw new IllegalStateException("resource " + P4INFO_RESOURCE + " missing from the pipeconf jar");
        }
        URL p4info = forOnos(generated);
        PiPipelineModel model;
        try {
            model = P4InfoParser.parse(p4info);
        } catch (P4InfoParserException e) {
            throw new IllegalStateException("cannot parse " + P4INFO_RESOURCE + ": " + e.getMessage(), e);
        }
        DefaultPiPipeconf.Builder builder = DefaultPiPipeconf.builder()
                .withId(PIPECONF_ID)
                .withPipelineModel(model)
                .addBehaviour(PiPipelineInterpreter.class, InterpreterImpl.class)
                .addExtension(PiPipeconf.ExtensionType.P4_INFO_TEXT, p4info);
        URL bmv2Json = PipeconfLoader.class.getResource(BMV2_JSON_RESOURCE);
        if (bmv2Json != null) {
            builder.addExtension(PiPipeconf.ExtensionType.BMV2_JSON, bmv2Json);
        }
        return builder.build();
    }

    /**
     * The P4Info in the form ONOS 2.7 reads: its P4Runtime protos predate fields that
     * current generators emit (e.g. initial_default_action), which P4Runtime clients
     * are to ignore, so they are dropped here; a copy is written to a temporary file.
     */
    static URL forOnos(URL generated) {
        P4Info.Builder info = P4Info.newBuilder();
        try (InputStream in = generated.openStream();
             Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            TextFormat.Parser.newBuilder().setAllowUnknownFields(true).build().merge(reader, info);
            Path copy = Files.createTempFile("fairfabric-p4info", ".txt");
            copy.toFile().deleteOnExit();
            Files.writeString(copy, TextFormat.printToString(info.build()), StandardCharsets.UTF_8);
            return copy.toUri().toURL();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + generated + ": " + e.getMessage(), e);
        }
    }
}
