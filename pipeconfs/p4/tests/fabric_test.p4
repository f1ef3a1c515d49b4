// Test build of the fabric pipeline: every frame from a port starts with a
// test_clock prefix (ingress time, egress time, queue depth), so STF tests
// control the clock and the queue exactly. Not for deployment.
#define FAIRFABRIC_TEST_CLOCK
#include "../fabric.p4"
