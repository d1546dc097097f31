'use strict'
// Client habits from the official TypeScript SDK: a server's stdout noise reported at once with the
// line (the SDK's transport reports it through `onerror`), and the client going on; OS errors with
// Node's `code`, `errno` and `syscall`.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { Client, Server, TransportError } = require('..')
const { FIXTURES, LEGACY } = require('./helpers')

const BANNER = path.join(FIXTURES, 'banner_server.js')

for (const protocolVersion of [undefined, LEGACY]) {
  test(`a line on the server's stdout that is not JSON-RPC is reported with the line (${protocolVersion ?? 'auto'})`, async () => {
    const errors = []
    const client = await Client.connectStdio(process.execPath, [BANNER], { protocolVersion, onError: (e) => errors.push(e) })
    try {
      assert.equal((await client.callTool('echo', { text: 'after the banner' })).content[0].text, 'after the banner')
      assert.equal(errors.length, 1)
      assert.ok(errors[0] instanceof TransportError)
      assert.equal(errors[0].line, 'Server starting... v1 banner')
      assert.match(errors[0].message, /not a JSON-RPC message: Server starting\.\.\. v1 banner$/)
    } finally {
      await client.close()
    }
  })
}

test('without onError the line becomes a process warning', async () => {
  const warnings = []
  const onWarning = (w) => warnings.push(w)
  process.on('warning', onWarning)
  const client = await Client.connectStdio(process.execPath, [BANNER])
  try {
    await client.callTool('echo', { text: 'x' })
    await new Promise((resolve) => setImmediate(resolve))
    assert.ok(warnings.some((w) => w.name === 'libmcp' && w.message.endsWith('Server starting... v1 banner')), warnings.map(String).join('\n'))
  } finally {
    process.off('warning', onWarning)
    await client.close()
  }
})

test('onError must be a function', async () => {
  await assert.rejects(Client.connectStdio(process.execPath, [BANNER], { onError: 'no' }), { name: 'TypeError', message: 'onError must be a function' })
})

test('OS errors keep Node\'s code, errno and syscall', async () => {
  const server = new Server({ name: 'os-errors', version: '1' })
  const taken = await server.serveHttp({ port: 0 })
  try {
    await assert.rejects(new Server({ name: 'second', version: '1' }).serveHttp({ port: taken.port }), (e) => {
      assert.ok(e instanceof TransportError)
      assert.deepEqual([e.code, e.errno, e.syscall], ['EADDRINUSE', -98, 'listen'])
      return true
    })
  } finally {
    await taken.close()
  }
  await assert.rejects(Client.connectStdio(path.join(FIXTURES, 'no-such-program')), (e) => {
    assert.ok(e instanceof TransportError)
    assert.deepEqual([e.code, e.errno, e.syscall], ['ENOENT', -2, 'spawn'])
    return true
  })
})

test('a refused HTTP connection is ECONNREFUSED', async () => {
  const server = new Server({ name: 'gone', version: '1' })
  const http = await server.serveHttp({ port: 0 })
  const url = http.url
  await http.close()
  await assert.rejects(Client.connectHttp(url), (e) => {
    assert.ok(e instanceof TransportError, String(e))
    assert.deepEqual([e.code, e.syscall], ['ECONNREFUSED', 'connect'], e.message)
    return true
  })
})
