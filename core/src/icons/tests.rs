use std::collections::HashMap;
use std::future::Future;

use parking_lot::Mutex;

use super::*;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
const SERVER: Option<&str> = Some("https://mcp.example.com/mcp");

fn policy() -> IconPolicy {
    IconPolicy::default()
}

#[test]
fn accepts_only_https_and_data() {
    for bad in [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "file:///etc/passwd",
        "ftp://mcp.example.com/i.png",
        "ws://mcp.example.com/i.png",
        "http://mcp.example.com/i.png",
        "vscode://open",
        "blob:https://mcp.example.com/x",
    ] {
        assert!(
            matches!(
                policy().check_src(bad, SERVER),
                Err(IconError::UnsupportedScheme(_))
            ),
            "{bad}"
        );
    }
    for bad in [
        "",
        "/icon.png",
        "icon.png",
        "https:icon.png",
        "https://",
        "https://a b/x",
    ] {
        assert!(
            matches!(
                policy().check_src(bad, SERVER),
                Err(IconError::MalformedUrl(_))
            ),
            "{bad}"
        );
    }
    assert_eq!(
        policy().check_src("https://u:p@mcp.example.com/i.png", SERVER),
        Err(IconError::CredentialsInUrl)
    );
}

#[test]
fn https_must_be_same_origin() {
    let ok = |src: &str| policy().check_src(src, SERVER);
    let url = |u: &str| Ok(IconSource::Https { url: u.into() });
    assert_eq!(
        ok("https://mcp.example.com/i.png"),
        url("https://mcp.example.com/i.png")
    );
    assert_eq!(
        ok("https://MCP.Example.com:443/i.png#x"),
        url("https://mcp.example.com/i.png")
    );
    assert_eq!(
        ok("https://evil.example/i.png"),
        Err(IconError::CrossOrigin {
            icon: "https://evil.example".into(),
            server: "https://mcp.example.com".into()
        })
    );
    assert!(matches!(
        ok("https://mcp.example.com:8443/i.png"),
        Err(IconError::CrossOrigin { .. })
    ));
    // An http server can never vouch for an https icon; without a server origin any https is fine.
    assert!(matches!(
        policy().check_src("https://h/i.png", Some("http://h")),
        Err(IconError::CrossOrigin { .. })
    ));
    assert_eq!(
        policy().check_src("https://h/i.png", None),
        url("https://h/i.png")
    );
    assert!(matches!(
        policy().check_src("https://h/i.png", Some("stdio")),
        Err(IconError::InvalidServerOrigin(_))
    ));
}

#[test]
fn data_uris_decode_with_limits() {
    let src = "data:image/png;base64,iVBORw0KGgo=";
    let expected = IconSource::Data {
        mime: "image/png".into(),
        bytes: PNG[..8].to_vec(),
    };
    assert_eq!(policy().check_src(src, SERVER), Ok(expected.clone()));
    assert_eq!(
        policy().check_src("DATA:Image/PNG;BASE64,iVBORw0K%0AGgo", None),
        Ok(expected)
    );
    assert_eq!(
        policy().check_src("data:,a%20b", None),
        Ok(IconSource::Data {
            mime: "text/plain".into(),
            bytes: b"a b".to_vec()
        })
    );
    for bad in [
        "data:image/png;base64",
        "data:image/png;base64,!!!!",
        "data:a%zz,x",
        "data:,%4",
    ] {
        assert!(
            matches!(
                policy().check_src(bad, None),
                Err(IconError::InvalidDataUri(_))
            ),
            "{bad}"
        );
    }
    let small = IconPolicy {
        max_bytes: 4,
        ..policy()
    };
    assert_eq!(
        small.check_src(src, None),
        Err(IconError::TooLarge { limit: 4 })
    );
    let huge = format!("data:image/png;base64,{}", "A".repeat(1 << 20));
    assert_eq!(
        policy().check_src(&huge, None),
        Err(IconError::TooLarge { limit: 256 * 1024 })
    );
}

#[test]
fn redirects_stay_on_origin() {
    let cur = "https://mcp.example.com/icons/a.png";
    assert_eq!(
        check_redirect(cur, "b.png").unwrap(),
        "https://mcp.example.com/icons/b.png"
    );
    assert_eq!(
        check_redirect(cur, "/x.png").unwrap(),
        "https://mcp.example.com/x.png"
    );
    assert_eq!(
        check_redirect(cur, "https://MCP.example.com:443/y").unwrap(),
        "https://mcp.example.com/y"
    );
    for bad in [
        "https://evil.example/a.png",
        "//evil.example/a.png",
        "http://mcp.example.com/a.png",
        "data:image/png;base64,AAAA",
        "https://mcp.example.com:444/a.png",
    ] {
        assert!(
            matches!(
                check_redirect(cur, bad),
                Err(IconError::CrossOriginRedirect { .. })
            ),
            "{bad}"
        );
    }
    assert_eq!(
        check_redirect(cur, "https://u@mcp.example.com/"),
        Err(IconError::CredentialsInUrl)
    );
    assert!(matches!(
        check_redirect("http://h/", "/x"),
        Err(IconError::UnsupportedScheme(_))
    ));
}

#[test]
fn sniffing_uses_magic_bytes() {
    let p = policy();
    assert_eq!(sniff(PNG, &p), Ok(IconKind::Png));
    assert_eq!(sniff(b"\xFF\xD8\xFF\xE0JFIF", &p), Ok(IconKind::Jpeg));
    assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 ", &p), Ok(IconKind::Webp));
    assert_eq!(
        sniff(b"GIF89a....", &p),
        Err(IconError::DisallowedFormat("GIF"))
    );
    assert_eq!(sniff(b"<html><script>", &p), Err(IconError::UnknownFormat));
    assert_eq!(sniff(b"", &p), Err(IconError::UnknownFormat));
    let svg = b"\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- c --><!DOCTYPE svg>\n<svg xmlns=\"x\"/>";
    assert_eq!(sniff(svg, &p), Err(IconError::SvgNotAllowed));
    let with_svg = IconPolicy {
        allow_svg: true,
        ..p
    };
    assert_eq!(sniff(svg, &with_svg), Ok(IconKind::Svg));
    assert_eq!(sniff(b"<svgx>", &with_svg), Err(IconError::UnknownFormat));
    assert_eq!(IconKind::Webp.mime(), "image/webp");
}

#[test]
fn svg_sanitizer_strips_and_rejects() {
    let clean = sanitize_svg(
        br##"<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd"><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><style>.a{fill:url(#g)}</style><rect class="a" onclick='x()' fill="url(#g)"/><use href="#r"/><image xlink:href="data:image/png;base64,AA"/></svg>"##,
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(clean).unwrap(),
        r##"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><style>.a{fill:url(#g)}</style><rect class="a" fill="url(#g)"/><use href="#r"/><image xlink:href="data:image/png;base64,AA"/></svg>"##
    );
    for bad in [
        "<svg><script>alert(1)</script></svg>",
        "<svg><SCRIPT>alert(1)</SCRIPT></svg>",
        "<svg><svg:script/></svg>",
        "<svg><foreignObject><div/></foreignObject></svg>",
        "<svg><a href=\"javascript:alert(1)\"/></svg>",
        "<svg><a href=\"&#106;avascript:alert(1)\"/></svg>",
        "<svg><a href=\"java\nscript:x\"/></svg>",
        "<svg><use xlink:href=\"https://evil.example/s.svg#x\"/></svg>",
        "<svg><image href=\"data:image/svg+xml,<svg/>\"/></svg>",
        "<svg><rect style=\"fill:url(https://evil.example/t)\"/></svg>",
        "<svg><style>@import url(x.css);</style></svg>",
        "<svg><style><![CDATA[ a{background:url(//evil)} ]]></style></svg>",
        "<svg><set attributeName=\"xlink:href\" to=\"#x\"/></svg>",
        "<!DOCTYPE svg [<!ENTITY x \"y\">]><svg>&x;</svg>",
        "<!ENTITY x \"y\"><svg/>",
        "<?xml-stylesheet href=\"x.css\"?><svg/>",
        "<svg width=10/>",
        "<svg><rect fill=\"&bogus;\"/></svg>",
        "<svg><rect",
        "<svg><!-- open",
    ] {
        assert!(
            matches!(sanitize_svg(bad.as_bytes()), Err(IconError::UnsafeSvg(_))),
            "{bad}"
        );
    }
    assert!(sanitize_svg(b"\xFF<svg/>").is_err());
}

/// An in-memory HTTP client that records what it was asked for.
#[derive(Default)]
struct FakeFetcher {
    replies: HashMap<String, IconHttpReply>,
    asked: Mutex<Vec<String>>,
}

impl FakeFetcher {
    fn with(mut self, url: &str, status: u16, location: Option<&str>, body: &[u8]) -> Self {
        let reply = IconHttpReply {
            status,
            location: location.map(str::to_owned),
            body: body.to_vec(),
        };
        self.replies.insert(url.to_owned(), reply);
        self
    }
}

impl IconFetcher for FakeFetcher {
    fn get(
        &self,
        url: &str,
        _max_bytes: usize,
    ) -> impl Future<Output = Result<IconHttpReply, IconError>> + Send {
        self.asked.lock().push(url.to_owned());
        let reply = self
            .replies
            .get(url)
            .cloned()
            .ok_or_else(|| IconError::Fetch(format!("no route to {url}")));
        async move { reply }
    }
}

const BASE: &str = "https://mcp.example.com";

#[tokio::test]
async fn driver_follows_same_origin_redirects() {
    let f = FakeFetcher::default()
        .with(&format!("{BASE}/a"), 302, Some("/b"), b"")
        .with(&format!("{BASE}/b"), 307, Some("c.png"), b"")
        .with(&format!("{BASE}/c.png"), 200, None, PNG);
    let icon = load_icon(&format!("{BASE}/a"), SERVER, &policy(), &f)
        .await
        .unwrap();
    assert_eq!(
        icon,
        LoadedIcon {
            kind: IconKind::Png,
            mime: "image/png",
            bytes: PNG.to_vec()
        }
    );
    assert_eq!(f.asked.lock().len(), 3);

    let strict = IconPolicy {
        max_redirects: 1,
        ..policy()
    };
    let r = load_icon(&format!("{BASE}/a"), SERVER, &strict, &f).await;
    assert_eq!(r, Err(IconError::TooManyRedirects { limit: 1 }));
}

#[tokio::test]
async fn driver_refuses_bad_replies() {
    let f = FakeFetcher::default()
        .with(
            &format!("{BASE}/away"),
            301,
            Some("https://evil.example/x.png"),
            b"",
        )
        .with(&format!("{BASE}/noloc"), 302, None, b"")
        .with(&format!("{BASE}/gone"), 404, None, b"")
        .with(&format!("{BASE}/big"), 200, None, &[0xFF; 300 * 1024])
        .with(&format!("{BASE}/gif"), 200, None, b"GIF89a")
        .with(
            &format!("{BASE}/svg"),
            200,
            None,
            b"<svg onload=\"x()\"><rect/></svg>",
        )
        .with(
            &format!("{BASE}/evil.svg"),
            200,
            None,
            b"<svg><script/></svg>",
        );
    let load = |path: &str, p: IconPolicy| {
        let f = &f;
        let src = format!("{BASE}{path}");
        async move { load_icon(&src, SERVER, &p, f).await }
    };
    assert!(matches!(
        load("/away", policy()).await,
        Err(IconError::CrossOriginRedirect { .. })
    ));
    assert_eq!(
        load("/noloc", policy()).await,
        Err(IconError::MissingLocation { status: 302 })
    );
    assert_eq!(
        load("/gone", policy()).await,
        Err(IconError::HttpStatus(404))
    );
    assert_eq!(
        load("/big", policy()).await,
        Err(IconError::TooLarge { limit: 256 * 1024 })
    );
    assert_eq!(
        load("/gif", policy()).await,
        Err(IconError::DisallowedFormat("GIF"))
    );
    assert_eq!(load("/svg", policy()).await, Err(IconError::SvgNotAllowed));
    assert!(matches!(
        load("/missing", policy()).await,
        Err(IconError::Fetch(_))
    ));
    let svg_ok = IconPolicy {
        allow_svg: true,
        ..policy()
    };
    let icon = load("/svg", svg_ok.clone()).await.unwrap();
    assert_eq!(
        (icon.kind, icon.bytes.as_slice()),
        (IconKind::Svg, &b"<svg><rect/></svg>"[..])
    );
    assert!(matches!(
        load("/evil.svg", svg_ok).await,
        Err(IconError::UnsafeSvg(_))
    ));
    // Sources are checked before any request goes out.
    let before = f.asked.lock().len();
    let r = load_icon("https://evil.example/i.png", SERVER, &policy(), &f).await;
    assert!(matches!(r, Err(IconError::CrossOrigin { .. })));
    assert_eq!(f.asked.lock().len(), before);
}

#[tokio::test]
async fn driver_decodes_data_uris_without_fetching() {
    let f = FakeFetcher::default();
    let icon = load_icon("data:image/jpeg;base64,iVBORw0KGgo=", None, &policy(), &f)
        .await
        .unwrap();
    // The declared type is ignored: the bytes are PNG.
    assert_eq!(icon.mime, "image/png");
    assert!(f.asked.lock().is_empty());
}
