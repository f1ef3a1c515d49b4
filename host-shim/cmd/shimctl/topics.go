package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestTopicSuffix matches the suffixes tests give their topics (mininet/fairfabric_mn/shim.py
// unique_suffix: ".t<pid>-<unix ms>"), so that leftovers of any test run can be found.
const TestTopicSuffix = `\.t[0-9]+-[0-9]+$`

func init() {
	commands["topics"] = command{"list (or -delete) the topics whose names match -match", topics}
}

func topics(args []string) error {
	fs := flag.NewFlagSet("topics", flag.ContinueOnError)
	kafka := fs.String("kafka", os.Getenv("FAIRFABRIC_KAFKA"), "brokers")
	match := fs.String("match", TestTopicSuffix, "regular expression the topic names must match (default: test-run suffixes)")
	del := fs.Bool("delete", false, "delete the matching topics")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *match == "" {
		return errors.New("-match must not be empty")
	}
	re, err := regexp.Compile(*match)
	if err != nil {
		return fmt.Errorf("-match: %w", err)
	}
	bs, err := brokers(*kafka)
	if err != nil {
		return err
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(bs...))
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	names, err := matchingTopics(ctx, kadm.NewClient(cl), re)
	if err != nil {
		return err
	}
	if *del && len(names) > 0 {
		resp, err := kadm.NewClient(cl).DeleteTopics(ctx, names...)
		if err != nil {
			return err
		}
		if err := resp.Error(); err != nil {
			return fmt.Errorf("deleting topics: %w", err)
		}
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"topics": names, "deleted": *del})
}

func matchingTopics(ctx context.Context, adm *kadm.Client, re *regexp.Regexp) ([]string, error) {
	listed, err := adm.ListTopics(ctx)
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, t := range listed.Names() {
		if re.MatchString(t) {
			names = append(names, t)
		}
	}
	sort.Strings(names)
	return names, nil
}
