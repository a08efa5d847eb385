//! The adapter's surface table (its layout, `playbookdiff layout`) and
//! its compilation name the same files: every row is read, every file
//! read is a row.

use playbookdiff_testkit::layout::{
    assert_every_row_is_read, assert_every_source_is_a_row, Example,
};

/// A repository holding one file per row of the table compiles, under
/// every profiled release, to a result naming each of those files.
#[test]
fn every_row_of_the_table_is_read() {
    assert_every_row_is_read(&playbookdiff_codex::ADAPTER, EXAMPLE);
}

/// Every file an item of a compilation of the adapter's fixtures comes
/// from is a row of the table, apart from the instruction files
/// `project_doc_fallback_filenames` names.
#[test]
fn every_file_read_is_a_row_of_the_table() {
    let fixtures = playbookdiff_testkit::all_fixtures(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
    );
    assert_every_source_is_a_row(&playbookdiff_codex::ADAPTER, &fixtures, |config, path| {
        config.instructions.iter().any(|i| {
            i.source.path.as_str() == path
                && !matches!(
                    i.source.path.file_name(),
                    Some("AGENTS.md" | "AGENTS.override.md")
                )
        })
    });
}

/// What the example repository needs besides one file per row: a skill
/// inside the plugin, and manifests whose name is too long for Codex (so
/// that it names the manifest when it refuses the skill); each manifest
/// alone, since the first found wins, and `AGENTS.override.md` alone,
/// since it replaces `AGENTS.md`.
const EXAMPLE: Example<'static> = Example {
    extra: &[
        (
            ".agents/skills/plug/x/SKILL.md",
            "---\nname: x\ndescription: An example.\n---\nBody.\n",
        ),
        (".agents/skills/plug/.codex-plugin/plugin.json", LONG_NAME),
        (".agents/skills/plug/.claude-plugin/plugin.json", LONG_NAME),
        (".agents/skills/plug/.cursor-plugin/plugin.json", LONG_NAME),
    ],
    alone: &[
        "**/AGENTS.override.md",
        "**/.codex-plugin/plugin.json",
        "**/.claude-plugin/plugin.json",
        "**/.cursor-plugin/plugin.json",
    ],
    plugin_dir: ".agents/skills/plug",
};

/// A plugin manifest whose name, with the skill's, passes Codex's 128
/// characters.
const LONG_NAME: &str = r#"{"name": "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp"}"#;

/// Every file of the user's home or of the machine that local mode reads
/// for the oracle's fixture homes is a user or managed row of the table
/// (which `playbookdiff layout` prints and the guard protects).
#[test]
fn every_home_file_read_is_a_row_of_the_table() {
    playbookdiff_testkit::layout::assert_every_home_source_is_a_row(
        &playbookdiff_codex::ADAPTER,
        |_, _| false,
    );
}
