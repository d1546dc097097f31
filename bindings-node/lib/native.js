'use strict'
// The native addon, loaded by napi's generated loader (../index.js, kept exactly as `napi build`
// writes it). When no addon loads, that loader's error blames npm; the error thrown here instead
// names this platform, what was tried, and what to do: build a source checkout, reinstall a platform
// package that is missing, or build from source where no prebuilt package exists.

const fs = require('node:fs')
const path = require('node:path')

const root = path.join(__dirname, '..')

// napi-rs's platform names (the suffix of the platform packages and of the `.node` files).
function platformName () {
  const { platform, arch } = process
  if (platform === 'linux') return `linux-${arch}-${isMusl() ? 'musl' : 'gnu'}`
  if (platform === 'win32') return `win32-${arch}-msvc`
  return `${platform}-${arch}`
}

// glibc reports its version in the process report; musl does not.
function isMusl () {
  if (!process.report || typeof process.report.getReport !== 'function') return false
  process.report.excludeNetwork = true
  const header = process.report.getReport().header
  return !(header && header.glibcVersionRuntime)
}

function readManifest () {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  } catch {
    return {}
  }
}

// The messages of the loader's errors (it chains them through `cause`).
function causes (error) {
  const out = []
  for (let e = error.cause; e && out.length < 16; e = e.cause) {
    out.push(String(e.message || e).split('\n')[0])
  }
  return out
}

function notLoaded (error) {
  const manifest = readManifest()
  const name = platformName()
  const prefix = `${manifest.name || 'libmcp'}-`
  const pkg = prefix + name
  const file = `libmcp.${name}.node`
  const prebuilt = Object.keys(manifest.optionalDependencies || {})
  const lines = [
    `libmcp: no native addon loaded for this platform (${name}, Node ${process.version}).`,
    `Tried: ${path.join(root, file)} and the package ${pkg}.`,
  ]
  if (fs.existsSync(path.join(root, 'Cargo.toml'))) {
    lines.push(
      `${root} is libmcp's source package and its addon is not built yet: run \`npm run build\` ` +
        '(or `npm run build:release`) there, which needs a Rust toolchain (https://rustup.rs); ' +
        'or install the packages `scripts/dist.sh` builds, which need none.',
    )
  } else if (prebuilt.includes(pkg)) {
    lines.push(
      `${pkg}@${manifest.optionalDependencies[pkg]} is the prebuilt addon for this platform and ` +
        'should have come with libmcp as an optional dependency: reinstall libmcp without ' +
        '`--omit=optional` / `--no-optional` (or install that package next to it).',
    )
  } else {
    lines.push(
      `There is no prebuilt libmcp addon for ${name}` +
        (prebuilt.length ? ` (prebuilt: ${prebuilt.map((p) => p.slice(prefix.length)).join(', ')})` : '') +
        '. To build one from source: install a Rust toolchain (https://rustup.rs), then in a ' +
        'checkout of libmcp run `cd bindings-node && npm ci && npm run build:release && npm pack` ' +
        'and install the tarball it writes.',
    )
  }
  const why = causes(error)
  if (why.length) lines.push('Load errors:', ...why.map((m) => `  ${m}`))
  else lines.push(`Load error: ${String(error.message).split('\n')[0]}`)
  const e = new Error(lines.join('\n'))
  e.code = 'ERR_LIBMCP_NO_ADDON'
  // The loader's chain of load errors, without its own message, which blames npm.
  e.cause = error.cause || error
  return e
}

let binding
try {
  binding = require('../index.js')
} catch (error) {
  throw notLoaded(error)
}

module.exports = binding
