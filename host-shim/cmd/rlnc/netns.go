package main

import (
	"fmt"
	"runtime"

	"github.com/vishvananda/netns"
)

// inNetns runs f on a thread switched into the network namespace at path ("" = the
// current one). Sockets made there stay there; Kafka stays in the caller's namespace,
// where the broker's 127.0.0.1 is (as for the shim, docs/host-shim.md).
func inNetns(path string, f func() error) error {
	if path == "" {
		return f()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	orig, err := netns.Get()
	if err != nil {
		return err
	}
	defer orig.Close()
	h, err := netns.GetFromPath(path)
	if err != nil {
		return fmt.Errorf("-netns %s: %w", path, err)
	}
	defer h.Close()
	if err := netns.Set(h); err != nil {
		return fmt.Errorf("-netns %s: %w", path, err)
	}
	ferr := f()
	if err := netns.Set(orig); err != nil {
		panic(fmt.Sprintf("rlnc: cannot return to the original network namespace: %v", err)) // the thread is unusable
	}
	return ferr
}
