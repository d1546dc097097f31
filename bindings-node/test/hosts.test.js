'use strict'
// The Node side of the cross-host test: every case of tests/hosts/expectations.json (the file the
// Rust, C and Python tests read too) run through the package and compared with the answer written
// there. A refusal is the error class named for Node in `kinds` (its `kind`), its message
// `<option>: <reason>`.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Client, Server, TransportError, McpError, setEngineLog } = require('..')

const HOSTS_SERVER = path.join(__dirname, 'fixtures', 'hosts_server.js')
const EXPECTED = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'tests', 'hosts', 'expectations.json'), 'utf8'))

/** Checks that `error` is the refusal `c` of `section` describes. */
function checkRefusal (section, c, error) {
  assert.equal(error.kind, EXPECTED.kinds[c.refused].node, String(error))
  assert.equal(error.message, `${EXPECTED[section].option.node}: ${c.reason}`)
}

/** The error `promise` rejects with. */
async function outcome (promise) {
  try {
    await promise
  } catch (e) {
    return e
  }
  assert.fail('no error')
}

test('version_preference', async (t) => {
  const cases = EXPECTED.version_preference.cases
  assert.ok(cases.length >= 5, 'the cases are read')
  for (const c of cases) {
    await t.test(JSON.stringify(c.input), async () => {
      // The server does not exist: an accepted option gets as far as spawning it.
      const error = await outcome(Client.connectStdio('/nonexistent/server', [], { protocolVersion: c.input }))
      if (c.refused) checkRefusal('version_preference', c, error)
      else assert.ok(error instanceof TransportError, String(error))
    })
  }
})

test('server_description', async (t) => {
  const section = EXPECTED.server_description
  assert.ok(section.cases.length >= 2, 'the cases are read')
  for (const c of section.cases) {
    await t.test(c.protocol_version, async () => {
      const env = c.instructions === null ? {} : { HOSTS_INSTRUCTIONS: c.instructions }
      const client = await Client.connectStdio(process.execPath, [HOSTS_SERVER], { env, protocolVersion: c.protocol_version })
      try {
        const got = client.server
        assert.deepEqual(Object.keys(got).sort(), [...section.keys].sort())
        for (const [k, v] of Object.entries(c.expected)) assert.deepEqual(got[k], v, k)
        assert.deepEqual(client.instructions, c.expected.instructions)
        assert.deepEqual(client.serverInfo, c.expected.serverInfo)
      } finally {
        await client.close()
      }
    })
  }
})

test('task_poll_interval', async (t) => {
  const cases = EXPECTED.task_poll_interval.cases
  assert.ok(cases.length >= 2, 'the cases are read')
  for (const c of cases) {
    await t.test(String(c.input), () => {
      const make = () => new Server({ name: 'hosts', version: '1.0.0' }, { tasks: { pollIntervalMs: c.input } })
      if (c.refused) {
        let error
        try { make() } catch (e) { error = e }
        assert.ok(error, 'no error')
        checkRefusal('task_poll_interval', c, error)
      } else {
        make()
      }
    })
  }
})

test('tool_result', async (t) => {
  const cases = EXPECTED.tool_result.cases
  assert.ok(cases.length >= 3, 'the cases are read')
  // The engine's events of this process: the server runs here, over HTTP.
  const entries = []
  setEngineLog((entry) => entries.push(entry), { level: 'warn' })
  t.after(() => setEngineLog(null))
  const server = new Server({ name: 'hosts', version: '1.0.0' })
  for (const c of cases) {
    const config = c.output_schema === undefined ? {} : { outputSchema: c.output_schema }
    server.tool(c.tool, config, () => {
      if (c.throws !== undefined) throw new Error(c.throws)
      // The host's nothing: undefined (null is the same).
      return c.returns === null ? undefined : c.returns
    })
  }
  const serving = await server.serveHttp({ host: '127.0.0.1', port: 0 })
  t.after(() => server.close())
  for (const version of ['2026-07-28', '2025-11-25']) {
    const client = await Client.connectHttp(serving.url, { protocolVersion: version })
    try {
      for (const c of cases) {
        entries.length = 0
        if (c.error === undefined) {
          const got = await client.callTool(c.tool, {})
          for (const [k, v] of Object.entries(c.expected)) assert.deepEqual(got[k], v, `${version} ${c.tool}: ${k}`)
          if (c.expected.isError === undefined) assert.ok(!got.isError, `${version} ${c.tool}`)
        } else {
          const error = await outcome(client.callTool(c.tool, {}))
          assert.ok(error instanceof McpError, String(error))
          assert.equal(error.code, c.error.code)
          assert.equal(error.message, c.error.message)
          const want = c.diagnostic
          const entry = await until(() => entries.find((e) => e.target === want.target))
          assert.deepEqual(entry, { level: want.level, target: want.target, message: want.message, fields: want.fields })
        }
      }
    } finally {
      await client.close()
    }
  }
})

/** The value `check` finds, polled for up to 5 s (the listener is called on a later turn). */
async function until (check) {
  for (let i = 0; i < 250; i++) {
    const found = check()
    if (found) return found
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  assert.fail('timed out')
}
