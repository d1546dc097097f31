'use strict'
// Serving stdio with stdin read by Node (lib/server.js `serveStdio`, src/stdio.rs): chunks cut
// anywhere, many requests in one chunk, a last line without its newline, and a peer that stops
// reading (reading pauses, nothing is lost, reading resumes).
const test = require('node:test')
const assert = require('node:assert/strict')
const { spawn } = require('node:child_process')
const { SERVER, MODERN, runNode } = require('./helpers')

const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} }
const call = (id, name, args = {}) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta } })

/** The answers in `stdout`, by id. */
function byId (stdout) {
  const answers = new Map()
  for (const line of stdout.split('\n').filter((l) => l !== '')) {
    const msg = JSON.parse(line)
    assert.ok(!answers.has(msg.id), `answered twice: ${msg.id}`)
    answers.set(msg.id, msg)
  }
  return answers
}

/** Reads nothing for `ms`, then everything `child` writes until it exits after its stdin ends. */
async function readAfterStall (child, ms) {
  await new Promise((resolve) => setTimeout(resolve, ms))
  let stdout = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (d) => { stdout += d })
  const code = await new Promise((resolve) => { child.on('exit', resolve); child.stdin.end() })
  return { code, stdout }
}

test('many requests in one chunk, sync and async handlers, and a last line without newline', async () => {
  const lines = []
  for (let id = 1; id <= 60; id++) {
    lines.push(id % 3 === 0 ? call(id, 'rejects') : call(id, 'echo', { text: `t${id}` }))
  }
  // No newline after the last request: it is still served when stdin ends.
  const { code, stdout } = await runNode(SERVER, [], { input: lines.join('\n') })
  assert.equal(code, 0)
  const answers = byId(stdout)
  assert.equal(answers.size, 60)
  for (let id = 1; id <= 60; id++) {
    const { result } = answers.get(id)
    if (id % 3 === 0) assert.deepEqual(result.content, [{ type: 'text', text: 'async boom' }])
    else assert.deepEqual(result.content, [{ type: 'text', text: `t${id}` }])
  }
})

test('text that needs escapes or is not ASCII crosses both ways unchanged, in one chunk', async () => {
  const texts = [
    'quote " backslash \\ slash / newline \n tab \t nul \u0000 unit \u001f del \u007f',
    'é ü ß 日本語 😀 🧪 mixed',
    'separators \u2028 \u2029 and a BOM \ufeff inside',
    '',
  ]
  const lines = texts.map((text, i) => call(`ü-${i}`, 'echo', { text }))
  // The same é twice: raw UTF-8 and as an escape the server must decode.
  lines.push('{"jsonrpc":"2.0","id":"esc","method":"tools/call","params":{"name":"echo","arguments":{"text":"\\u00e9 é"},"_meta":' + JSON.stringify(meta) + '}}')
  const { code, stdout } = await runNode(SERVER, [], { input: lines.join('\n') + '\n' })
  assert.equal(code, 0)
  const answers = byId(stdout)
  assert.equal(answers.size, texts.length + 1)
  texts.forEach((text, i) => assert.equal(answers.get(`ü-${i}`).result.content[0].text, text))
  assert.equal(answers.get('esc').result.content[0].text, 'é é')
})

test('a chunk boundary inside a request, and blank lines, change nothing', async () => {
  const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'inherit'] })
  let stdout = ''
  child.stdout.on('data', (d) => { stdout += d })
  const text = `${call(1, 'echo', { text: 'split' })}\n\n\r\n${call(2, 'echo', { text: 'next' })}\n`
  for (let i = 0; i < text.length; i += 5) {
    child.stdin.write(text.slice(i, i + 5))
    await new Promise((resolve) => setImmediate(resolve))
  }
  const code = await new Promise((resolve) => { child.on('exit', resolve); child.stdin.end() })
  assert.equal(code, 0)
  const answers = byId(stdout)
  assert.deepEqual([...answers.keys()], [1, 2])
  assert.equal(answers.get(1).result.content[0].text, 'split')
  assert.equal(answers.get(2).result.content[0].text, 'next')
})

test('a peer that stops reading pauses the server; nothing is lost', async () => {
  const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'inherit'] })
  // 40 answers of 512 KiB: more than the engine's 16 MiB high-water mark, all sent while the
  // test reads nothing.
  const big = 'z'.repeat(512 * 1024)
  for (let id = 1; id <= 40; id++) child.stdin.write(call(id, 'echo', { text: big }) + '\n')
  const { code, stdout } = await readAfterStall(child, 500)
  assert.equal(code, 0)
  const answers = byId(stdout)
  assert.equal(answers.size, 40)
  for (const [, msg] of answers) assert.equal(msg.result.content[0].text.length, big.length)
})

test('a request dispatched before its handler was replaced is answered by the old handler', async () => {
  const fixture = require('node:path').join(__dirname, 'fixtures', 'replace_server.js')
  const child = spawn(process.execPath, [fixture], { stdio: ['pipe', 'pipe', 'inherit'] })
  let stdout = ''
  child.stdout.on('data', (d) => { stdout += d })
  // One chunk: `target` is dispatched before `replace` runs.
  child.stdin.write(`${call(1, 'replace')}\n${call(2, 'target')}\n`)
  while (byId(stdout).size < 2) await new Promise((resolve) => setTimeout(resolve, 10))
  child.stdin.write(`${call(3, 'target')}\n`)
  const code = await new Promise((resolve) => { child.on('exit', resolve); child.stdin.end() })
  assert.equal(code, 0)
  const text = (id) => byId(stdout).get(id).result.content[0].text
  assert.deepEqual([text(1), text(2), text(3)], ['replaced', 'old', 'new'])
})

test('the answers of one chunk go out in pieces, in order, while its later calls are made', async () => {
  const fixture = require('node:path').join(__dirname, 'fixtures', 'spin_server.js')
  const child = spawn(process.execPath, [fixture], { stdio: ['pipe', 'pipe', 'inherit'] })
  const arrived = []
  let rest = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (d) => {
    const lines = (rest + d).split('\n')
    rest = lines.pop()
    for (const l of lines) arrived.push({ id: JSON.parse(l).id, at: Date.now() })
  })
  // One write: 40 quick calls, one that keeps the server's JS thread busy for 600 ms, 9 more.
  const lines = []
  for (let id = 1; id <= 50; id++) lines.push(id === 41 ? call(id, 'spin', { ms: 600 }) : call(id, 'echo', { text: `t${id}` }))
  child.stdin.write(lines.join('\n') + '\n')
  const code = await new Promise((resolve) => {
    child.on('exit', resolve)
    const check = setInterval(() => {
      if (arrived.length === 50) {
        clearInterval(check)
        child.stdin.end()
      }
    }, 10)
  })
  assert.equal(code, 0)
  assert.deepEqual(arrived.map((a) => a.id), Array.from({ length: 50 }, (_, i) => i + 1))
  // The first answers were written before the slow call, not with the rest of the chunk's.
  const first = arrived[0].at
  const slow = arrived[40].at
  assert.ok(slow - first >= 300, `the first answer arrived ${slow - first} ms before the slow one`)
})

test('many small calls per chunk while the peer does not read: every answer, in order', async () => {
  const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'inherit'] })
  // 2500 answers of 8 KiB (20 MiB, above the 16 MiB high-water mark), several calls per chunk,
  // all sent while the test reads nothing.
  const text = 'y'.repeat(8 * 1024)
  const lines = []
  for (let id = 1; id <= 2500; id++) lines.push(call(id, 'echo', { text }))
  child.stdin.write(lines.join('\n') + '\n')
  const { code, stdout } = await readAfterStall(child, 500)
  assert.equal(code, 0)
  const ids = stdout.split('\n').filter((l) => l !== '').map((l) => {
    const msg = JSON.parse(l)
    assert.equal(msg.result.content[0].text.length, text.length)
    return msg.id
  })
  assert.deepEqual(ids, Array.from({ length: 2500 }, (_, i) => i + 1))
})
