'use strict'
// The client side of the skills extension (SEP-2640) against the Rust everything-server, which
// serves one skill (pdf-processing: SKILL.md and references/FORMS.md), in both eras: listing,
// one entry, files verified against the entry, and tampered entries refused.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { Client, McpError } = require('..')
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
