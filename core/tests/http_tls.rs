//! The HTTP client over `https://` (cargo feature `tls`): a self-signed certificate made in the test,
//! a TLS front end in the test (rustls, recording the SNI name the client sent) that relays to libmcp's
//! own HTTP server, and the trust rules: the certificate is accepted only when given as a root, only for
//! the names it was issued for, and bad root options are refused up front.
#![cfg(feature = "tls")]

use std::sync::Arc;
use std::time::Duration;

use libmcp::client::http::HttpClientOptions;
use libmcp::client::{Client, VersionPreference};
use libmcp::model::ContentBlock;
use libmcp::server::{Reply, Server};
use libmcp::transport::http::{HttpServerConfig, HttpServerHandle, serve_http};
use libmcp::{Era, Error, ProtocolVersion};
use parking_lot::Mutex;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;

const STEP: Duration = Duration::from_secs(10);

async fn step<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(STEP, f).await.expect("step timed out")
}

/// A TLS front end for a libmcp HTTP server, with the certificate it presents.
struct TlsFront {
    port: u16,
    cert_pem: String,
    /// The SNI name of every handshake that completed.
    sni: Arc<Mutex<Vec<Option<String>>>>,
    backend: HttpServerHandle,
}

async fn tls_front(names: &[&str]) -> TlsFront {
    let server = Server::builder("tls-test", "1.0.0")
        .tool(
            json!({"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}),
            |_c, a| Reply::text(a["text"].as_str().unwrap_or("")),
        )
        .build()
        .unwrap();
    let backend = serve_http(
        server,
        HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap()),
    )
    .await
    .unwrap();
    let backend_addr = backend.local_addr();

    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let issued = rcgen::generate_simple_self_signed(names).unwrap();
    let cert_pem = issued.cert.pem();
    let cert: CertificateDer<'static> = issued.cert.der().clone();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(issued.signing_key.serialize_der()));
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![cert], key)
    .unwrap();
    let acceptor = TlsAcceptor::from(Arc::new(config));

    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let sni: Arc<Mutex<Vec<Option<String>>>> = Arc::default();
    let record = sni.clone();
    tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                return;
            };
            let acceptor = acceptor.clone();
            let record = record.clone();
            tokio::spawn(async move {
                // A client that refuses the certificate aborts the handshake: nothing to relay.
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                record
                    .lock()
                    .push(tls.get_ref().1.server_name().map(str::to_owned));
                let Ok(mut plain) = TcpStream::connect(backend_addr).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
            });
        }
    });
    TlsFront {
        port,
        cert_pem,
        sni,
        backend,
    }
}

fn trusting(front: &TlsFront) -> HttpClientOptions {
    HttpClientOptions {
        root_certificates: vec![front.cert_pem.clone().into_bytes()],
        ..Default::default()
    }
}

fn builder() -> libmcp::client::ClientBuilder {
    Client::builder("tls-test-client", "1.0.0")
}

#[tokio::test]
async fn https_with_the_certificate_as_root_works_in_both_eras() {
    let front = tls_front(&["localhost"]).await;
    let url = format!("https://localhost:{}/mcp", front.port);
    for pref in [
        VersionPreference::Modern(ProtocolVersion::LATEST),
        VersionPreference::Legacy(ProtocolVersion::LATEST_LEGACY),
    ] {
        let client = step(
            builder()
                .version_preference(pref.clone())
                .connect_http_with(&url, trusting(&front)),
        )
        .await
        .unwrap();
        let want = match pref {
            VersionPreference::Legacy(_) => Era::Legacy,
            _ => Era::Modern,
        };
        assert_eq!(client.era(), want);
        let result = step(client.call_tool("echo", json!({"text": "over tls"})))
            .await
            .unwrap();
        assert_eq!(result.content, [ContentBlock::text("over tls")]);
        client.close().await;
    }
    let sni = front.sni.lock().clone();
    assert!(!sni.is_empty());
    assert!(
        sni.iter().all(|n| n.as_deref() == Some("localhost")),
        "{sni:?}"
    );
    front.backend.shutdown().await;
}

#[tokio::test]
async fn the_roots_may_be_only_the_given_ones() {
    let front = tls_front(&["localhost"]).await;
    let url = format!("https://localhost:{}/mcp", front.port);
    let mut opts = trusting(&front);
    opts.skip_default_roots = true;
    let client = step(builder().connect_http_with(&url, opts)).await.unwrap();
    assert_eq!(client.era(), Era::Modern);
    step(client.list_all_tools()).await.unwrap();
    client.close().await;
    front.backend.shutdown().await;
}

fn transport_message(err: Error) -> String {
    match err {
        Error::Transport(m) => m.to_string(),
        other => panic!("expected a transport error, got {other:?}"),
    }
}

#[tokio::test]
async fn an_untrusted_certificate_is_refused() {
    let front = tls_front(&["localhost"]).await;
    let url = format!("https://localhost:{}/mcp", front.port);
    let err = step(
        builder()
            .version_preference(VersionPreference::Modern(ProtocolVersion::LATEST))
            .connect_http(&url),
    )
    .await
    .err()
    .unwrap();
    let message = transport_message(err);
    assert!(message.contains("UnknownIssuer"), "{message}");
    assert!(front.sni.lock().is_empty());
    front.backend.shutdown().await;
}

#[tokio::test]
async fn a_certificate_for_another_name_is_refused() {
    let front = tls_front(&["localhost"]).await;
    // Same server, reached by IP: the certificate names only "localhost".
    let url = format!("https://127.0.0.1:{}/mcp", front.port);
    let err = step(
        builder()
            .version_preference(VersionPreference::Modern(ProtocolVersion::LATEST))
            .connect_http_with(&url, trusting(&front)),
    )
    .await
    .err()
    .unwrap();
    let message = transport_message(err);
    assert!(
        message.ends_with(
            "invalid peer certificate: certificate not valid for name \"127.0.0.1\"; certificate is only valid for DnsName(\"localhost\")"
        ),
        "{message}"
    );
    front.backend.shutdown().await;
}

#[tokio::test]
async fn bad_root_options_are_refused_before_connecting() {
    let url = "https://localhost:1/mcp";
    let refused = |opts: HttpClientOptions| async move {
        match builder().connect_http_with(url, opts).await {
            Err(Error::InvalidArgument(m)) => m,
            Err(other) => panic!("expected InvalidArgument, got {other:?}"),
            Ok(_) => panic!("connected"),
        }
    };
    let none = refused(HttpClientOptions {
        skip_default_roots: true,
        ..Default::default()
    })
    .await;
    assert_eq!(
        none,
        "no trusted roots: skip_default_roots is set and no root certificates were given"
    );
    let empty = refused(HttpClientOptions {
        root_certificates: vec![b"not a certificate".to_vec()],
        ..Default::default()
    })
    .await;
    assert_eq!(
        empty,
        "root certificate bundle 0 holds no PEM CERTIFICATE section"
    );
    let garbage = refused(HttpClientOptions {
        root_certificates: vec![
            b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".to_vec(),
        ],
        ..Default::default()
    })
    .await;
    assert!(
        garbage.starts_with("root certificate bundle 0: not a usable certificate: "),
        "{garbage}"
    );
}
