// The types of libmcp/sdk's experimental tasks (lib/sdk/tasks.d.ts) against code written for the
// official SDK's: compiled with --strict by scripts/test.d/41-node.sh, never run.
import { McpServer, InMemoryTaskStore, InMemoryTaskMessageQueue, isTerminal, Client, Task, TaskStore } from '../../lib/sdk'
import { z } from 'zod'

export async function sdkTasksUsage (): Promise<void> {
  const taskStore: TaskStore = new InMemoryTaskStore()
  const server = new McpServer({ name: 'tasks', version: '1' }, { taskStore, taskMessageQueue: new InMemoryTaskMessageQueue() })
  server.experimental.tasks.registerToolTask('delay', { inputSchema: { ms: z.number().default(10) } }, {
    async createTask ({ ms }, { taskStore: store, taskRequestedTtl }) {
      const task: Task = await store.createTask({ ttl: taskRequestedTtl })
      setTimeout(() => { void store.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: `${ms.toFixed(0)} ms` }] }) }, ms)
      return { task }
    },
    getTask: async (_args: unknown, { taskId, taskStore: store }: { taskId: string, taskStore: TaskStore }) => store.getTask(taskId),
  })
  server.experimental.tasks.registerToolTask('bare', { execution: { taskSupport: 'optional' } }, {
    createTask: async (extra) => ({ task: await extra.taskStore.createTask() }),
  })
  for await (const m of server.server.experimental.tasks.elicitInputStream({ message: 'name?', requestedSchema: {} })) {
    if (m.type === 'result') console.log(m.result.action)
    else if (m.type === 'error') console.log(m.error.message)
  }
  const done: boolean = isTerminal('completed')

  const client = new Client({ name: 'c', version: '1' })
  for await (const m of client.experimental.tasks.callToolStream({ name: 'delay', arguments: { ms: 5 } }, undefined, { task: {} })) {
    if (m.type === 'taskCreated' || m.type === 'taskStatus') console.log(m.task.status, done)
    else if (m.type === 'result') console.log(m.result.content.length)
  }
  const task: Task = await client.experimental.tasks.getTask('t')
  const cancelled: Task = await client.experimental.tasks.cancelTask(task.taskId)
  const { tasks, nextCursor } = await client.experimental.tasks.listTasks()
  console.log(cancelled.ttl, tasks.length, nextCursor, await client.experimental.tasks.getTaskResult('t'))
}
