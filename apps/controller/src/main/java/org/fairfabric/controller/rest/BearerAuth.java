package org.fairfabric.controller.rest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** Checks {@code Authorization: Bearer <token>} against the configured token in constant time. */
public final class BearerAuth {
    public static final int MIN_TOKEN_LENGTH = 16;

    private final byte[] token;

    public BearerAuth(String token) {
        if (token == null || token.strip().length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException("the API token must be at least " + MIN_TOKEN_LENGTH + " characters");
        }
        this.token = token.strip().getBytes(StandardCharsets.UTF_8);
    }

    public boolean allows(String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        byte[] given = authorizationHeader.substring(7).strip().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, token);
    }
}
