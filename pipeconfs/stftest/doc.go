// Package stftest runs the fabric pipeline's STF tests on p4switch and checks
// that the checked-in P4Info is the one p4switch generates.
package stftest
