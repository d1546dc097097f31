'use strict'
// The addon neither keeps Node alive after close nor lets it exit while serving.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { FIXTURES, runNode } = require('./helpers')

test('an HTTP server and clients, closed, let the process exit by itself', async () => {
  const r = await runNode(path.join(FIXTURES, 'exit_http.js'))
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout, 'modern 2026-07-28\nlegacy 2025-11-25\n')
  assert.ok(r.ms < 10000, `exited after ${r.ms} ms`)
})

test('an HTTP server that is not closed keeps the process alive', async () => {
  const r = await runNode(path.join(FIXTURES, 'exit_http.js'), ['keep'], { timeout: 3000 })
  assert.equal(r.stdout, 'modern 2026-07-28\nlegacy 2025-11-25\n')
  assert.equal(r.signal, 'SIGKILL', 'still running when killed')
})

test('a stdio client, closed, lets the process exit by itself', async () => {
  const r = await runNode(path.join(FIXTURES, 'exit_stdio_client.js'))
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout, 'bye\n')
  assert.ok(r.ms < 10000, `exited after ${r.ms} ms`)
})
