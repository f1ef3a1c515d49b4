// Table, register and meter sizes of the fairfabric pipeline, in one place.
#ifndef __FAIRFABRIC_SIZE__
#define __FAIRFABRIC_SIZE__

// Registers indexed by a port number (bit<9>).
#define PORT_STATE_SIZE 512
// failed[] and port_utilizations[] are bitmaps read once per packet: ports
// 0..63 can be marked failed or coloured; higher ports read as healthy/GREEN.
#define PORT_BITMAP_PORTS 64

#define PORT_KIND_TABLE_SIZE 512
#define MY_STATION_TABLE_SIZE 64
#define ARP_TABLE_SIZE 1024
#define ACL_TABLE_SIZE 1024
#define ROUTING_DOWN_TABLE_SIZE 4096
#define PINNED_PATH_TABLE_SIZE 4096
#define PATH_CLASSIFIER_TABLE_SIZE 4096
#define CLASS_RATE_TABLE_SIZE 1024
#define SENSING_TABLE_SIZE 512
#define ECN_TABLE_SIZE 512

// P4TE routing groups: entries (groups) per upward table, and members of the
// selector shared by that table's groups.
#define UPWARD_TABLE_SIZE 64
#define UPWARD_SELECTOR_SIZE 1024
#define UPWARD_SELECTOR_WIDTH 16

// Flowlet registers of P4TE Algorithm 3.
#define FLOWLET_TABLE_SIZE 8192

// Augmented Queues: classifier entries, AQ configurations, AQ state slots.
#define AQ_CLASSIFIER_TABLE_SIZE 4096
#define AQ_TABLE_SIZE 65536
#define AQ_STATE_SIZE 65536

// P4TE FACK: classes with FACK on, and per-flow slots (hash of the data
// direction's addresses and ports) for the last real ACK and the last FACK.
#define FACK_CLASS_TABLE_SIZE 64
#define FACK_FLOW_SLOTS 4096

#endif
