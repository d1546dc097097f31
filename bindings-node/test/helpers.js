'use strict'
// Shared by the tests: where the fixtures and the Rust binaries are, and small process helpers.
const path = require('node:path')
const { execFile, spawn } = require('node:child_process')

const FIXTURES = path.join(__dirname, 'fixtures')
const SERVER = path.join(FIXTURES, 'server.js')
// The Rust binaries (mcp, everything-server): scripts/test.d/41-node.sh sets LIBMCP_BIN_DIR.
const BIN_DIR = process.env.LIBMCP_BIN_DIR || path.join(__dirname, '..', '..', 'target', 'debug')

const LEGACY = '2025-11-25'
const MODERN = '2026-07-28'

/** Runs a program; resolves to {code, stdout, stderr} whatever its exit status. */
function run (file, args, opts = {}) {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 60000, ...opts }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr })
    })
  })
}

/** The Rust `mcp` CLI with `args`, against the Node fixture server. */
function mcp (args, server = [process.execPath, SERVER]) {
  return run(path.join(BIN_DIR, 'mcp'), ['--json', ...args, '--', ...server])
}

/** Spawns a Node script; resolves to {code, signal, stdout, stderr, ms} when it exits. */
function runNode (script, args = [], { timeout = 20000, input, ...opts } = {}) {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'], ...opts })
    let stdout = ''
    let stderr = ''
    // Decoded as a stream: a character split between two chunks stays whole.
    child.stdout.setEncoding('utf8')
    child.stderr.setEncoding('utf8')
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, child })
    })
    if (input !== undefined) child.stdin.end(input)
  })
}

/** Peers still running when a test file's tests are over (a test that failed before closing its
 * peer): killed then, or their open pipes would keep the file's process, and the run, waiting. */
const livePeers = new Set()
require('node:test').after(() => {
  for (const child of livePeers) child.kill('SIGKILL')
})

/** A child process spawned with `args` (Node's own executable) as a line-oriented JSON-RPC peer:
 * `send(msg)` writes one line (a string as is, anything else as JSON), `recv()` resolves to the
 * next message, `close()` ends its stdin and resolves to its exit code. */
function linePeer (args) {
  const child = require('node:child_process').spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  livePeers.add(child)
  child.on('exit', () => livePeers.delete(child))
  const queue = []
  const waiting = []
  require('node:readline').createInterface({ input: child.stdout }).on('line', (l) => {
    const msg = JSON.parse(l)
    if (waiting.length) waiting.shift()(msg)
    else queue.push(msg)
  })
  return {
    send: (msg) => child.stdin.write((typeof msg === 'string' ? msg : JSON.stringify(msg)) + '\n'),
    recv: () => queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise((resolve) => { child.on('exit', (code) => resolve(code)); child.stdin.end() }),
  }
}

/** Reads SSE events (`{id, data}`) off a fetch response body. */
function sseReader (response) {
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  return async function next () {
    for (;;) {
      const end = buffered.indexOf('\n\n')
      if (end >= 0) {
        const block = buffered.slice(0, end)
        buffered = buffered.slice(end + 2)
        const event = { id: undefined, data: '' }
        for (const line of block.split('\n')) {
          if (line.startsWith('id:')) event.id = line.slice(3).trim()
          else if (line.startsWith('data:')) event.data += line.slice(5).trim()
        }
        if (event.data !== '' || event.id !== undefined) return event
        continue
      }
      const { done, value } = await reader.read()
      if (done) return null
      buffered += decoder.decode(value, { stream: true })
    }
  }
}

/** POSTs one JSON-RPC message as a 2025-11-25 client would, on `session` if given. */
function post (url, session, message) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LEGACY }
  if (session) headers['mcp-session-id'] = session
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(message) })
}

module.exports = { FIXTURES, SERVER, BIN_DIR, LEGACY, MODERN, run, mcp, runNode, linePeer, sseReader, post }
