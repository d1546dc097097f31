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

test('a stdio server closed while stdin stays open lets the process exit', async () => {
  const { spawn } = require('node:child_process')
  const child = spawn(process.execPath, [path.join(FIXTURES, 'exit_stdio_close.js')], { stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => { stdout += d })
  child.stderr.on('data', (d) => { stderr += d })
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } }
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'bye', _meta: meta } }) + '\n')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10000)
  const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])))
  clearTimeout(timer)
  assert.equal(signal, null, 'exited by itself')
  assert.equal(code, 0, stderr)
  assert.equal(JSON.parse(stdout).result.content[0].text, 'bye')
  assert.equal(stderr, 'served\n')
  child.stdin.destroy()
})

test('a client never closed neither keeps Node alive nor leaves its server running', async () => {
  const r = await runNode(path.join(FIXTURES, 'exit_no_close.js'))
  assert.equal(r.code, 0, r.stderr)
  const pid = Number(r.stdout)
  assert.ok(pid > 0)
  let alive = true
  for (let i = 0; i < 100 && alive; i++) {
    try {
      process.kill(pid, 0)
      await new Promise((resolve) => setTimeout(resolve, 50))
    } catch {
      alive = false
    }
  }
  assert.equal(alive, false, `server ${pid} still running`)
})
