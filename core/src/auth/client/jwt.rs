//! Signed JWTs (RFC 7515 compact serialization) for OAuth client assertions (RFC 7523 §2.2) and DPoP
//! proofs (RFC 9449 §4.2), signed with `ring`: ES256 (ECDSA P-256 with SHA-256, RFC 7518 §3.4) and
//! RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3).

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::SystemRandom;
use ring::signature::{self, EcdsaKeyPair, KeyPair, RsaKeyPair};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::AuthError;

enum Key {
    Es256(EcdsaKeyPair),
    Rs256(RsaKeyPair),
}

/// A private key that signs JWTs (cheap to clone).
#[derive(Clone)]
pub struct SigningKey {
    key: Arc<Key>,
    rng: SystemRandom,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey")
            .field("alg", &self.algorithm())
            .finish_non_exhaustive()
    }
}

fn credentials(why: String) -> AuthError {
    AuthError::Credentials(why)
}

impl SigningKey {
    /// A fresh ES256 key (for DPoP, where the client makes its own key pair).
    pub fn generate_es256() -> Result<SigningKey, AuthError> {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&signature::ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .map_err(|_| credentials("cannot generate a P-256 key pair".into()))?;
        SigningKey::from_pkcs8_der(pkcs8.as_ref(), "ES256")
    }

    /// A key from a PEM `PRIVATE KEY` block (PKCS #8) for algorithm `alg` (`ES256` or `RS256`).
    pub fn from_pkcs8_pem(pem_text: &str, alg: &str) -> Result<SigningKey, AuthError> {
        let block = pem::parse(pem_text.trim())
            .map_err(|e| credentials(format!("the private key is not PEM: {e}")))?;
        if block.tag() != "PRIVATE KEY" {
            return Err(credentials(format!(
                "the private key is a PEM {:?} block; a PKCS #8 \"PRIVATE KEY\" block is needed",
                block.tag()
            )));
        }
        SigningKey::from_pkcs8_der(block.contents(), alg)
    }

    /// A key from PKCS #8 DER for algorithm `alg` (`ES256` or `RS256`).
    pub fn from_pkcs8_der(der: &[u8], alg: &str) -> Result<SigningKey, AuthError> {
        let rng = SystemRandom::new();
        let key = match alg {
            "ES256" => Key::Es256(
                EcdsaKeyPair::from_pkcs8(&signature::ECDSA_P256_SHA256_FIXED_SIGNING, der, &rng)
                    .map_err(|e| {
                        credentials(format!("the private key is not a P-256 PKCS #8 key: {e}"))
                    })?,
            ),
            "RS256" => Key::Rs256(RsaKeyPair::from_pkcs8(der).map_err(|e| {
                credentials(format!("the private key is not an RSA PKCS #8 key: {e}"))
            })?),
            other => {
                return Err(credentials(format!(
                    "signing algorithm {other:?} is not supported (ES256 or RS256)"
                )));
            }
        };
        Ok(SigningKey {
            key: Arc::new(key),
            rng,
        })
    }

    /// The JWS `alg` this key signs with.
    pub fn algorithm(&self) -> &'static str {
        match *self.key {
            Key::Es256(_) => "ES256",
            Key::Rs256(_) => "RS256",
        }
    }

    /// The public key as a JWK (RFC 7517) with only the required members, in the lexicographic
    /// order RFC 7638 §3.2 hashes them in.
    pub fn public_jwk(&self) -> Value {
        match &*self.key {
            Key::Es256(k) => {
                // An uncompressed SEC1 point: 0x04 || X || Y.
                let point = k.public_key().as_ref();
                json!({
                    "crv": "P-256",
                    "kty": "EC",
                    "x": URL_SAFE_NO_PAD.encode(&point[1..33]),
                    "y": URL_SAFE_NO_PAD.encode(&point[33..65]),
                })
            }
            Key::Rs256(k) => {
                let parts = ring::rsa::PublicKeyComponents::<Vec<u8>>::from(k.public());
                json!({
                    "e": URL_SAFE_NO_PAD.encode(parts.e),
                    "kty": "RSA",
                    "n": URL_SAFE_NO_PAD.encode(parts.n),
                })
            }
        }
    }

    /// The RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key: `cnf.jkt` of a
    /// DPoP-bound token (RFC 9449 §6.1).
    pub fn thumbprint(&self) -> String {
        // serde_json keeps the members in the order public_jwk wrote them, with no whitespace.
        URL_SAFE_NO_PAD.encode(Sha256::digest(self.public_jwk().to_string()))
    }

    /// Signs `claims` under `header` (its `alg` is set here) into a compact JWS.
    pub fn sign(&self, header: &Value, claims: &Value) -> Result<String, AuthError> {
        let mut header = header.clone();
        header["alg"] = json!(self.algorithm());
        let input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let sig = match &*self.key {
            Key::Es256(k) => k
                .sign(&self.rng, input.as_bytes())
                .map(|s| s.as_ref().to_vec())
                .map_err(|_| credentials("ES256 signing failed".into()))?,
            Key::Rs256(k) => {
                let mut out = vec![0u8; k.public().modulus_len()];
                k.sign(
                    &signature::RSA_PKCS1_SHA256,
                    &self.rng,
                    input.as_bytes(),
                    &mut out,
                )
                .map_err(|_| credentials("RS256 signing failed".into()))?;
                out
            }
        };
        Ok(format!("{input}.{}", URL_SAFE_NO_PAD.encode(sig)))
    }
}

/// Seconds since the Unix epoch.
pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// How long a client assertion is valid.
const ASSERTION_LIFETIME: u64 = 300;

/// The claims of a `private_key_jwt` client assertion (RFC 7523 §3): `iss` and `sub` are the
/// client id, `aud` the authorization server's issuer identifier, a short `exp`, `iat` and a
/// unique `jti`.
pub(crate) fn assertion_claims(client_id: &str, audience: &str, jti: &str, now: u64) -> Value {
    json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now,
        "exp": now + ASSERTION_LIFETIME,
        "jti": jti,
    })
}

/// Decodes the header and claims of a compact JWS (no signature check; for tests and diagnostics).
#[cfg(test)]
pub(crate) fn decode_unverified(jwt: &str) -> (Value, Value, Vec<u8>) {
    let parts: Vec<&str> = jwt.split('.').collect();
    assert_eq!(parts.len(), 3, "a compact JWS has three parts: {jwt}");
    let part = |s: &str| URL_SAFE_NO_PAD.decode(s).expect("base64url");
    let header = serde_json::from_slice(&part(parts[0])).expect("header JSON");
    let claims = serde_json::from_slice(&part(parts[1])).expect("claims JSON");
    (header, claims, part(parts[2]))
}

/// Verifies a compact JWS with the key's public half (ES256; for tests).
#[cfg(test)]
pub(crate) fn verify_es256(key: &SigningKey, jwt: &str) -> bool {
    let Key::Es256(k) = &*key.key else {
        return false;
    };
    let (input, sig) = jwt.rsplit_once('.').expect("a compact JWS");
    let sig = URL_SAFE_NO_PAD.decode(sig).expect("base64url");
    signature::UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, k.public_key().as_ref())
        .verify(input.as_bytes(), &sig)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn es256_signature_verifies_and_tampering_breaks_it() {
        let key = SigningKey::generate_es256().unwrap();
        let jwt = key
            .sign(&json!({"typ": "JWT"}), &json!({"sub": "x"}))
            .unwrap();
        let (header, claims, sig) = decode_unverified(&jwt);
        assert_eq!(header, json!({"typ": "JWT", "alg": "ES256"}));
        assert_eq!(claims, json!({"sub": "x"}));
        assert_eq!(sig.len(), 64, "ES256 signatures are R || S, 32 bytes each");
        assert!(verify_es256(&key, &jwt));
        let (_, rest) = jwt.split_once('.').unwrap();
        let forged = format!("{}.{rest}", URL_SAFE_NO_PAD.encode(r#"{"alg":"ES256"}"#));
        assert!(!verify_es256(&key, &forged));
    }

    #[test]
    fn pem_keys_load_and_bad_ones_are_named() {
        let der = EcdsaKeyPair::generate_pkcs8(
            &signature::ECDSA_P256_SHA256_FIXED_SIGNING,
            &SystemRandom::new(),
        )
        .unwrap();
        let text = pem::encode(&pem::Pem::new("PRIVATE KEY", der.as_ref().to_vec()));
        let key = SigningKey::from_pkcs8_pem(&text, "ES256").unwrap();
        assert_eq!(key.algorithm(), "ES256");
        let err = |r: Result<SigningKey, AuthError>| r.unwrap_err().to_string();
        assert!(err(SigningKey::from_pkcs8_pem("nonsense", "ES256")).contains("not PEM"));
        assert!(err(SigningKey::from_pkcs8_pem(&text, "HS256")).contains("not supported"));
        assert!(err(SigningKey::from_pkcs8_pem(&text, "RS256")).contains("not an RSA"));
        let wrong_tag = pem::encode(&pem::Pem::new("EC PRIVATE KEY", vec![1, 2, 3]));
        assert!(err(SigningKey::from_pkcs8_pem(&wrong_tag, "ES256")).contains("PKCS #8"));
    }

    #[test]
    fn jwk_and_thumbprint_follow_rfc_7638() {
        let key = SigningKey::generate_es256().unwrap();
        let jwk = key.public_jwk();
        assert_eq!(jwk["kty"], "EC");
        assert_eq!(jwk["crv"], "P-256");
        assert_eq!(
            URL_SAFE_NO_PAD
                .decode(jwk["x"].as_str().unwrap())
                .unwrap()
                .len(),
            32
        );
        let canonical = format!(
            r#"{{"crv":"P-256","kty":"EC","x":"{}","y":"{}"}}"#,
            jwk["x"].as_str().unwrap(),
            jwk["y"].as_str().unwrap()
        );
        assert_eq!(
            key.thumbprint(),
            URL_SAFE_NO_PAD.encode(Sha256::digest(canonical))
        );
    }

    #[test]
    fn client_assertion_claims() {
        assert_eq!(
            assertion_claims("cid", "http://as", "j1", 1000),
            json!({"iss": "cid", "sub": "cid", "aud": "http://as", "iat": 1000, "exp": 1300, "jti": "j1"})
        );
    }
}
