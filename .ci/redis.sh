#!/usr/bin/env bash
# Installs what the Redis nonce-store tests need (tests/redis.rs and the CLI's
# tests/serve.rs start their own redis-server processes on 127.0.0.1):
# redis-server and redis-cli, Redis 7.0 or later (SET ... NX GET), from
# Debian's packages. Idempotent: installs nothing when both are present.
# Starts nothing: the tests start and stop their own servers.
set -euo pipefail
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
command -v redis-cli >/dev/null || missing+=(redis-tools)
if [ "${#missing[@]}" -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# Debian's package starts a system redis-server on 6379; the tests use
# ports of their own, so it is left alone.
version=$(redis-server --version | sed -n 's/.* v=\([0-9][0-9]*\)\..*/\1/p')
if [ -z "$version" ] || [ "$version" -lt 7 ]; then
    echo "redis-server 7.0 or later is needed (SET ... NX GET); found: $(redis-server --version)" >&2
    exit 1
fi
redis-server --version
redis-cli --version
