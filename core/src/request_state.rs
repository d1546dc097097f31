//! Integrity protection for the MRTR `requestState` (2026-07-28 basic/patterns/mrtr, "Request state").
//!
//! A server that puts anything into `requestState` which influences authorization, resource access or
//! business logic must be able to tell when the client changed it. [`StateSealer`] turns a payload into
//! an opaque token bound to the originating request (method plus a digest of its params), the
//! authenticated principal and a short expiry, and authenticates all of it with HMAC-SHA256.
//!
//! **The payload is integrity-protected, not encrypted**: the client can base64-decode the token and
//! read it. Never put secrets in it. Sealing also does not stop replay within the validity window;
//! anything that must happen at most once needs server-side bookkeeping.
//!
//! Token layout (URL-safe base64 without padding):
//! `version (1 byte) || expiry (unix ms, u64 big-endian) || payload || tag (32 bytes)`.
//! The tag is HMAC-SHA256 over a domain label, the version, the expiry, the length-prefixed method,
//! the params digest, the principal (a presence byte, then length-prefixed) and the payload.

use std::fmt;
use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use parking_lot::RwLock;
use serde_json::Value;
use sha2::{Digest, Sha256};

type HmacSha256 = Hmac<Sha256>;

const VERSION: u8 = 1;
const TAG_LEN: usize = 32;
const HEADER_LEN: usize = 1 + 8;
/// Separates these MACs from any other use a server might make of the same key.
const DOMAIN: &[u8] = b"libmcp/requestState";

/// Params keys that change between rounds of one MRTR chain and so are left out of the digest.
const UNBOUND_KEYS: [&str; 3] = ["_meta", "inputResponses", "requestState"];

/// Why a `requestState` token was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StateError {
    /// The token is not base64url, is too short, or has an unknown version.
    #[error("requestState is malformed")]
    Malformed,
    /// The MAC does not verify: the token was altered, or it was issued for another method, params,
    /// principal or key.
    #[error("requestState failed integrity verification")]
    Tampered,
    /// The token verified but its expiry has passed.
    #[error("requestState has expired")]
    Expired,
    /// The sealer waits for keys kept elsewhere (a shared store that cannot be reached yet): it
    /// neither seals nor opens until it has them.
    #[error(
        "requestState cannot be sealed or opened yet: the shared key ring cannot be reached (retry)"
    )]
    KeysUnavailable,
}

/// What a sealed state is bound to: the originating request and the authenticated principal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateBinding<'a> {
    /// The JSON-RPC method of the request the state belongs to (e.g. `tools/call`).
    pub method: &'a str,
    /// [`params_digest`] of that request's params.
    pub params_digest: [u8; 32],
    /// The authenticated principal, if the transport has one (absent is distinct from empty).
    pub principal: Option<&'a str>,
}

/// SHA-256 over the canonical JSON of `params` without the top-level keys `_meta`, `inputResponses`
/// and `requestState`.
///
/// Canonical JSON here means: object keys sorted recursively (by their UTF-8 bytes), no whitespace,
/// strings escaped and numbers printed as `serde_json` prints them. A retry that carries the original
/// params therefore yields the same digest whatever the key order on the wire.
pub fn params_digest(params: &Value) -> [u8; 32] {
    let mut out = Vec::with_capacity(128);
    match params {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map
                .keys()
                .filter(|k| !UNBOUND_KEYS.contains(&k.as_str()))
                .collect();
            keys.sort();
            write_object(&mut out, keys.into_iter().map(|k| (k, &map[k])));
        }
        other => write_canonical(&mut out, other),
    }
    Sha256::digest(&out).into()
}

fn write_canonical(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {
            // Serializing a scalar to a Vec cannot fail.
            serde_json::to_writer(&mut *out, value).expect("scalar JSON serializes");
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(out, item);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            write_object(out, keys.into_iter().map(|k| (k, &map[k])));
        }
    }
}

fn write_object<'v>(out: &mut Vec<u8>, entries: impl Iterator<Item = (&'v String, &'v Value)>) {
    out.push(b'{');
    for (i, (key, value)) in entries.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut *out, key).expect("string JSON serializes");
        out.push(b':');
        write_canonical(out, value);
    }
    out.push(b'}');
}

/// Seals and opens `requestState` tokens with a 32-byte HMAC-SHA256 key.
///
/// Clones share one key ring: [`rotate`](Self::rotate) on any clone (for example from a task that
/// follows keys shared by several instances) changes what every clone seals with, and the previous key
/// is still accepted by [`open`](Self::open) until its grace period ends.
#[derive(Clone)]
pub struct StateSealer {
    ring: Arc<RwLock<KeyRing>>,
}

/// The current key and the one it replaced, accepted until `previous_until`; `ready` is false while
/// the keys are awaited from a shared store (see [`StateSealer::awaiting_keys`]).
pub(crate) struct KeyRing {
    current: [u8; 32],
    previous: Option<([u8; 32], SystemTime)>,
    ready: bool,
}

impl fmt::Debug for StateSealer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateSealer").finish_non_exhaustive()
    }
}

impl StateSealer {
    /// A sealer with the given key (share it across replicas that must accept each other's tokens).
    pub fn new(key: [u8; 32]) -> Self {
        StateSealer {
            ring: Arc::new(RwLock::new(KeyRing {
                current: key,
                previous: None,
                ready: true,
            })),
        }
    }

    /// A sealer that waits for its keys from elsewhere (a ring shared through a store that cannot
    /// be reached yet): until [`set_keys`](Self::set_keys) or [`rotate`](Self::rotate) gives it
    /// keys, [`is_ready`](Self::is_ready) is false and [`open`](Self::open) refuses every token
    /// with [`StateError::KeysUnavailable`] (the server then refuses to seal as well).
    pub fn awaiting_keys() -> Self {
        let sealer = StateSealer::random();
        sealer.ring.write().ready = false;
        sealer
    }

    /// Whether the sealer has its keys (always, except for [`awaiting_keys`](Self::awaiting_keys)
    /// until they arrive).
    pub fn is_ready(&self) -> bool {
        self.ring.read().ready
    }

    /// A sealer with a fresh key from the operating system's RNG; panics if the RNG is unavailable.
    pub fn random() -> Self {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).expect("operating system RNG unavailable");
        StateSealer::new(key)
    }

    /// Seals with `key` from now on; tokens sealed with the key it replaces still open until
    /// `previous_until`. Setting the current key again changes nothing.
    pub fn rotate(&self, key: [u8; 32], previous_until: SystemTime) {
        let mut ring = self.ring.write();
        if !ring.ready {
            // The placeholder key of a sealer awaiting its keys sealed nothing: not kept.
            ring.current = key;
            ring.ready = true;
            return;
        }
        if ring.current == key {
            return;
        }
        ring.previous = Some((ring.current, previous_until));
        ring.current = key;
    }

    /// A handle on the key ring that does not keep it alive (for a task following shared keys).
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    pub(crate) fn ring_weak(&self) -> Weak<RwLock<KeyRing>> {
        Arc::downgrade(&self.ring)
    }

    /// The sealer on `ring`, while some sealer still uses it.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    pub(crate) fn from_ring(ring: &Weak<RwLock<KeyRing>>) -> Option<StateSealer> {
        ring.upgrade().map(|ring| StateSealer { ring })
    }

    /// Sets both keys at once: `current` seals, `previous` (with the end of its grace period) is
    /// also accepted; for instances that adopt a key ring kept elsewhere.
    pub fn set_keys(&self, current: [u8; 32], previous: Option<([u8; 32], SystemTime)>) {
        let mut ring = self.ring.write();
        ring.current = current;
        ring.previous = previous;
        ring.ready = true;
    }

    /// The length of the token [`seal`](Self::seal) makes of a `plaintext_len`-byte payload: a
    /// longer token cannot hold a payload of at most that size.
    pub fn sealed_len(plaintext_len: usize) -> usize {
        // Unpadded base64url: 4 characters per 3 bytes, 2 or 3 for a last partial group.
        (4 * (HEADER_LEN + plaintext_len + TAG_LEN)).div_ceil(3)
    }

    /// Seals `plaintext` for `binding`, valid for `ttl` from now. A sealer
    /// [awaiting its keys](Self::awaiting_keys) seals with a placeholder key that nothing opens:
    /// check [`is_ready`](Self::is_ready) first.
    pub fn seal(&self, binding: &StateBinding<'_>, plaintext: &[u8], ttl: Duration) -> String {
        self.seal_at(binding, plaintext, ttl, SystemTime::now())
    }

    /// Opens a token sealed for `binding`, checking its expiry against the current time.
    pub fn open(&self, binding: &StateBinding<'_>, token: &str) -> Result<Vec<u8>, StateError> {
        self.open_at(binding, token, SystemTime::now())
    }

    /// [`seal`](Self::seal) with an explicit clock.
    pub fn seal_at(
        &self,
        binding: &StateBinding<'_>,
        plaintext: &[u8],
        ttl: Duration,
        now: SystemTime,
    ) -> String {
        let expiry =
            unix_ms(now).saturating_add(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
        let mut raw = Vec::with_capacity(HEADER_LEN + plaintext.len() + TAG_LEN);
        raw.push(VERSION);
        raw.extend_from_slice(&expiry.to_be_bytes());
        raw.extend_from_slice(plaintext);
        let key = self.ring.read().current;
        let tag = mac(&key, binding, &raw).finalize().into_bytes();
        raw.extend_from_slice(&tag);
        URL_SAFE_NO_PAD.encode(raw)
    }

    /// [`open`](Self::open) with an explicit clock. The MAC is checked before the expiry, so a token
    /// whose expiry was edited reports [`StateError::Tampered`].
    pub fn open_at(
        &self,
        binding: &StateBinding<'_>,
        token: &str,
        now: SystemTime,
    ) -> Result<Vec<u8>, StateError> {
        let raw = URL_SAFE_NO_PAD
            .decode(token.as_bytes())
            .map_err(|_| StateError::Malformed)?;
        if raw.len() < HEADER_LEN + TAG_LEN || raw[0] != VERSION {
            return Err(StateError::Malformed);
        }
        let (signed, tag) = raw.split_at(raw.len() - TAG_LEN);
        let (current, previous) = {
            let ring = self.ring.read();
            if !ring.ready {
                return Err(StateError::KeysUnavailable);
            }
            let previous = ring.previous.filter(|(_, until)| now < *until);
            (ring.current, previous.map(|(k, _)| k))
        };
        let verifies = |key: &[u8; 32]| mac(key, binding, signed).verify_slice(tag).is_ok();
        if !verifies(&current) && !previous.as_ref().is_some_and(verifies) {
            return Err(StateError::Tampered);
        }
        let expiry = u64::from_be_bytes(signed[1..HEADER_LEN].try_into().expect("8 bytes"));
        if unix_ms(now) >= expiry {
            return Err(StateError::Expired);
        }
        Ok(signed[HEADER_LEN..].to_vec())
    }
}

/// The MAC state after absorbing the binding and `signed` (version, expiry and payload).
fn mac(key: &[u8; 32], binding: &StateBinding<'_>, signed: &[u8]) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(DOMAIN);
    mac.update(&signed[..HEADER_LEN]);
    update_prefixed(&mut mac, binding.method.as_bytes());
    mac.update(&binding.params_digest);
    match binding.principal {
        None => mac.update(&[0]),
        Some(p) => {
            mac.update(&[1]);
            update_prefixed(&mut mac, p.as_bytes());
        }
    }
    mac.update(&signed[HEADER_LEN..]);
    mac
}

fn update_prefixed(mac: &mut HmacSha256, bytes: &[u8]) {
    mac.update(&(bytes.len() as u64).to_be_bytes());
    mac.update(bytes);
}

fn unix_ms(t: SystemTime) -> u64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => u64::try_from(d.as_millis()).unwrap_or(u64::MAX),
        Err(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const T0: Duration = Duration::from_secs(1_800_000_000);
    const TTL: Duration = Duration::from_secs(60);

    fn now() -> SystemTime {
        UNIX_EPOCH + T0
    }

    fn sealer() -> StateSealer {
        StateSealer::new([7u8; 32])
    }

    fn binding(principal: Option<&str>) -> StateBinding<'_> {
        StateBinding {
            method: "tools/call",
            params_digest: params_digest(&json!({"name": "t", "arguments": {"a": 1}})),
            principal,
        }
    }

    #[test]
    fn a_sealer_awaiting_its_keys_opens_nothing_until_it_has_them() {
        let b = binding(None);
        let shared = sealer();
        let token = shared.seal_at(&b, b"state", TTL, now());
        let waiting = StateSealer::awaiting_keys();
        assert!(!waiting.is_ready());
        assert_eq!(
            waiting.open_at(&b, &token, now()),
            Err(StateError::KeysUnavailable)
        );
        // What it sealed with its placeholder key opens nowhere, not even once it has the keys.
        let early = waiting.seal_at(&b, b"early", TTL, now());
        waiting.rotate([7u8; 32], now() + TTL);
        assert!(waiting.is_ready());
        assert_eq!(waiting.open_at(&b, &token, now()).unwrap(), b"state");
        assert_eq!(
            waiting.open_at(&b, &early, now()),
            Err(StateError::Tampered)
        );
        let other = StateSealer::awaiting_keys();
        other.set_keys([7u8; 32], None);
        assert_eq!(other.open_at(&b, &token, now()).unwrap(), b"state");
    }

    #[test]
    fn a_rotated_out_key_opens_until_its_grace_period_ends() {
        let b = binding(None);
        let s = sealer();
        let clone = s.clone();
        let old = s.seal_at(&b, b"x", TTL, now());
        clone.rotate([9u8; 32], now() + Duration::from_secs(30));
        let new = s.seal_at(&b, b"y", TTL, now());
        assert_eq!(s.open_at(&b, &old, now()), Ok(b"x".to_vec()));
        assert_eq!(s.open_at(&b, &new, now()), Ok(b"y".to_vec()));
        let later = now() + Duration::from_secs(31);
        assert_eq!(s.open_at(&b, &old, later), Err(StateError::Tampered));
        assert_eq!(s.open_at(&b, &new, later), Ok(b"y".to_vec()));
        assert_eq!(sealer().open_at(&b, &new, now()), Err(StateError::Tampered));
    }

    #[test]
    fn sealed_len_is_the_length_of_a_sealed_payload() {
        let b = binding(None);
        for n in 0..40 {
            let token = sealer().seal_at(&b, &vec![b'x'; n], TTL, now());
            assert_eq!(token.len(), StateSealer::sealed_len(n), "{n} bytes");
        }
    }

    #[test]
    fn round_trip() {
        let b = binding(Some("alice"));
        let token = sealer().seal_at(&b, b"step=2", TTL, now());
        assert!(!token.contains(['=', '+', '/']));
        assert_eq!(sealer().open_at(&b, &token, now()).unwrap(), b"step=2");
        let empty = sealer().seal_at(&b, b"", TTL, now());
        assert_eq!(sealer().open_at(&b, &empty, now()).unwrap(), b"");
        // The real clock works too.
        let s = StateSealer::random();
        assert_eq!(s.open(&b, &s.seal(&b, b"x", TTL)).unwrap(), b"x");
    }

    #[test]
    fn payload_is_readable_not_encrypted() {
        let b = binding(None);
        let token = sealer().seal_at(&b, b"visible", TTL, now());
        let raw = URL_SAFE_NO_PAD.decode(token).unwrap();
        assert_eq!(&raw[HEADER_LEN..raw.len() - TAG_LEN], b"visible");
    }

    #[test]
    fn every_byte_flip_is_rejected() {
        let b = binding(Some("alice"));
        let token = sealer().seal_at(&b, b"payload", TTL, now());
        let raw = URL_SAFE_NO_PAD.decode(&token).unwrap();
        for i in 0..raw.len() {
            for bit in [0x01u8, 0x80] {
                let mut bad = raw.clone();
                bad[i] ^= bit;
                let r = sealer().open_at(&b, &URL_SAFE_NO_PAD.encode(&bad), now());
                let expected = if i == 0 {
                    StateError::Malformed
                } else {
                    StateError::Tampered
                };
                assert_eq!(r, Err(expected), "byte {i} bit {bit:#x}");
            }
        }
        // Flipping characters of the text form is rejected as well (Malformed or Tampered).
        for i in 0..token.len() {
            let mut chars: Vec<char> = token.chars().collect();
            chars[i] = if chars[i] == 'A' { 'B' } else { 'A' };
            let bad: String = chars.into_iter().collect();
            assert!(sealer().open_at(&b, &bad, now()).is_err(), "char {i}");
        }
        // Truncation and extension.
        assert!(
            sealer()
                .open_at(&b, &token[..token.len() - 1], now())
                .is_err()
        );
        assert!(sealer().open_at(&b, &format!("{token}A"), now()).is_err());
    }

    #[test]
    fn wrong_binding_or_key_is_tampered() {
        let b = binding(Some("alice"));
        let token = sealer().seal_at(&b, b"p", TTL, now());
        let open = |b: &StateBinding<'_>| sealer().open_at(b, &token, now());
        let other_method = StateBinding {
            method: "prompts/get",
            ..b
        };
        assert_eq!(open(&other_method), Err(StateError::Tampered));
        let other_params = StateBinding {
            params_digest: params_digest(&json!({"name": "t", "arguments": {"a": 2}})),
            ..b
        };
        assert_eq!(open(&other_params), Err(StateError::Tampered));
        assert_eq!(open(&binding(Some("bob"))), Err(StateError::Tampered));
        assert_eq!(open(&binding(None)), Err(StateError::Tampered));
        // Absent and empty principals are different bindings.
        let anon = sealer().seal_at(&binding(None), b"p", TTL, now());
        assert_eq!(
            sealer().open_at(&binding(Some("")), &anon, now()),
            Err(StateError::Tampered)
        );
        let other_key = StateSealer::new([8u8; 32]);
        assert_eq!(
            other_key.open_at(&b, &token, now()),
            Err(StateError::Tampered)
        );
    }

    #[test]
    fn expiry() {
        let b = binding(None);
        let token = sealer().seal_at(&b, b"p", TTL, now());
        let at = |d: Duration| sealer().open_at(&b, &token, now() + d);
        assert!(at(TTL - Duration::from_millis(1)).is_ok());
        assert_eq!(at(TTL), Err(StateError::Expired));
        assert_eq!(at(TTL * 10), Err(StateError::Expired));
        // A zero TTL is never valid; a huge one saturates instead of overflowing.
        let zero = sealer().seal_at(&b, b"p", Duration::ZERO, now());
        assert_eq!(sealer().open_at(&b, &zero, now()), Err(StateError::Expired));
        let forever = sealer().seal_at(&b, b"p", Duration::MAX, now());
        assert!(sealer().open_at(&b, &forever, now()).is_ok());
    }

    #[test]
    fn garbage_is_malformed() {
        let b = binding(None);
        for junk in ["", "A", "not base64!", "====", "AAAA", &"A".repeat(54)] {
            assert_eq!(
                sealer().open_at(&b, junk, now()),
                Err(StateError::Malformed),
                "{junk:?}"
            );
        }
        let long_enough = URL_SAFE_NO_PAD.encode([1u8; 41]);
        assert_eq!(
            sealer().open_at(&b, &long_enough, now()),
            Err(StateError::Tampered)
        );
        assert_eq!(StateError::Expired.to_string(), "requestState has expired");
    }

    #[test]
    fn digest_is_canonical_and_ignores_round_keys() {
        let a = json!({"name": "t", "arguments": {"b": [1, 2.5, null], "a": "x"}});
        let b = serde_json::from_str::<Value>(
            r#"{ "arguments": {"a":"x", "b":[1,2.5,null]}, "_meta": {"k": 1},
                 "requestState": "abc", "inputResponses": {"k1": {}}, "name": "t" }"#,
        )
        .unwrap();
        assert_eq!(params_digest(&a), params_digest(&b));
        // Only top-level round keys are removed.
        let nested = json!({"name": "t", "arguments": {"b": [1, 2.5, null], "a": "x", "_meta": 1}});
        assert_ne!(params_digest(&a), params_digest(&nested));
        assert_ne!(params_digest(&a), params_digest(&json!({"name": "u"})));
        // The canonical text is what gets hashed.
        let expected: [u8; 32] =
            Sha256::digest(br#"{"arguments":{"a":"x","b":[1,2.5,null]},"name":"t"}"#).into();
        assert_eq!(params_digest(&a), expected);
        let scalar: [u8; 32] = Sha256::digest(b"\"s\"").into();
        assert_eq!(params_digest(&json!("s")), scalar);
    }
}
