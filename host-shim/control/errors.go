package control

import "sync/atomic"

// ConsumeErrors counts fetch errors (broker unreachable, topic missing); the
// consumer keeps retrying.
var ConsumeErrors atomic.Uint64
