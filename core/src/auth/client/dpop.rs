//! DPoP (RFC 9449): the client's proof-of-possession key, one fresh proof JWT per HTTP request
//! (§4.2: `typ` `dpop+jwt`, the public `jwk`, claims `jti`, `htm`, `htu`, `iat`, plus `ath` when an
//! access token goes with it and `nonce` when the server supplied one), and the nonces servers
//! hand out (§8 at the authorization server, §9 at the resource server), kept per endpoint.

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use parking_lot::Mutex;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::super::pkce::random_token;
use super::AuthError;
use super::jwt::{SigningKey, now};

/// The `error` of a challenge asking for a (new) nonce (RFC 9449 §8, §9).
pub const USE_DPOP_NONCE: &str = "use_dpop_nonce";

/// A DPoP key and the nonces servers gave it.
pub(crate) struct Dpop {
    key: SigningKey,
    /// Endpoint (`htu`) → the last nonce its server sent.
    nonces: Mutex<HashMap<String, String>>,
}

/// `htu`: the request URL without query and fragment (RFC 9449 §4.2).
pub(crate) fn htu(url: &str) -> &str {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    &url[..end]
}

/// `ath`: base64url of the SHA-256 of the access token (RFC 9449 §4.2).
pub(crate) fn ath(access_token: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(access_token.as_bytes()))
}

/// The claims of one proof.
pub(crate) fn proof_claims(
    method: &str,
    url: &str,
    iat: u64,
    jti: &str,
    access_token: Option<&str>,
    nonce: Option<&str>,
) -> Value {
    let mut claims = json!({"jti": jti, "htm": method, "htu": htu(url), "iat": iat});
    if let Some(token) = access_token {
        claims["ath"] = json!(ath(token));
    }
    if let Some(n) = nonce {
        claims["nonce"] = json!(n);
    }
    claims
}

impl Dpop {
    /// A fresh ES256 key.
    pub fn generate() -> Result<Dpop, AuthError> {
        Ok(Dpop::with_key(SigningKey::generate_es256()?))
    }

    pub fn with_key(key: SigningKey) -> Dpop {
        Dpop {
            key,
            nonces: Mutex::new(HashMap::new()),
        }
    }

    /// The key's RFC 7638 thumbprint (what a DPoP-bound token's `cnf.jkt` names).
    #[cfg(test)]
    pub fn thumbprint(&self) -> String {
        self.key.thumbprint()
    }

    /// A new proof for one request: `method` and `url` of the request, the access token it carries
    /// (none at the token endpoint), with the endpoint's last nonce.
    pub fn proof(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&str>,
    ) -> Result<String, AuthError> {
        let nonce = self.nonces.lock().get(htu(url)).cloned();
        let claims = proof_claims(
            method,
            url,
            now(),
            &random_token(),
            access_token,
            nonce.as_deref(),
        );
        let header = json!({"typ": "dpop+jwt", "jwk": self.key.public_jwk()});
        self.key.sign(&header, &claims)
    }

    /// Records the nonce the server at `url` sent; whether it differs from the one held.
    pub fn note_nonce(&self, url: &str, nonce: &str) -> bool {
        let mut nonces = self.nonces.lock();
        let key = htu(url).to_owned();
        if nonces.get(&key).map(String::as_str) == Some(nonce) {
            return false;
        }
        nonces.insert(key, nonce.to_owned());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::jwt::{decode_unverified, verify_es256};
    use super::*;

    #[test]
    fn proof_header_and_claims() {
        let key = SigningKey::generate_es256().unwrap();
        let dpop = Dpop::with_key(key.clone());
        let url = "http://rs.example/mcp?x=1#f";
        let proof = dpop.proof("POST", url, Some("tok")).unwrap();
        assert!(verify_es256(&key, &proof));
        let (header, claims, _) = decode_unverified(&proof);
        assert_eq!(header["typ"], "dpop+jwt");
        assert_eq!(header["alg"], "ES256");
        assert_eq!(header["jwk"], key.public_jwk());
        assert!(header["jwk"].get("d").is_none(), "no private part");
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["htu"], "http://rs.example/mcp");
        // ath = base64url(SHA-256("tok")).
        assert_eq!(claims["ath"], "GnZ0607njffhrEOak8P6jjyUV4TU3sn9jjARc4svHWI");
        assert!(claims.get("nonce").is_none());
        let iat = claims["iat"].as_u64().unwrap();
        assert!(iat.abs_diff(now()) <= 1);
        let jti = claims["jti"].as_str().unwrap().to_owned();
        assert!(jti.len() >= 32);
        let again = decode_unverified(&dpop.proof("POST", url, Some("tok")).unwrap()).1;
        assert_ne!(again["jti"].as_str().unwrap(), jti, "every proof is fresh");
        assert_eq!(dpop.thumbprint(), key.thumbprint());
    }

    /// The resource server's checker against this client's proofs.
    #[test]
    fn the_resource_server_check_binds_method_url_time_token_and_use() {
        use crate::auth::dpop_check::ProofChecker;
        let key = SigningKey::generate_es256().unwrap();
        let dpop = Dpop::with_key(key.clone());
        let url = "http://rs/mcp";
        let checker = ProofChecker::default();
        let t = now();
        let p = dpop.proof("POST", url, Some("tok")).unwrap();
        assert_eq!(
            checker.check(&p, "POST", url, "tok", t),
            Ok(key.thumbprint())
        );
        assert!(
            checker
                .check(&p, "POST", url, "tok", t)
                .unwrap_err()
                .contains("replayed")
        );
        let err = |p: &str, m: &str, u: &str, tok: &str, at: u64| {
            ProofChecker::default().check(p, m, u, tok, at).unwrap_err()
        };
        let p = dpop.proof("POST", url, Some("tok")).unwrap();
        assert!(err(&p, "GET", url, "tok", t).contains("not GET"));
        assert!(err(&p, "POST", "http://rs/other", "tok", t).contains("not http://rs/other"));
        assert!(err(&p, "POST", url, "other-token", t).contains("ath"));
        assert!(err(&p, "POST", url, "tok", t + 301).contains("stale"));
        // A proof signed by another key than its jwk header names.
        let other = SigningKey::generate_es256().unwrap();
        let header = json!({"typ": "dpop+jwt", "jwk": key.public_jwk()});
        let forged = other
            .sign(
                &header,
                &proof_claims("POST", url, t, "j", Some("tok"), None),
            )
            .unwrap();
        assert!(err(&forged, "POST", url, "tok", t).contains("signature"));
        let wrong_typ = key
            .sign(&json!({"typ": "JWT", "jwk": key.public_jwk()}), &json!({}))
            .unwrap();
        assert!(err(&wrong_typ, "POST", url, "tok", t).contains("typ"));
        assert!(err("a.b", "POST", url, "tok", t).contains("compact JWS"));
    }

    #[test]
    fn token_endpoint_proof_has_no_ath() {
        let c = proof_claims("POST", "http://as/token", 7, "j", None, None);
        assert_eq!(
            c,
            json!({"jti": "j", "htm": "POST", "htu": "http://as/token", "iat": 7})
        );
    }

    #[test]
    fn nonces_are_kept_per_endpoint() {
        let dpop = Dpop::generate().unwrap();
        assert!(dpop.note_nonce("http://as/token", "n1"));
        assert!(
            !dpop.note_nonce("http://as/token?q", "n1"),
            "same endpoint, same nonce"
        );
        let claims = |url: &str| decode_unverified(&dpop.proof("POST", url, None).unwrap()).1;
        assert_eq!(claims("http://as/token")["nonce"], "n1");
        assert!(claims("http://rs/mcp").get("nonce").is_none());
        assert!(dpop.note_nonce("http://as/token", "n2"));
        assert_eq!(claims("http://as/token")["nonce"], "n2");
    }
}
