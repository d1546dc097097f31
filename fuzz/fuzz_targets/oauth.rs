//! The OAuth parsers a client runs on what servers send: `WWW-Authenticate` Bearer and DPoP challenges,
//! authorization-server and protected-resource metadata documents, and the URL helpers discovery
//! builds on. Input: NUL-separated header value, metadata JSON, URL.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libmcp::auth::client::challenge_of;
use libmcp::auth::metadata::{
    AuthorizationServerMetadata, ProtectedResourceMetadata, resource_covers,
};
use libmcp::auth::prm::metadata_url_for;
use libmcp::auth::{challenge, urls};

fuzz_target!(|data: &[u8]| {
    let parts = libmcp_fuzz::split_nul(data, 3);
    let header = libmcp_fuzz::text(parts[0]);
    // A client answers a DPoP challenge where no Bearer one is offered (RFC 9449 §7.1).
    let parsed = challenge::parse_bearer(&header).or_else(|| challenge::parse_dpop(&header));
    assert_eq!(
        challenge_of(401, Some(&header)),
        Some(parsed.clone().unwrap_or_default())
    );
    assert_eq!(
        challenge_of(403, Some(&header)),
        parsed.clone().filter(|c| c.is_insufficient_scope())
    );
    assert_eq!(challenge_of(200, Some(&header)), None);

    let doc = parts.get(1).copied().unwrap_or_default();
    if let Ok(asm) = serde_json::from_slice::<AuthorizationServerMetadata>(doc) {
        let _ = (asm.supports_s256(), asm.supports_scope(&header));
        let again = serde_json::to_vec(&asm).expect("metadata serializes");
        assert_eq!(
            serde_json::from_slice::<AuthorizationServerMetadata>(&again).ok(),
            Some(asm)
        );
    }
    if let Ok(prm) = serde_json::from_slice::<ProtectedResourceMetadata>(doc) {
        let again = serde_json::to_vec(&prm).expect("metadata serializes");
        assert_eq!(
            serde_json::from_slice::<ProtectedResourceMetadata>(&again).ok(),
            Some(prm)
        );
    }

    let url = libmcp_fuzz::text(parts.get(2).copied().unwrap_or_default());
    if let Some(p) = urls::split(&url) {
        assert!(p.path.is_empty() || p.path.starts_with('/'));
        let _ = p.origin();
    }
    let _ = urls::protected_resource_metadata_urls(&url);
    let _ = urls::authorization_server_metadata_urls(&url);
    let _ = metadata_url_for(&url);
    let _ = resource_covers(&url, &header);
    let _ = urls::is_loopback_authority(&url);
    assert_eq!(
        urls::decode(&urls::encode(&url)).as_deref(),
        Some(url.as_str())
    );
    if let Some(decoded) = urls::decode(&header) {
        let _ = urls::encode(&decoded);
    }
    if let Ok(pairs) = urls::query_params(&url) {
        let borrowed: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            urls::query_params(&urls::form(&borrowed)).ok(),
            Some(pairs.clone())
        );
    }
});
