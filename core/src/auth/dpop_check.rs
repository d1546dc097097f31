//! The resource server's check of a DPoP proof (RFC 9449 §4.3, §7.1): a compact JWS whose header
//! has `typ` `dpop+jwt`, `alg` `ES256` and the public `jwk` (P-256) that verifies its signature, and
//! whose claims bind it to this request (`htm`, `htu`), this moment (`iat` within the window), this
//! access token (`ath`) and this use (`jti` not seen before within the window). The result is the
//! key's RFC 7638 thumbprint, which must equal the token's `cnf.jkt`.

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use parking_lot::Mutex;
use ring::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// How far `iat` may be from the server's clock, and how long a `jti` is remembered.
pub const PROOF_WINDOW_SECS: u64 = 300;

/// Checks proofs and remembers the `jti`s of accepted ones.
#[derive(Default)]
pub(crate) struct ProofChecker {
    seen: Mutex<HashMap<String, u64>>,
}

fn part(s: &str, what: &str) -> Result<Value, String> {
    let raw = URL_SAFE_NO_PAD
        .decode(s)
        .map_err(|_| format!("the DPoP proof's {what} is not base64url"))?;
    serde_json::from_slice(&raw).map_err(|_| format!("the DPoP proof's {what} is not JSON"))
}

fn coordinate(jwk: &Value, k: &str) -> Result<Vec<u8>, String> {
    jwk[k]
        .as_str()
        .and_then(|v| URL_SAFE_NO_PAD.decode(v).ok())
        .filter(|v| v.len() == 32)
        .ok_or_else(|| format!("the DPoP proof's jwk has no 32-byte {k}"))
}

impl ProofChecker {
    /// Checks `proof` for a `method` request to `url` carrying `access_token`, at time `now`;
    /// returns the JWK thumbprint of the proof's key.
    pub fn check(
        &self,
        proof: &str,
        method: &str,
        url: &str,
        access_token: &str,
        now: u64,
    ) -> Result<String, String> {
        let parts: Vec<&str> = proof.split('.').collect();
        let [h, c, sig] = parts[..] else {
            return Err("the DPoP proof is not a compact JWS".into());
        };
        let header = part(h, "header")?;
        let claims = part(c, "claims")?;
        if header["typ"] != "dpop+jwt" {
            return Err("the DPoP proof's typ is not dpop+jwt".into());
        }
        if header["alg"] != "ES256" {
            return Err(format!(
                "the DPoP proof's alg {} is not supported (ES256)",
                header["alg"]
            ));
        }
        let jwk = &header["jwk"];
        if jwk["kty"] != "EC" || jwk["crv"] != "P-256" || jwk.get("d").is_some() {
            return Err("the DPoP proof's jwk is not a public P-256 key".into());
        }
        let (x, y) = (coordinate(jwk, "x")?, coordinate(jwk, "y")?);
        let point = [&[4u8][..], &x, &y].concat();
        let signature = URL_SAFE_NO_PAD
            .decode(sig)
            .map_err(|_| "the DPoP proof's signature is not base64url".to_owned())?;
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, &point)
            .verify(format!("{h}.{c}").as_bytes(), &signature)
            .map_err(|_| "the DPoP proof's signature does not verify".to_owned())?;
        if claims["htm"] != method {
            return Err(format!(
                "the DPoP proof is for {}, not {method}",
                claims["htm"]
            ));
        }
        let htu = url.split(['?', '#']).next().unwrap_or(url);
        if claims["htu"] != htu {
            return Err(format!(
                "the DPoP proof is for {}, not {htu}",
                claims["htu"]
            ));
        }
        let iat = claims["iat"]
            .as_u64()
            .ok_or("the DPoP proof has no numeric iat")?;
        if iat.abs_diff(now) > PROOF_WINDOW_SECS {
            return Err("the DPoP proof is stale (iat outside the accepted window)".into());
        }
        let ath = URL_SAFE_NO_PAD.encode(Sha256::digest(access_token.as_bytes()));
        if claims["ath"] != ath.as_str() {
            return Err("the DPoP proof's ath does not match the access token".into());
        }
        let jti = claims["jti"]
            .as_str()
            .filter(|j| !j.is_empty())
            .ok_or("the DPoP proof has no jti")?;
        let mut seen = self.seen.lock();
        seen.retain(|_, t| t.abs_diff(now) <= PROOF_WINDOW_SECS);
        if seen.insert(jti.to_owned(), iat).is_some() {
            return Err("the DPoP proof was used before (replayed jti)".into());
        }
        let canonical = json!({"crv": "P-256", "kty": "EC", "x": jwk["x"], "y": jwk["y"]});
        Ok(URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.to_string())))
    }
}
