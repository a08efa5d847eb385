//! `playbookdiff layout`: the adapters' surface tables as the command
//! prints them: the JSON document validates against its schema and holds
//! exactly each adapter's rows per release, the text stays within 80
//! columns, and a bad argument is one line with status 2.

use assert_cmd::Command;
use serde_json::Value;

fn layout(args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("playbookdiff").unwrap();
    cmd.arg("layout").args(args);
    cmd
}

fn json(args: &[&str]) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let out = layout(&all).assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("stdout is JSON")
}

fn validator() -> jsonschema::Validator {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../schema/layout.schema.json"
    );
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

/// The document of every harness and release, and of one release picked
/// by `--agent-version`, validates against `schema/layout.schema.json`.
#[test]
fn json_validates_against_its_schema() {
    let validator = validator();
    for args in [
        &[][..],
        &["--harness", "codex", "--agent-version", "codex=0.150.0"][..],
    ] {
        let doc = json(args);
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{args:?}: {errors:?}");
    }
}

/// A row as compared: kind, path, scope.
type Row = (String, String, String);

/// A release as compared: harness, release, rows.
type Release = (String, String, Vec<Row>);

/// The document holds, for each registered harness and each profiled
/// release, exactly the rows of the adapter's table that release reads,
/// in table order: it is the table the compilation reads with.
#[test]
fn json_equals_the_adapters_tables() {
    let doc = json(&[]);
    let layouts = doc["layouts"].as_array().unwrap();
    let mut expected = Vec::new();
    for adapter in playbookdiff_registry::adapters() {
        for version in adapter.profiled_versions() {
            let rows: Vec<Row> = adapter
                .surfaces()
                .iter()
                .filter(|s| s.read_by(version))
                .map(|s| {
                    (
                        s.kind.as_str().to_string(),
                        s.pattern.to_string(),
                        s.scope.as_str().to_string(),
                    )
                })
                .collect();
            expected.push((
                adapter.harness().as_str().to_string(),
                version.to_string(),
                rows,
            ));
        }
    }
    let actual: Vec<Release> = layouts
        .iter()
        .map(|l| {
            let rows = l["surfaces"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let text = |k: &str| s[k].as_str().unwrap().to_string();
                    (text("kind"), text("path"), text("scope"))
                })
                .collect();
            let text = |k: &str| l[k].as_str().unwrap().to_string();
            (text("harness"), text("release"), rows)
        })
        .collect();
    assert_eq!(actual, expected);
}

/// A release outside the modelled window (Copilot CLI before 0.0.368)
/// gets the nearest profile, with the usual `unknown-agent-version`
/// warning, and a release that drops a row (Copilot CLI 0.0.368 reads no
/// `.github/mcp.json`) shows it without that row.
#[test]
fn agent_version_picks_one_release() {
    let doc = json(&["--harness", "copilot", "--agent-version", "copilot=0.0.366"]);
    let layouts = doc["layouts"].as_array().unwrap();
    assert_eq!(layouts.len(), 1);
    assert_eq!(layouts[0]["release"], "0.0.368");
    assert_eq!(
        layouts[0]["diagnostics"][0]["code"], "unknown-agent-version",
        "{doc}"
    );
    let paths: Vec<&str> = layouts[0]["surfaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert!(paths.contains(&"**/.mcp.json"), "{paths:?}");
    assert!(!paths.contains(&"**/.github/mcp.json"), "{paths:?}");
}

/// The text of every harness stays within 80 columns (insta snapshot).
#[test]
fn text_within_80_columns() {
    let out = layout(&[]).assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    insta::assert_snapshot!("layout_text", text);
}

/// An unknown harness is refused with one line and status 2.
#[test]
fn unknown_harness_is_one_line() {
    let line = crate::cli::refused(&mut layout(&["--harness", "nope"]));
    assert!(line.contains("claude-code"), "{line}");
}

/// The top directory of a user or managed row of a table that the
/// analysis reads (`~/.gemini`, `~/.config/opencode`, `/etc/codex`, and
/// `~/.claude.json` for a file at the top), as the help names it.
fn top_directory(pattern: &str) -> Option<String> {
    let (prefix, rest) = match pattern.strip_prefix("~/") {
        Some(rest) => ("~/", rest),
        None => ("/", pattern.strip_prefix('/')?),
    };
    let parts: Vec<&str> = rest.split('/').collect();
    let depth = if matches!(parts[0], ".config" | "etc") {
        2
    } else {
        1
    };
    Some(format!(
        "{prefix}{}",
        parts[..depth.min(parts.len())].join("/")
    ))
}

/// The help of `--home` names every directory of the home, and that of
/// `--managed-root` every directory of the machine, that a row of an
/// adapter's table reads in local mode.
#[test]
fn home_and_managed_root_help_name_every_directory_read() {
    let out = Command::cargo_bin("playbookdiff")
        .unwrap()
        .arg("--help")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let help = String::from_utf8(out).unwrap().replace('\n', " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let option = |name: &str| {
        let start = help.find(name).expect("the option is in the help");
        let end = help[start..]
            .find("[default")
            .map_or(help.len(), |e| start + e);
        help[start..end].to_string()
    };
    let (home, managed) = (option("--home <DIR>"), option("--managed-root <DIR>"));
    let mut checked = 0;
    for adapter in playbookdiff_registry::adapters() {
        for row in adapter.surfaces() {
            if row.analysis == playbookdiff_model::layout::Analysis::NotRead {
                continue;
            }
            let Some(dir) = top_directory(row.pattern) else {
                continue;
            };
            let text = if dir.starts_with("~/") {
                &home
            } else {
                &managed
            };
            let named = text.split([',', '(', ')', ' ']).any(|w| w == dir);
            assert!(
                named,
                "{}: {dir} is not named in: {text}",
                adapter.harness()
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} rows checked");
}
