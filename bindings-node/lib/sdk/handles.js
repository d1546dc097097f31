'use strict'
// The handle `registerTool`, `registerResource` and `registerPrompt` return, as the SDK's
// RegisteredTool / RegisteredResource / RegisteredPrompt: `update(updates)`, `enable()`,
// `disable()`, `remove()`, over this package's own registration (lib/server.js `Registered`).

/** One SDK-style registration of `kind`. `ops.native(config, callback)` gives `[config, handler]`
 * for this package's Server, `ops.register(name, config, handler)` registers them there; `updates`
 * maps each key `update()` takes to the config key it sets (`null`: the whole metadata). */
class RegisteredHandle {
  #kind
  #ops
  #updates
  #reg
  #removed = false
  constructor (kind, name, config, callback, ops, updates) {
    this.#kind = kind
    this.#ops = ops
    this.#updates = updates
    this.name = name
    this.config = { ...config }
    this.callback = callback
    this.#reg = ops.register(name, ...ops.native(this.config, callback))
  }

  get title () { return this.config.title }
  get description () { return this.config.description }
  /** The SDK calls a tool's callback `handler`. */
  get handler () { return this.callback }
  get enabled () { return !this.#removed && this.#reg.enabled }
  get removed () { return this.#removed }

  /** Changes the registration as the SDK's `update` does: `name` (renames; `null` removes),
   * `callback`, `enabled`, and the kind's own keys (a tool's `title`, `description`,
   * `paramsSchema`, `outputSchema`, `annotations`, `_meta`; a resource's `title`, `metadata`; a
   * prompt's `title`, `description`, `argsSchema`). */
  update (updates) {
    if (updates === null || typeof updates !== 'object') throw new TypeError('update: updates must be an object')
    if (this.#removed) throw new Error(`${this.#kind} ${this.name} was removed`)
    if (updates.name === null) {
      this.remove()
      return
    }
    const config = { ...this.config }
    for (const [key, target] of Object.entries(this.#updates)) {
      if (updates[key] === undefined) continue
      if (target === null) Object.assign(config, updates[key])
      else config[target] = updates[key]
    }
    const callback = updates.callback ?? this.callback
    const renamed = updates.name !== undefined && updates.name !== this.name
    const changed = renamed || callback !== this.callback || Object.keys(this.#updates).some((k) => updates[k] !== undefined)
    if (renamed) {
      const wasEnabled = this.#reg.enabled
      const made = this.#ops.native(config, callback)
      this.#reg.remove()
      const reg = this.#ops.register(updates.name, ...made)
      this.#reg = reg
      this.name = updates.name
      if (!wasEnabled) reg.disable()
    } else if (changed) {
      this.#reg.update(...this.#ops.native(config, callback))
    }
    this.config = config
    this.callback = callback
    if (updates.enabled === true) this.#reg.enable()
    if (updates.enabled === false) this.#reg.disable()
  }

  enable () { this.update({ enabled: true }) }
  disable () { this.update({ enabled: false }) }

  /** Removes it for good. */
  remove () {
    if (this.#removed) return
    this.#removed = true
    this.#reg.remove()
  }
}

module.exports = { RegisteredHandle }
