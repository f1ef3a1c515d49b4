"""The papers' experiments (./fairfabric experiment NAME [--quick]); one module per experiment.

Each module defines NAME, SUMMARY, PAPER, NEEDS_ROOT (Mininet) and run(quick) -> (Result, Figure).
Modules are imported when run, so that listing them needs neither Mininet nor root."""

import importlib

# name -> module, in the order `all` runs them
MODULES = {
    "promenade-convergence": "promenade_convergence",
    "promenade-parking-lot": "promenade_parking_lot",
    "promenade-weighted-bottleneck": "promenade_weighted_bottleneck",
    "promenade-fabric": "promenade_fabric",
    "promenade-rlnc": "promenade_rlnc",
    "promenade-ecmp": "promenade_ecmp",
    "zovn-partition-aggregate": "zovn_partition_aggregate",
    "p4te-fct": "p4te_fct",
    "p4te-balance": "p4te_balance",
    "p4te-ecmp-fct": "p4te_ecmp_fct",
    "aq-isolation": "aq_isolation",
    "aq-vm-profile": "aq_vm_profile",
    "vfab-failover": "vfab_failover",
    "vfab-guarantees": "vfab_guarantees",
    "vfab-incast": "vfab_incast",
}

# --quick variants too long for ./fairfabric test (its budget: docs/results.md, "Quick runs"), by name
NOT_IN_TEST_SUITE = {
    "vfab-failover": "its harness is FailoverFabricTest, which ./fairfabric test java-mininet already runs (10 + 3 failures)",
    "promenade-fabric": "20 switches, 16 host shims and the controller take ~3 min to start on 2 shared cores",
}


def load(name):
    if name not in MODULES:
        raise KeyError(name)
    return importlib.import_module("fairfabric_mn.experiments." + MODULES[name])
