// What `mcp-soak` reads of a Node server's memory beside its RSS: when MCP_SOAK_MEMORY_DIR is set,
// `process.memoryUsage()` (rss, heapTotal, heapUsed, external, arrayBuffers, in bytes) is written
// as JSON to $MCP_SOAK_MEMORY_DIR/<pid>.json once a second (MCP_SOAK_MEMORY_MS to change that),
// replaced whole each time (written aside, then renamed) so that a reader never sees half of it.
// The timer is unref'd: it never keeps the process alive. everything_node.js loads this module; any
// other Node server (a mounted endpoint) loads it with `node --require .../node_memory.js ...`.
'use strict'

const fs = require('node:fs')
const path = require('node:path')

const dir = process.env.MCP_SOAK_MEMORY_DIR
if (dir) {
  const every = Number(process.env.MCP_SOAK_MEMORY_MS || 1000)
  if (!Number.isInteger(every) || every < 10) {
    throw new Error(`MCP_SOAK_MEMORY_MS must be a whole number of milliseconds >= 10, not ${process.env.MCP_SOAK_MEMORY_MS}`)
  }
  const file = path.join(dir, `${process.pid}.json`)
  const aside = `${file}.tmp`
  const write = () => {
    try {
      fs.writeFileSync(aside, JSON.stringify(process.memoryUsage()))
      fs.renameSync(aside, file)
    } catch (e) {
      // The soak removes its directory when it ends; a server still running then stops writing.
      process.stderr.write(`node_memory: ${e.message}; no more memory samples\n`)
      clearInterval(timer)
    }
  }
  const timer = setInterval(write, every)
  timer.unref()
  write()
}
