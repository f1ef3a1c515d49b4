// Package scenario tests the fabric pipeline (pipeconfs/p4/fabric.p4) on
// p4switch's v1model pipeline through P4Runtime entities, with exact clocks
// and queue depths: the functions STF cannot express (action-selector
// routing groups, meters, registers).
package scenario
