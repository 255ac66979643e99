// Written by npm run proxy-rules from src/protocol/proxy-rules.ts; do not edit (a test fails on a stale copy).
// The numbers check-proxy holds a proxy to, as the rulebook states them.
export const RULEBOOK = {
  "rateLimits": {
    "perVisitor": {
      "limit": 12,
      "windowMs": 600000
    },
    "perPerson": {
      "limit": 6,
      "windowMs": 600000
    },
    "perAddress": {
      "limit": 60,
      "windowMs": 600000
    }
  },
  "minPollIntervalMs": 500,
  "sessionBodyLimit": 16384,
  "storeRetryAfterSeconds": 5
} as const;
