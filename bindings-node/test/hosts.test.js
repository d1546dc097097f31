'use strict'
// The Node side of the cross-host test: every case of tests/hosts/expectations.json (the file the
// Rust, C and Python tests read too) run through the package and compared with the answer written
// there. A refusal is the error class named for Node in `kinds` (its `kind`), its message
// `<option>: <reason>`.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Client, Server, TransportError } = require('..')

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
