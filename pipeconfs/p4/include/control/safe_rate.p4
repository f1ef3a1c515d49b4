// P4TE per-class safe-rate meters (§6.1.4, Algorithm 2 line 11): the colour of
// a packet against its (ingress port, DSCP) safe rate, kept as metadata.
// v1model meters are two-rate; configure PIR = CIR for the paper's 1R2C and
// treat any colour but GREEN as "unsafe".
#ifndef __FAIRFABRIC_SAFE_RATE__
#define __FAIRFABRIC_SAFE_RATE__

control SafeRate(inout headers_t hdr,
                 inout local_metadata_t meta,
                 in standard_metadata_t standard_metadata) {
    direct_meter<bit<2>>(MeterType.bytes) safe_rate_meter;

    action read_class_color() {
        safe_rate_meter.read(meta.incoming_color);
    }

    direct_counter(CounterType.packets_and_bytes) class_safe_rate_counter;
    table class_safe_rate {
        key = {
            standard_metadata.ingress_port: exact;
            hdr.ipv4.dscp: exact;
        }
        actions = {
            read_class_color;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        meters = safe_rate_meter;
        size = CLASS_RATE_TABLE_SIZE;
        counters = class_safe_rate_counter;
    }

    apply {
        class_safe_rate.apply();
    }
}

#endif
