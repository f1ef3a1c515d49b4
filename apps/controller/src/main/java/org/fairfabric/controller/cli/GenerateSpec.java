package org.fairfabric.controller.cli;

import org.fairfabric.core.allocator.FatTreeGenerator;

/**
 * Parses {@code k=16,sessions=10000,paths=8,seed=1[,capacity=1000][,caps=0.2][,guarantees=0.2]}
 * into a fat-tree generator.
 */
final class GenerateSpec {
    private GenerateSpec() {
    }

    static FatTreeGenerator parse(String spec) {
        int k = -1;
        int sessions = -1;
        int paths = 8;
        long seed = 1;
        double capacity = 1000;
        double caps = 0.2;
        double guarantees = 0.2;
        for (String part : spec.split(",")) {
            String[] kv = part.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("--generate: expected key=value, got \"" + part + "\"");
            }
            String key = kv[0].trim();
            String value = kv[1].trim();
            try {
                switch (key) {
                    case "k": k = Integer.parseInt(value); break;
                    case "sessions": sessions = Integer.parseInt(value); break;
                    case "paths": paths = Integer.parseInt(value); break;
                    case "seed": seed = Long.parseLong(value); break;
                    case "capacity": capacity = Double.parseDouble(value); break;
                    case "caps": caps = Double.parseDouble(value); break;
                    case "guarantees": guarantees = Double.parseDouble(value); break;
                    default: throw new IllegalArgumentException("--generate: unknown key \"" + key + "\"");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--generate: " + key + ": not a number: \"" + value + "\"");
            }
        }
        if (k < 0 || sessions < 0) {
            throw new IllegalArgumentException("--generate: k and sessions are required");
        }
        try {
            return new FatTreeGenerator(k, sessions, paths, seed, capacity, caps, guarantees);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--generate: " + e.getMessage());
        }
    }
}
