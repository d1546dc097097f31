'use strict'
// The skills extension (SEP-2640) on both sides of the package. The client side against the Rust
// everything-server, which serves one skill (pdf-processing: SKILL.md and references/FORMS.md),
// in both eras: listing, one entry, files verified against the entry, and tampered entries
// refused. The server side (`new Server(info, {skills})`): exact messages on the wire over HTTP
// (the extension declared, skills/list, skills/get, resources/directory/read, the files as
// resources), the Node client reading a Node server's skills in both eras, and SKILL.md files
// and paths the engine refuses as typed exceptions.
const test = require('node:test')
const assert = require('node:assert/strict')
const crypto = require('node:crypto')
const path = require('node:path')
const { Client, McpError, InvalidArgumentError, Server } = require('..')
const { BIN_DIR, LEGACY, MODERN } = require('./helpers')

const EVERYTHING = path.join(BIN_DIR, 'everything-server')
const SKILL = 'skill://pdf-processing/SKILL.md'
const FORMS = 'skill://pdf-processing/references/FORMS.md'

for (const [era, version] of [['modern', MODERN], ['legacy', LEGACY]]) {
  test(`skills from the Rust everything-server, ${era} era`, async () => {
    const c = await Client.connectStdio(EVERYTHING, [], { protocolVersion: version })
    try {
      const { skills } = await c.listSkills()
      assert.equal(skills.length, 1)
      const [entry] = skills
      assert.equal(entry.uri, SKILL)
      assert.equal(entry.frontmatter.name, 'pdf-processing')
      assert.deepEqual(entry.resources.map((r) => r.uri), [SKILL, FORMS])
      assert.deepEqual(await c.getSkill(SKILL), entry)

      const md = await c.readSkillFile(entry)
      assert.ok(Buffer.isBuffer(md))
      assert.ok(md.toString().startsWith('---\nname: pdf-processing\n'))
      assert.equal((await c.readSkillFile(entry, FORMS)).toString(), '# Forms\n\nFill every field, then flatten the document.\n')

      // An entry that does not match what the server serves: the content is refused.
      const resized = { ...entry, resources: entry.resources.map((r) => ({ ...r, size: r.size + 1 })) }
      await assert.rejects(c.readSkillFile(resized, FORMS), (e) => e instanceof McpError && e.kind === 'protocol' &&
        e.message === `skill verification failed: ${FORMS}: 54 bytes read, the entry says 55`)
      const otherDigest = { ...entry, resources: entry.resources.map((r) => ({ ...r, digest: `sha256:${'0'.repeat(64)}` })) }
      await assert.rejects(c.readSkillFile(otherDigest, FORMS), (e) => e instanceof McpError && /^skill verification failed: .*digest/.test(e.message))
      // A file the entry does not list: the file is read first, and this one does not exist.
      await assert.rejects(c.readSkillFile(entry, 'skill://pdf-processing/nope.md'), (e) => e instanceof McpError &&
        e.message === 'Resource not found: skill://pdf-processing/nope.md')

      assert.throws(() => c.getSkill(1), { name: 'TypeError', message: 'skill uri must be a string' })
      await assert.rejects(c.readSkillFile('x'), { name: 'TypeError', message: 'skill entry must be an object' })
      await assert.rejects(c.readSkillFile({ uri: SKILL }), (e) => e instanceof McpError && /^not a skill entry: /.test(e.message))
    } finally {
      await c.close()
    }
  })
}

// A Node server's skill: SKILL.md, a text file in a subdirectory and a binary file.
const NOTES_MD = '---\nname: notes\ndescription: Take notes\nlicense: Apache-2.0\n---\n\n# Notes\n\nSee guide/TIPS.md.\n'
const TIPS = 'Keep them short.\n'
const LOGO = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe])
const sha256 = (bytes) => `sha256:${crypto.createHash('sha256').update(bytes).digest('hex')}`
const size = (bytes) => Buffer.byteLength(bytes)
const NOTES_ENTRY = {
  uri: 'skill://notes/SKILL.md',
  frontmatter: { name: 'notes', description: 'Take notes', license: 'Apache-2.0' },
  resources: [
    { uri: 'skill://notes/SKILL.md', digest: sha256(NOTES_MD), size: size(NOTES_MD) },
    { uri: 'skill://notes/guide/TIPS.md', digest: sha256(TIPS), size: size(TIPS) },
    { uri: 'skill://notes/logo.png', digest: sha256(LOGO), size: LOGO.length },
  ],
}
const SERVER_INFO = { name: 'node-skills', version: '1.0.0' }

function skillServer () {
  return new Server(SERVER_INFO, {
    skills: [{
      skillMd: NOTES_MD,
      files: [
        { path: 'guide/TIPS.md', mimeType: 'text/markdown', content: TIPS },
        { path: 'logo.png', mimeType: 'image/png', content: LOGO },
      ],
    }],
  })
}

/** One 2026-07-28 request POSTed to `url`: the JSON-RPC response. */
async function modern (url, id, method, params = {}) {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'wire', version: '1' },
  }
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': method }
  // The header the 2026-07-28 transport requires for a read (the URI it names).
  if (method === 'resources/read') headers['mcp-name'] = params.uri
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta } }),
  })
  assert.equal(res.headers.get('content-type'), 'application/json')
  return res.json()
}

/** A 2026-07-28 result as the engine completes it, with the cache hints of lists and reads. */
const complete = (result) => ({ ...result, resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } })

test('a Node server\'s skills on the wire, 2026-07-28', async () => {
  const server = skillServer()
  const http = await server.serveHttp()
  try {
    const discover = await modern(http.url, 1, 'server/discover')
    assert.deepEqual(discover.result.capabilities.extensions, { 'io.modelcontextprotocol/skills': { directoryRead: true } })
    assert.deepEqual(discover.result.capabilities.resources, { listChanged: true, subscribe: true })

    assert.deepEqual(await modern(http.url, 2, 'skills/list'), {
      jsonrpc: '2.0', id: 2, result: complete({ skills: [NOTES_ENTRY] }),
    })
    assert.deepEqual((await modern(http.url, 3, 'skills/get', { uri: 'skill://notes/SKILL.md' })).result.skill, NOTES_ENTRY)
    assert.deepEqual(await modern(http.url, 4, 'skills/get', { uri: 'skill://nope/SKILL.md' }), {
      jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'Invalid params: skill://nope/SKILL.md is not the SKILL.md of a skill this server serves', data: { uri: 'skill://nope/SKILL.md' } },
    })
    assert.deepEqual((await modern(http.url, 5, 'resources/directory/read', { uri: 'skill://notes' })).result.resources, [
      { uri: 'skill://notes/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: size(NOTES_MD) },
      // Files first, then subdirectories.
      { uri: 'skill://notes/logo.png', name: 'logo.png', mimeType: 'image/png', size: LOGO.length },
      { uri: 'skill://notes/guide', name: 'guide', mimeType: 'inode/directory' },
    ])
    assert.deepEqual((await modern(http.url, 6, 'resources/directory/read', { uri: 'skill://notes/guide' })).result.resources, [
      { uri: 'skill://notes/guide/TIPS.md', name: 'TIPS.md', mimeType: 'text/markdown', size: size(TIPS) },
    ])
    assert.equal((await modern(http.url, 7, 'resources/directory/read', { uri: 'skill://notes/SKILL.md' })).error.code, -32602)

    // The files are resources: SKILL.md listed with its frontmatter's name and description.
    assert.deepEqual((await modern(http.url, 8, 'resources/list')).result.resources, [
      { uri: 'skill://notes/SKILL.md', name: 'notes', description: 'Take notes', mimeType: 'text/markdown', size: size(NOTES_MD) },
      { uri: 'skill://notes/guide/TIPS.md', name: 'guide/TIPS.md', description: 'guide/TIPS.md of skill notes', mimeType: 'text/markdown', size: size(TIPS) },
      { uri: 'skill://notes/logo.png', name: 'logo.png', description: 'logo.png of skill notes', mimeType: 'image/png', size: LOGO.length },
    ])
    assert.deepEqual((await modern(http.url, 9, 'resources/read', { uri: 'skill://notes/guide/TIPS.md' })).result,
      complete({ contents: [{ uri: 'skill://notes/guide/TIPS.md', mimeType: 'text/markdown', text: TIPS }] }))
    assert.deepEqual((await modern(http.url, 10, 'resources/read', { uri: 'skill://notes/logo.png' })).result.contents,
      [{ uri: 'skill://notes/logo.png', mimeType: 'image/png', blob: Buffer.from(LOGO).toString('base64') }])
  } finally {
    await server.close()
  }
})

test('a server without skills has no skills methods', async () => {
  const server = new Server(SERVER_INFO)
  const http = await server.serveHttp()
  try {
    assert.equal((await modern(http.url, 1, 'skills/list')).error.code, -32601)
    assert.equal((await modern(http.url, 2, 'server/discover')).result.capabilities.extensions, undefined)
  } finally {
    await server.close()
  }
})

for (const [era, version] of [['modern', MODERN], ['legacy', LEGACY]]) {
  test(`the Node client reads a Node server's skills, ${era} era`, async () => {
    const server = skillServer()
    const http = await server.serveHttp()
    const c = await Client.connectHttp(http.url, { protocolVersion: version })
    try {
      assert.equal(c.era, era)
      assert.deepEqual(await c.listSkills(), { skills: [NOTES_ENTRY] })
      assert.deepEqual(await c.getSkill(NOTES_ENTRY.uri), NOTES_ENTRY)
      assert.equal((await c.readSkillFile(NOTES_ENTRY)).toString(), NOTES_MD)
      assert.equal((await c.readSkillFile(NOTES_ENTRY, 'skill://notes/guide/TIPS.md')).toString(), TIPS)
      assert.deepEqual(new Uint8Array(await c.readSkillFile(NOTES_ENTRY, 'skill://notes/logo.png')), LOGO)
      await assert.rejects(c.getSkill('skill://nope/SKILL.md'), (e) => e instanceof McpError && e.code === -32602 &&
        e.message === 'Invalid params: skill://nope/SKILL.md is not the SKILL.md of a skill this server serves')
    } finally {
      await c.close()
      await server.close()
    }
  })
}

test('skills the engine refuses are InvalidArgumentErrors; wrong types are TypeErrors', () => {
  const refused = (skills, message) => assert.throws(() => new Server(SERVER_INFO, { skills }),
    (e) => e instanceof InvalidArgumentError && e.kind === 'invalidArgument' && e.message === message)
  refused([{ skillMd: 'no frontmatter' }], 'SKILL.md does not begin with a --- frontmatter line')
  refused([{ skillMd: '---\nname: Bad_Name\ndescription: x\n---\n' }],
    'skill name "Bad_Name" breaks the naming rules (1-64 of a-z, 0-9 and -, no leading, trailing or double -)')
  refused([{ skillMd: '---\nname: notes\n---\n' }], 'skill notes: the SKILL.md frontmatter has no description')
  refused([{ skillMd: NOTES_MD, files: [{ path: '../escape', mimeType: 'text/plain', content: 'x' }] }], 'skill notes: invalid file path "../escape"')
  refused([{ skillMd: NOTES_MD, files: [{ path: 'SKILL.md/x', mimeType: 'text/plain', content: 'x' }] }], 'skill notes: "SKILL.md/x" collides with another file')
  // The same skill twice: its files would be registered twice.
  assert.throws(() => new Server(SERVER_INFO, { skills: [{ skillMd: NOTES_MD }, { skillMd: NOTES_MD }] }),
    (e) => e instanceof McpError && /skill:\/\/notes\/SKILL\.md/.test(e.message))

  const typeError = (skills, message) => assert.throws(() => new Server(SERVER_INFO, { skills }), { name: 'TypeError', message })
  typeError({}, 'skills must be an array, got object')
  typeError([null], 'skills[0] must be an object, got null')
  typeError([{}], 'skills[0].skillMd must be a string, got undefined')
  typeError([{ skillMd: NOTES_MD, files: {} }], 'skills[0].files must be an array, got object')
  typeError([{ skillMd: NOTES_MD, files: [{ path: 'a', mimeType: 'text/plain', content: 1 }] }], 'skills[0].files[0].content must be a string or a Uint8Array, got number')
  typeError([{ skillMd: NOTES_MD, files: [{ path: 'a', content: 'x' }] }], 'skills[0].files[0].mimeType must be a non-empty string, got undefined')
})

for (const [era, version] of [['modern', MODERN], ['legacy', LEGACY]]) {
  test(`skills added, replaced and removed at runtime, ${era} era`, async () => {
    const server = new Server(SERVER_INFO)
    server.resource('clash', 'skill://clash/SKILL.md', {}, () => ({ contents: [{ uri: 'skill://clash/SKILL.md', text: 'not a skill' }] }))
    const http = await server.serveHttp()
    const c = await Client.connectHttp(http.url, { protocolVersion: version })
    const sub = await c.subscribe({ resourcesListChanged: true })
    try {
      await assert.rejects(c.listSkills(), (e) => e instanceof McpError && e.code === -32601)
      server.addSkill({
        skillMd: NOTES_MD,
        files: [
          { path: 'guide/TIPS.md', mimeType: 'text/markdown', content: TIPS },
          { path: 'logo.png', mimeType: 'image/png', content: LOGO },
        ],
      })
      assert.deepEqual(await c.listSkills(), { skills: [NOTES_ENTRY] })
      assert.equal((await sub.next()).method, 'notifications/resources/list_changed')
      // The same name replaces the skill and its files.
      const v2 = NOTES_MD.replace('# Notes', '# Better notes')
      server.addSkill({ skillMd: v2 })
      const { skills: [entry] } = await c.listSkills()
      assert.deepEqual(entry.resources, [{ uri: 'skill://notes/SKILL.md', digest: sha256(v2), size: size(v2) }])
      assert.equal((await c.readSkillFile(entry)).toString(), v2)
      await assert.rejects(c.readResource('skill://notes/guide/TIPS.md'), (e) => e instanceof McpError)
      // A file URI another resource has: refused, nothing changes.
      assert.throws(() => server.addSkill({ skillMd: '---\nname: clash\ndescription: Clashes\n---\n' }),
        (e) => e instanceof InvalidArgumentError && /skill:\/\/clash\/SKILL\.md/.test(e.message))
      assert.deepEqual((await c.listSkills()).skills.map((s) => s.frontmatter.name), ['notes'])
      assert.throws(() => server.addSkill({ skillMd: 'no frontmatter' }),
        (e) => e instanceof InvalidArgumentError && e.message === 'SKILL.md does not begin with a --- frontmatter line')
      assert.throws(() => server.addSkill('x'), { name: 'TypeError', message: 'skill must be an object, got string' })
      assert.throws(() => server.removeSkill(1), { name: 'TypeError' })
      assert.equal(server.removeSkill('notes'), true)
      assert.equal(server.removeSkill('notes'), false)
      await assert.rejects(c.listSkills(), (e) => e instanceof McpError && e.code === -32601)
    } finally {
      await sub.close()
      await c.close()
      await server.close()
    }
  })
}
