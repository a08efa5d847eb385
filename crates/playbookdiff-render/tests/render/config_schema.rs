//! The generated JSON Schema of `playbookdiff.toml` describes what the
//! parser accepts: this repository's own file and the example of
//! `docs/ci.md` validate, and files the parser refuses for their shape (an
//! unknown key, a `fail-on` outside its set, a reason missing) do not.

use serde_json::Value;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(&playbookdiff_config::schema()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

/// A TOML text as the JSON value the schema speaks of.
fn as_json(text: &str) -> Value {
    let table: toml::Table = toml::from_str(text).unwrap();
    serde_json::to_value(table).unwrap()
}

#[test]
fn committed_and_documented_files_validate() {
    let v = validator();
    let own = std::fs::read_to_string(root().join("playbookdiff.toml")).unwrap();
    playbookdiff_config::parse(&own).unwrap();
    assert!(v.is_valid(&as_json(&own)));
    let doc = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let start = doc.find("```toml\n").unwrap() + "```toml\n".len();
    let example = &doc[start..start + doc[start..].find("```").unwrap()];
    playbookdiff_config::parse(example).unwrap();
    let errors: Vec<String> = v
        .iter_errors(&as_json(example))
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn refused_shapes_do_not_validate() {
    let v = validator();
    for text in [
        "failon = \"low\"\n",
        "fail-on = \"sometimes\"\n",
        "exclude = \"tests/\"\n",
        "[[accepted]]\nid = \"instruction:missing:codex-only:root:0123456789ab\"\n",
        "[[accepted]]\nid = \"x\"\nreason = \"r\"\nnote = \"n\"\n",
    ] {
        assert!(playbookdiff_config::parse(text).is_err(), "{text}");
        assert!(!v.is_valid(&as_json(text)), "{text}");
    }
}
