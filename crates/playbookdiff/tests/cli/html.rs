//! `--format html` of `check`, `check --all-dirs` and `diff`: the page
//! embeds the very document of `--format json` (it cannot drift from it),
//! nothing taken from the repository reaches the page as markup (file
//! texts, file and directory names, MCP server names that try to close the
//! data element, open a comment or add an element), and no secret value is
//! in it. How the page draws that document is tested in a browser
//! (`scripts/browser/report-test.mjs`, docs/html.md).

use assert_cmd::Command;
use playbookdiff_testkit::corpus::git;
use serde_json::Value;
use std::path::Path;

const SECRET: &str = "Zq7SECRET";

/// A repository whose texts and names are markup, with literal secrets in
/// its MCP configuration, in two commits (the second edits `AGENTS.md`).
fn hostile(root: &Path) {
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "AGENTS.md",
        "# Rules </textarea></script><script>alert(1)</script>\n\n- \"quotes\" 'apostrophes' & <!-- comment\n",
    );
    write("CLAUDE.md", "# Claude </title><b>bold</b>\n");
    write(
        "apps/\"><img onerror=alert(1)>/AGENTS.md",
        "# Nested <script>alert(2)</script>\n",
    );
    write(
        ".mcp.json",
        &serde_json::json!({"mcpServers": {"</script><script>srv": {
            "command": "npx",
            "args": ["--api-key", format!("{SECRET}-arg")],
            "env": {"API_KEY": format!("{SECRET}-env")},
        }}})
        .to_string(),
    );
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(
        root,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "base",
        ],
    );
    write(
        "AGENTS.md",
        "# Rules\n\n- Added </script><script>alert(3)</script>\n",
    );
    git(
        root,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qam",
            "head",
        ],
    );
}

fn run(root: &Path, args: &[&str], format: &str) -> String {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .args(args)
        .arg(root)
        .args(["--format", format])
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {out:?}"
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The page split around its embedded document: (before, the document
/// unpacked, after).
fn parts(page: &str) -> (&str, String, &str) {
    use base64::Engine as _;
    use std::io::Read as _;
    let open = r#"<script type="text/plain" id="report-data" data-encoding="gzip base64">"#;
    let start = page.find(open).expect("the page embeds the document") + open.len();
    let len = page[start..].find("</script>").unwrap();
    let packed = &page[start..start + len];
    assert!(
        packed
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b)),
        "the packed document is base64"
    );
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(packed)
        .unwrap();
    let mut data = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut data)
        .unwrap();
    (&page[..start], data, &page[start + len..])
}

#[test]
fn each_page_embeds_the_json_document_and_no_repository_text_as_markup() {
    let dir = tempfile::tempdir().unwrap();
    hostile(dir.path());
    let cases: [(&[&str], &str); 3] = [
        (&["check"], "check"),
        (&["check", "--all-dirs"], "matrix"),
        (&["diff", "HEAD~1..HEAD"], "diff"),
    ];
    let mut skeleton = None;
    for (args, kind) in cases {
        let page = run(dir.path(), args, "html");
        let json = run(dir.path(), args, "json");
        let (before, data, after) = parts(&page);
        assert!(
            !page.contains(SECRET) && !data.contains(SECRET),
            "{args:?}: a secret reached the page"
        );
        // The document is the JSON document, and holds the hostile texts.
        let embedded: Value = serde_json::from_str(&data).unwrap();
        assert_eq!(
            embedded,
            serde_json::from_str::<Value>(&json).unwrap(),
            "{args:?}"
        );
        assert!(
            json.contains("<script>alert("),
            "{args:?}: the texts are in the document"
        );
        // None of them is markup: the document has no `<`, and the page
        // around it is the same for every report but its kind.
        assert!(!data.contains('<'), "{args:?}");
        let body = format!(r#"<body data-kind="{kind}">"#);
        assert!(before.contains(&body), "{args:?}");
        let around = format!("{}{after}", before.replace(&body, "<body>"));
        assert_eq!(
            skeleton.get_or_insert_with(|| around.clone()),
            &around,
            "{args:?}"
        );
        assert_eq!(page.matches("<script").count(), 2, "{args:?}");
    }
}

#[test]
fn html_is_offered_where_a_page_is_useful_only() {
    let dir = tempfile::tempdir().unwrap();
    hostile(dir.path());
    for args in [&["compile"][..], &["explain", "x"]] {
        let out = Command::cargo_bin("playbookdiff")
            .unwrap()
            .args(args)
            .arg(dir.path())
            .args(["--format", "html"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("one of: text, json"), "{args:?}: {stderr}");
    }
}
