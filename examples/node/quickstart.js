'use strict'
// A libmcp server and client in one script: the server serves one tool over Streamable HTTP, the
// client connects, calls it, and both close (the process then exits by itself).
// Run it where `libmcp` is installed: npm install libmcp && node quickstart.js
const { Server, Client } = require('libmcp')

async function main () {
  const server = new Server({ name: 'quickstart', version: '1.0.0' })
  server.tool('greet', {
    description: 'Greets someone',
    inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
  }, async ({ who }) => `Hello, ${who}!`)
  const http = await server.serveHttp({ port: 0 })

  const client = await Client.connectHttp(http.url)
  const result = await client.callTool('greet', { who: 'packaged world' })
  console.log(result.content[0].text)

  await client.close()
  await server.close()
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
