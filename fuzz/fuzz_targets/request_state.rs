//! `requestState` unsealing: any token either opens to what was sealed under the same binding or is
//! refused (never a panic, never a payload under another binding); a sealed token survives a round
//! trip and fails after any change to it or to its binding. Input: NUL-separated token, payload,
//! method, principal.
#![no_main]

use std::time::{Duration, UNIX_EPOCH};

use libfuzzer_sys::fuzz_target;
use libmcp::request_state::{StateBinding, StateError, StateSealer, params_digest};
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let parts = libmcp_fuzz::split_nul(data, 4);
    let token = libmcp_fuzz::text(parts[0]);
    let payload = parts.get(1).copied().unwrap_or_default();
    let method = libmcp_fuzz::text(parts.get(2).copied().unwrap_or_default());
    let principal = parts.get(3).map(|p| libmcp_fuzz::text(p));
    let sealer = StateSealer::new([7; 32]);
    let digest = params_digest(&json!({"name": method, "arguments": {"token": token}}));
    let binding = StateBinding {
        method: &method,
        params_digest: digest,
        principal: principal.as_deref(),
    };
    let now = UNIX_EPOCH + Duration::from_secs(1_900_000_000);
    // A token from the input does not verify unless it was sealed with this key.
    match sealer.open_at(&binding, &token, now) {
        Ok(_) => panic!("a fuzzed token {token:?} verified"),
        Err(_) => {}
    }
    let sealed = sealer.seal_at(&binding, payload, Duration::from_secs(60), now);
    assert_eq!(
        sealer.open_at(&binding, &sealed, now).as_deref(),
        Ok(payload)
    );
    assert_eq!(
        sealer.open_at(&binding, &sealed, now + Duration::from_secs(61)),
        Err(StateError::Expired)
    );
    let other = StateBinding {
        principal: Some("someone else"),
        ..binding
    };
    if principal.as_deref() != Some("someone else") {
        assert_eq!(
            sealer.open_at(&other, &sealed, now),
            Err(StateError::Tampered)
        );
    }
    assert_eq!(
        StateSealer::new([8; 32]).open_at(&binding, &sealed, now),
        Err(StateError::Tampered)
    );
    // Changing any one character of the token breaks it.
    let i = usize::from(payload.first().copied().unwrap_or(0)) % sealed.len();
    let mut bytes = sealed.into_bytes();
    bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
    let altered = String::from_utf8(bytes).expect("base64url is ASCII");
    assert!(sealer.open_at(&binding, &altered, now).is_err());
});
