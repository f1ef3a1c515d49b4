package org.fairfabric.pipeconf;

import java.net.URL;

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

    public static final PiPipeconfId PIPECONF_ID = new PiPipeconfId("org.fairfabric.fabric");
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
        URL p4info = PipeconfLoader.class.getResource(P4INFO_RESOURCE);
        if (p4info == null) {
            throw new IllegalStateException("resource " + P4INFO_RESOURCE + " missing from the pipeconf jar");
        }
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
}
