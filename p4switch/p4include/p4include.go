// Package p4include holds p4switch's built-in include directory
// (core.p4 and v1model.p4), embedded in the binary.
package p4include

import "embed"

// FS serves <core.p4> and <v1model.p4>.
//
//go:embed *.p4
var FS embed.FS
