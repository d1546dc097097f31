//! The skills extension (SEP-2640) on the wire, 2026-07-28: the declaration under
//! `capabilities.extensions`, `skills/list` entries with digests and sizes, `skills/get`,
//! `resources/directory/read` with a subdirectory, the `-32602` errors, and the skill files as
//! resources.

mod support;

use libmcp::server::Server;
use libmcp::skills::{Skill, digest};
use serde_json::json;
use support::harness::{Wire, modern};

const REV: &str = "2026-07-28";
const MD: &str = "---\nname: notes\ndescription: Take notes\n---\nBody\n";
const TIPS: &str = "Keep them short.\n";

fn server() -> Server {
    let skill = Skill::new(MD)
        .and_then(|s| s.file("guide/TIPS.md", "text/markdown", TIPS))
        .unwrap();
    Server::builder("skills-test", "1.0.0")
        .skill(skill)
        .build()
        .unwrap()
}

/// A request of the extension: the schema has no definition for its methods, so the response is
/// checked as a plain JSON-RPC response.
async fn ext(w: &mut Wire, id: u64, method: &str, params: serde_json::Value) -> serde_json::Value {
    let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    w.send_raw(msg.to_string().as_bytes()).await;
    w.response_to(&json!(id)).await
}

#[tokio::test]
async fn skills_are_declared_listed_got_and_browsed() {
    let mut w = Wire::start(server(), REV);
    let r = w
        .request(json!(1), "server/discover", modern(json!({})))
        .await;
    let caps = &r["result"]["capabilities"];
    assert_eq!(
        caps["extensions"],
        json!({"io.modelcontextprotocol/skills": {"directoryRead": true}})
    );
    assert!(caps["resources"].is_object());

    let entry = json!({
        "uri": "skill://notes/SKILL.md",
        "frontmatter": {"name": "notes", "description": "Take notes"},
        "resources": [
            {"uri": "skill://notes/SKILL.md", "digest": digest(MD.as_bytes()), "size": MD.len()},
            {"uri": "skill://notes/guide/TIPS.md", "digest": digest(TIPS.as_bytes()), "size": TIPS.len()},
        ]
    });
    let r = ext(&mut w, 2, "skills/list", modern(json!({}))).await;
    assert_eq!(
        r["result"],
        json!({"skills": [entry], "resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "skills-test", "version": "1.0.0"}}})
    );
    let get = |uri: &str| modern(json!({ "uri": uri }));
    let r = ext(&mut w, 3, "skills/get", get("skill://notes/SKILL.md")).await;
    assert_eq!(r["result"]["skill"], entry);
    let r = ext(&mut w, 4, "skills/get", get("skill://nope/SKILL.md")).await;
    assert_eq!(r["error"]["code"], -32602);
    assert_eq!(r["error"]["data"], json!({"uri": "skill://nope/SKILL.md"}));

    let r = ext(&mut w, 5, "resources/directory/read", get("skill://notes")).await;
    assert_eq!(
        r["result"]["resources"],
        json!([
            {"uri": "skill://notes/SKILL.md", "name": "SKILL.md", "mimeType": "text/markdown", "size": MD.len()},
            {"uri": "skill://notes/guide", "name": "guide", "mimeType": "inode/directory"},
        ])
    );
    let r = w
        .request(
            json!(6),
            "resources/directory/read",
            get("skill://notes/SKILL.md"),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602);

    let r = w
        .request(json!(7), "resources/list", modern(json!({})))
        .await;
    let listed = &r["result"]["resources"][0];
    assert_eq!(
        (
            &listed["uri"],
            &listed["name"],
            &listed["description"],
            &listed["mimeType"]
        ),
        (
            &json!("skill://notes/SKILL.md"),
            &json!("notes"),
            &json!("Take notes"),
            &json!("text/markdown")
        )
    );
    let r = w
        .request(
            json!(8),
            "resources/read",
            get("skill://notes/guide/TIPS.md"),
        )
        .await;
    assert_eq!(r["result"]["contents"][0]["text"], TIPS);
    w.finish().await;
}

#[tokio::test]
async fn a_server_without_skills_has_no_skills_methods() {
    let server = Server::builder("plain", "1.0.0")
        .enable_resources()
        .build()
        .unwrap();
    let mut w = Wire::start(server, REV);
    let r = ext(&mut w, 1, "skills/list", modern(json!({}))).await;
    assert_eq!(r["error"]["code"], -32601);
    let r = w
        .request(json!(2), "server/discover", modern(json!({})))
        .await;
    assert!(r["result"]["capabilities"].get("extensions").is_none());
    w.finish().await;
}

#[test]
fn a_file_registered_twice_is_a_definition_error() {
    let skill = Skill::new(MD).unwrap();
    let Err(err) = Server::builder("dup", "1.0.0")
        .skill(skill.clone())
        .skill(skill)
        .build()
    else {
        panic!("a skill registered twice must be refused");
    };
    assert!(err.to_string().contains("skill://notes/SKILL.md"), "{err}");
}

/// The methods `skills/list` answers -32601 to while no skill is served, else its skills' names.
async fn listed(w: &mut Wire, id: u64) -> Result<Vec<String>, i64> {
    let r = ext(w, id, "skills/list", modern(json!({}))).await;
    match r.get("result") {
        Some(result) => Ok(result["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["frontmatter"]["name"].as_str().unwrap().to_string())
            .collect()),
        None => Err(r["error"]["code"].as_i64().unwrap()),
    }
}

/// How many `notifications/resources/list_changed` arrived since the last call.
fn list_changes(w: &mut Wire) -> usize {
    let n = w
        .backlog
        .iter()
        .filter(|m| m["method"] == "notifications/resources/list_changed")
        .count();
    w.backlog.clear();
    n
}

#[tokio::test]
async fn skills_added_replaced_and_removed_at_runtime() {
    let server = Server::builder("runtime", "1.0.0")
        .enable_resources()
        .build()
        .unwrap();
    let mut w = Wire::start(server.clone(), REV);
    // A listen stream sees each change of the resource list.
    let listen = json!({"notifications": {"resourcesListChanged": true}});
    w.send(
        json!({"jsonrpc": "2.0", "id": 100, "method": "subscriptions/listen",
        "params": modern(listen)}),
    )
    .await;
    let ack = w.recv().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(listed(&mut w, 1).await, Err(-32601));

    let notes = Skill::new(MD)
        .and_then(|s| s.file("guide/TIPS.md", "text/markdown", TIPS))
        .unwrap();
    server.add_skill(notes).unwrap();
    assert_eq!(listed(&mut w, 2).await, Ok(vec!["notes".to_string()]));
    let r = w
        .request(json!(3), "server/discover", modern(json!({})))
        .await;
    assert_eq!(
        r["result"]["capabilities"]["extensions"],
        json!({"io.modelcontextprotocol/skills": {"directoryRead": true}})
    );
    let read = |uri: &str| modern(json!({ "uri": uri }));
    let r = w
        .request(
            json!(4),
            "resources/read",
            read("skill://notes/guide/TIPS.md"),
        )
        .await;
    assert_eq!(r["result"]["contents"][0]["text"], TIPS);
    assert_eq!(list_changes(&mut w), 1);

    // The same name again replaces the skill: its old files go, the new ones are served.
    let v2 = "---\nname: notes\ndescription: Take better notes\n---\nBody 2\n";
    server.add_skill(Skill::new(v2).unwrap()).unwrap();
    let r = ext(&mut w, 5, "skills/get", read("skill://notes/SKILL.md")).await;
    assert_eq!(
        r["result"]["skill"]["resources"],
        json!([{"uri": "skill://notes/SKILL.md", "digest": digest(v2.as_bytes()), "size": v2.len()}])
    );
    let r = w
        .request(
            json!(6),
            "resources/read",
            read("skill://notes/guide/TIPS.md"),
        )
        .await;
    assert!(r.get("error").is_some(), "{r}");
    assert_eq!(list_changes(&mut w), 1);

    // A file whose URI is another resource's is refused, and nothing changes.
    server
        .add_resource(
            json!({"uri": "skill://other/SKILL.md", "name": "not a skill"}),
            libmcp::server::sync_handler(|_: &libmcp::server::RequestContext| {
                json!({"contents": [{"uri": "skill://other/SKILL.md", "text": "mine"}]})
            }),
        )
        .unwrap();
    let other = Skill::new("---\nname: other\ndescription: Clashes\n---\n").unwrap();
    let err = server.add_skill(other).unwrap_err();
    assert!(
        matches!(&err, libmcp::Error::InvalidDefinitions(e) if e.len() == 1),
        "{err:?}"
    );
    assert!(err.to_string().contains("skill://other/SKILL.md"), "{err}");
    assert_eq!(listed(&mut w, 7).await, Ok(vec!["notes".to_string()]));
    let r = w
        .request(json!(8), "resources/read", read("skill://other/SKILL.md"))
        .await;
    assert_eq!(r["result"]["contents"][0]["text"], "mine");
    assert_eq!(list_changes(&mut w), 1, "the add_resource only");

    // Removed: its files go, the extension is no longer declared; a second removal is false.
    assert!(server.remove_skill("notes"));
    assert!(!server.remove_skill("notes"));
    assert_eq!(listed(&mut w, 9).await, Err(-32601));
    let r = w
        .request(json!(10), "resources/read", read("skill://notes/SKILL.md"))
        .await;
    assert!(r.get("error").is_some(), "{r}");
    let r = w
        .request(json!(11), "server/discover", modern(json!({})))
        .await;
    assert!(r["result"]["capabilities"].get("extensions").is_none());
    assert_eq!(list_changes(&mut w), 1);
    w.finish().await;
}
