//! Fixture tests for the OpenCode adapter: one tiny repository per
//! behaviour, each asserting the facts it exists for. Every fixture was run
//! through OpenCode 1.18.33 (`oracle/observations/opencode/`); the
//! expected values here are what OpenCode did.

use playbookdiff_adapter::Adapter;
use playbookdiff_model::{
    AdvertisementState, AnalysisContext, Applicability, ConfiguredValue, DiagnosticCode,
    EffectiveAgentConfig, InstructionKind, LoadPhase, Permission, Severity, Transport,
};
use playbookdiff_opencode::{ADAPTER, HARNESS};
use playbookdiff_source::{Repo, WorkingTree};

use playbookdiff_testkit::{
    assert_placed, diags, instruction as inst, received_paths as received, rp, server as mcp,
    skill, Kit,
};

static KIT: Kit = Kit::new(&ADAPTER, env!("CARGO_MANIFEST_DIR"));

/// The skill applicability table of these fixtures ([`Kit::run_skill_table`]).
const SKILLS: &str = include_str!("skills.toml");

#[test]
fn skill_tables_hold() {
    KIT.assert_skill_table(SKILLS);
}

/// The names of the skills OpenCode lists to the model, sorted.
fn listed(c: &EffectiveAgentConfig) -> Vec<String> {
    let mut v: Vec<String> = c
        .skills
        .iter()
        .filter(|s| {
            s.applicability == Applicability::Effective
                && s.advertisement.state == AdvertisementState::Advertised
        })
        .map(|s| s.name.clone())
        .collect();
    v.sort();
    v
}

fn has(c: &EffectiveAgentConfig, code: DiagnosticCode, needle: &str) -> bool {
    c.diagnostics
        .iter()
        .any(|d| d.code == code && d.message.contains(needle))
}

#[test]
fn agents_md_from_every_parent_closest_first_then_instruction_globs() {
    let c = KIT.run("layered_config", "a/b");
    assert_eq!(c.harness, HARNESS);
    assert_eq!(
        received(&c),
        ["a/AGENTS.md", "AGENTS.md", "docs/one.md", "docs/two.md"]
    );
    let claude = inst(&c, "CLAUDE.md");
    assert_eq!(claude.applicability, Applicability::Shadowed);
    assert_eq!(
        claude.resolution.as_ref().map(|r| r.sources.clone()),
        Some(vec![rp("a/AGENTS.md"), rp("AGENTS.md")])
    );
    assert_eq!(inst(&c, "docs/one.md").kind, InstructionKind::Instructions);
    // Relative entries that match nothing from a/b, a or the root.
    assert!(has(&c, DiagnosticCode::InvalidValue, "\"missing.md\""));
    assert!(has(&c, DiagnosticCode::InvalidValue, "\"a-only.md\""));
}

#[test]
fn layers_deep_merge_and_values_stay_symbolic() {
    let c = KIT.run("layered_config", "a/b");
    let loc = mcp(&c, "loc");
    assert_eq!(loc.transport, Transport::Stdio);
    // a/opencode.json replaces `command` and keeps the root's environment.
    assert_eq!(loc.command.as_deref(), Some("other"));
    assert_eq!(loc.source.path, rp("a/opencode.json"));
    assert_eq!(loc.other_sources[0].path, rp("opencode.json"));
    assert_eq!(
        loc.env[0].value,
        ConfiguredValue::Host {
            variable: "MY_TOKEN".into()
        }
    );
    assert_eq!(loc.env[1].value, ConfiguredValue::redacted());
    assert!(has(&c, DiagnosticCode::McpLiteralSecret, "LIT"));
    let json = serde_json::to_string(&c).unwrap();
    assert!(!json.contains("sk-literal-secret-123"), "secret leaked");

    let rem = mcp(&c, "rem");
    assert_eq!(rem.transport, Transport::Http);
    assert_eq!(rem.applicability, Applicability::Excluded);
    assert_eq!(
        rem.headers[0].value,
        ConfiguredValue::Reference {
            expression: "Bearer {env:GH}".into()
        }
    );
}

#[test]
fn skills_from_claude_agents_and_opencode_roots_of_every_parent() {
    let c = KIT.run_skill_table(SKILLS, "layered_config", "a/b");
    assert_eq!(listed(&c), ["acs", "as", "cs", "nested", "os", "os2"]);
    // skills.paths resolves from cwd, not from the configuration file.
    assert!(!c.skills.iter().any(|s| s.name == "e1"));
    assert!(has(&c, DiagnosticCode::InvalidValue, "\"skills-extra\""));
    // From the root, skills.paths finds skills-extra/e1 and the a/ roots
    // are below cwd.
    let root = KIT.run_skill_table(SKILLS, "layered_config", ".");
    assert!(listed(&root).contains(&"e1".to_string()));
}

/// Agents and commands of `.opencode` folders and of the `agent` and
/// `command` keys are items with their source and lines, as `opencode
/// debug config` lists them (case `opencode.layered_config.in-a-b`:
/// agents `inline`, `rev`; commands `cmdinline`, `test`); none is left as
/// an `item-not-modelled` diagnostic.
#[test]
fn agents_and_commands_are_items_with_their_source() {
    let c = KIT.run("layered_config", "a/b");
    let mut agents: Vec<&str> = c.subagents.iter().map(|a| a.name.as_str()).collect();
    agents.sort();
    assert_eq!(agents, ["inline", "rev"]);
    let mut commands: Vec<&str> = c.commands.iter().map(|a| a.name.as_str()).collect();
    commands.sort();
    assert_eq!(commands, ["cmdinline", "test"]);
    let inline = c.commands.iter().find(|x| x.name == "cmdinline").unwrap();
    assert_eq!(inline.source.path, rp("opencode.json"));
    assert_eq!(inline.source.lines.map(|l| l.start), Some(18));
    assert!(!inline.listed_to_model, "commands are not in the request");
    for needle in ["`/test`", "`rev`", "`inline`", "`/cmdinline`"] {
        assert!(
            !has(&c, DiagnosticCode::ItemNotModelled, needle),
            "{needle}"
        );
    }
    for a in &c.subagents {
        assert_eq!(a.applicability, Applicability::Effective, "{}", a.name);
        assert!(a.source.lines.is_some(), "{}", a.name);
    }
}

#[test]
fn claude_md_is_the_fallback_and_context_md_is_not_read() {
    let c = KIT.run("fallback_and_precedence", "a/b");
    assert_eq!(received(&c), ["a/CLAUDE.md", "CLAUDE.md"]);
    assert_eq!(inst(&c, "CLAUDE.md").kind, InstructionKind::Memory);
    // CONTEXT.md is found but loses to CLAUDE.md: shadowed, in no order.
    let context_md = inst(&c, "CONTEXT.md");
    assert_placed(
        context_md,
        LoadPhase::Startup,
        Applicability::Shadowed,
        None,
    );
}

#[test]
fn jsonc_beats_json_and_the_roots_dot_opencode_beats_cwds() {
    let c = KIT.run("fallback_and_precedence", "a/b");
    assert_eq!(mcp(&c, "x").url.as_deref(), Some("https://jsonc.example"));
    assert_eq!(mcp(&c, "x").source.path, rp("opencode.jsonc"));
    assert_eq!(mcp(&c, "y").command.as_deref(), Some("y"));
    let z = mcp(&c, "z");
    assert_eq!(z.command.as_deref(), Some("root-dot-opencode"));
    assert_eq!(z.source.path, rp(".opencode/opencode.json"));
    assert_eq!(z.other_sources[0].path, rp("a/.opencode/opencode.json"));
}

#[test]
fn a_skill_needs_a_name_and_is_listed_only_with_a_description() {
    let c = KIT.run("fallback_and_precedence", "a/b");
    let noname = skill(&c, ".claude/skills/noname/SKILL.md");
    assert_eq!(noname.applicability, Applicability::Excluded);
    assert!(has(
        &c,
        DiagnosticCode::SkillFieldMissing,
        "noname/SKILL.md` has no `name`"
    ));
    let nodesc = skill(&c, ".claude/skills/nodesc/SKILL.md");
    assert_eq!(nodesc.applicability, Applicability::Effective);
    assert_eq!(nodesc.advertisement.state, AdvertisementState::Hidden);
    assert_eq!(nodesc.invocation.implicit, Permission::Blocked);
    // No name pattern or directory check.
    assert!(listed(&c).contains(&"Bad_Name!".to_string()));
    assert!(listed(&c).contains(&"other-name".to_string()));
}

/// Same-name skills with different texts: the name is listed at startup
/// whichever OpenCode keeps, so the last found stands for it and the
/// other is shadowed, with the collision warning.
#[test]
fn same_name_skills_are_listed_once() {
    let c = KIT.run_skill_table(SKILLS, "fallback_and_precedence", "a/b");
    assert!(has(&c, DiagnosticCode::SkillNameCollision, "\"dup\""));
}

#[test]
fn a_directory_named_agents_md_wins_and_gives_nothing() {
    let c = KIT.run("agents_md_directory", "a/b");
    assert!(received(&c).is_empty());
    assert_eq!(
        inst(&c, "a/b/AGENTS.md").applicability,
        Applicability::Excluded
    );
    assert_eq!(inst(&c, "CLAUDE.md").applicability, Applicability::Shadowed);
    assert!(has(&c, DiagnosticCode::NotARegularFile, "a/b/AGENTS.md"));
}

#[test]
fn globs_match_dot_files_and_white_space_counts_as_text() {
    let c = KIT.run("globs_and_on_demand", ".");
    // Path order within a glob; OpenCode takes file-system order.
    assert_eq!(
        received(&c),
        [
            "AGENTS.md",
            "docs/.hidden.md",
            "docs/a.md",
            "docs/sub/b.md",
            "x/notes.md"
        ]
    );
    assert!(has(
        &c,
        DiagnosticCode::ItemNotModelled,
        "https://example.com/rules.md"
    ));
    let a = KIT.run("globs_and_on_demand", "a");
    assert_eq!(received(&a)[..2], ["a/AGENTS.md", "AGENTS.md"]);
    assert_eq!(inst(&a, "a/AGENTS.md").content, "  \n");
}

#[test]
fn files_below_cwd_attach_when_a_file_there_is_read() {
    let root = KIT.fixture("globs_and_on_demand");
    let c = KIT.compile_at(&root, "a", Some("a/b/c/file.ts"));
    let on_demand: Vec<(String, LoadPhase)> = c
        .received_instructions()
        .iter()
        .filter(|i| i.load_phase == LoadPhase::OnDemand)
        .map(|i| (i.source.path.to_string(), i.load_phase))
        .collect();
    // Seen with `opencode debug agent build --tool read`: closest first.
    assert_eq!(
        on_demand,
        [
            ("a/b/c/AGENTS.md".to_string(), LoadPhase::OnDemand),
            ("a/b/CLAUDE.md".to_string(), LoadPhase::OnDemand)
        ]
    );
    let no_target = KIT.compile_at(&root, "a", None);
    assert_eq!(
        inst(&no_target, "a/b/CLAUDE.md").applicability,
        Applicability::Conditional
    );
    let outside = KIT.compile_at(&root, "a/b", Some("x/notes.md"));
    assert!(has(
        &outside,
        DiagnosticCode::TargetOutsideCwd,
        "x/notes.md"
    ));
}

#[test]
fn configuration_opencode_refuses_is_an_error() {
    let c = KIT.run("invalid_jsonc", ".");
    let d = c
        .diagnostics
        .iter()
        .find(|d| d.code == DiagnosticCode::InvalidJson)
        .expect("invalid-json");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(
        d.source.as_ref().and_then(|s| s.lines).map(|l| l.start),
        Some(3)
    );
    let m = KIT.run("missing_file_reference", ".");
    assert!(m
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error && d.message.contains("{file:./nope.txt}")));
    let t = KIT.run("mcp_without_type", ".");
    assert!(t
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::McpInvalidEntry && d.severity == Severity::Error));
    assert_eq!(mcp(&t, "x").applicability, Applicability::Excluded);
}

#[test]
fn unknown_top_level_keys_are_ignored() {
    let c = KIT.run("unknown_top_level_key", ".");
    assert_eq!(mcp(&c, "ok").applicability, Applicability::Effective);
    assert!(!c.diagnostics.iter().any(|d| d.severity == Severity::Error));
}

#[test]
fn version_profiles() {
    let tree = WorkingTree::open(&KIT.fixture("unknown_top_level_key")).unwrap();
    let repo = Repo::new(&tree);
    let ctx = AnalysisContext::at_root();
    let c = ADAPTER.compile(&repo, &ctx, Some("1.19.0"));
    let p = c.agent_profile.unwrap();
    assert_eq!(p.version, "1.18.33");
    assert_eq!(p.requested.as_deref(), Some("1.19.0"));
    assert!(c
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::UnknownAgentVersion));
}

#[test]
fn identical_copies_of_a_skill_are_one_skill() {
    let c = KIT.run_skill_table(SKILLS, "identical_skill_copies", ".");
    assert_eq!(listed(&c), ["review"]);
}

/// OpenCode 1.18.33 exits 1 with "Configuration is invalid at opencode.json"
/// when an MCP entry has the wrong shape (`command` a string, not a list),
/// from the root and from a subdirectory: it receives nothing, so the
/// valid AGENTS.md is not received either.
#[test]
fn a_schema_invalid_configuration_stops_opencode_before_anything_loads() {
    for cwd in [".", "sub"] {
        let c = KIT.run("mcp_schema_invalid", cwd);
        let refused = diags(&c, DiagnosticCode::ConfigRefused);
        assert_eq!(refused.len(), 1, "{cwd}: {:?}", c.diagnostics);
        let d = refused[0];
        assert_eq!(d.severity, Severity::Error);
        let at = d.source.as_ref().expect("a source");
        assert_eq!(at.path, rp("opencode.json"));
        // The lines of the `a` entry, which holds the offending `command`.
        assert_eq!(at.lines.map(|l| (l.start, l.end)), Some((3, 6)), "{cwd}");
        assert!(d.message.contains("`command` must be a list of strings"));
        assert!(received(&c).is_empty(), "{cwd}: {:?}", received(&c));
        assert_eq!(inst(&c, "AGENTS.md").applicability, Applicability::Excluded);
        assert_eq!(mcp(&c, "a").applicability, Applicability::Excluded);
    }
    // A valid configuration gets no refusal.
    let ok = KIT.run("unknown_top_level_key", ".");
    assert!(!ok
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ConfigRefused));
}

/// Two skills named `dup` with different text (`.claude/skills` and
/// `.agents/skills` of the root): OpenCode 1.18.33 parses every found file
/// concurrently and keeps the one whose parse finishes last, so one run
/// listed `.agents/skills/dup/SKILL.md` and the next
/// `.claude/skills/dup/SKILL.md`. Either way it lists `dup` at startup:
/// the last found is effective and advertised, the other shadowed, and
/// one collision warning says the definition the model receives is not
/// decided.
#[test]
fn same_name_skills_with_different_text_are_a_race() {
    let c = KIT.run("duplicate_skill_names", ".");
    let shown = skill(&c, ".agents/skills/dup/SKILL.md");
    assert_eq!(shown.applicability, Applicability::Effective);
    assert_eq!(shown.load_phase, LoadPhase::Startup);
    assert_eq!(shown.advertisement.state, AdvertisementState::Advertised);
    assert!(shown.reason.contains("not always"), "{}", shown.reason);
    let other = skill(&c, ".claude/skills/dup/SKILL.md");
    assert_eq!(other.applicability, Applicability::Shadowed);
    assert!(
        other.reason.contains("may receive this one instead"),
        "{}",
        other.reason
    );
    let collisions = diags(&c, DiagnosticCode::SkillNameCollision);
    assert_eq!(collisions.len(), 1);
    assert_eq!(collisions[0].severity, Severity::Warning);
}

/// OpenCode 1.18.33 (`oracle/observations/opencode/1.18.33/
/// opencode.instruction_sources.in-a-b.json`): a leading `..` in an
/// `instructions` entry climbs from each directory the entry is tried
/// from, so `../escape.md` from `a` takes the root's `escape.md`; an empty
/// AGENTS.md still wins over CLAUDE.md, whose files come only through the
/// `"CLAUDE.md"` entry, matched from cwd and every parent.
#[test]
fn dot_dot_entries_climb_from_each_directory_tried() {
    let c = KIT.run("instruction_sources", "a/b");
    assert_eq!(
        received(&c),
        [
            "rules/one.md",
            "rules/two.md",
            "a/b/CLAUDE.md",
            "CLAUDE.md",
            "a/b/deep.md",
            "escape.md",
            "a/local.md",
            "a/dot-a.md",
            "dot-root.md"
        ]
    );
    assert_eq!(inst(&c, "AGENTS.md").applicability, Applicability::Excluded);
    // From the root, `../escape.md` names a file above the repository.
    assert!(has(
        &c,
        DiagnosticCode::UserConfigUnavailable,
        "\"../escape.md\" climbs above the repository root"
    ));
    // `../rules/two.md` from a is a file already taken: not taken twice.
    assert_eq!(
        received(&c).iter().filter(|p| *p == "rules/two.md").count(),
        1
    );
    let root = KIT.run("instruction_sources", ".");
    assert!(!received(&root).contains(&"escape.md".to_string()));
    assert!(has(
        &root,
        DiagnosticCode::UserConfigUnavailable,
        "\"../escape.md\""
    ));
    assert!(!has(
        &root,
        DiagnosticCode::InvalidValue,
        "\"../escape.md\""
    ));
}

/// OpenCode 1.18.33 on `jsonc_edges`, one configuration per launch
/// directory (`oracle/observations/opencode/1.18.33/
/// opencode.jsonc_edges.in-*.json`): an empty file is `{}`, but one of
/// only white space or only a comment is refused as not valid JSON(C); a
/// byte order mark, trailing commas in a `.json` file and repeated keys
/// (the last wins) are accepted; single quotes are refused.
#[test]
fn jsonc_edges_opencode_accepts_and_refuses() {
    let refused = |c: &EffectiveAgentConfig| {
        c.diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::InvalidJson && d.severity == Severity::Error)
    };
    for cwd in [
        "whitespace",
        "comment_only",
        "single_quotes",
        "env_unquoted",
    ] {
        let c = KIT.run("jsonc_edges", cwd);
        assert!(refused(&c), "{cwd} should be refused");
        assert!(received(&c).is_empty(), "{cwd}");
    }
    for cwd in ["empty", "bom", "trailing", "dup_keys"] {
        let c = KIT.run("jsonc_edges", cwd);
        assert!(!refused(&c), "{cwd} should load");
        assert_eq!(received(&c), ["AGENTS.md"], "{cwd}");
    }
    let dup = KIT.run("jsonc_edges", "dup_keys");
    let d = mcp(&dup, "d");
    assert_eq!(d.command.as_deref(), Some("two"));
    assert_eq!(d.applicability, Applicability::Effective);
}

/// OpenCode 1.18.33 replaces a `{file:path}` token before parsing, also
/// outside a string, where the file's trimmed content becomes JSON syntax:
/// `"enabled": {file:flag.txt}` with `flag.txt` holding `false` disables
/// server `f` and the configuration loads
/// (`opencode.jsonc_edges.in-file_unquoted.json`).
#[test]
fn a_file_reference_outside_a_string_is_inlined() {
    let c = KIT.run("jsonc_edges", "file_unquoted");
    assert!(c.diagnostics.iter().all(|d| d.severity != Severity::Error));
    assert_eq!(received(&c), ["AGENTS.md"]);
    assert_eq!(mcp(&c, "f").applicability, Applicability::Excluded);
    assert_eq!(mcp(&c, "g").applicability, Applicability::Effective);
}

/// OpenCode 1.18.33 reading one file (`opencode.on_demand_edges.*` in
/// `oracle/observations/opencode/1.18.33/`): an empty `AGENTS.md` is found
/// first in its directory, so that directory attaches nothing (its
/// `CLAUDE.md` is not tried), while one of white space attaches; a file
/// already sent at startup (here through `instructions`) is not attached
/// again; a target outside cwd attaches nothing.
#[test]
fn on_demand_edges() {
    let root = KIT.fixture("on_demand_edges");
    let on_demand = |cwd: &str, target: &str| -> Vec<String> {
        KIT.compile_at(&root, cwd, Some(target))
            .received_instructions()
            .iter()
            .filter(|i| i.load_phase == LoadPhase::OnDemand)
            .map(|i| i.source.path.to_string())
            .collect()
    };
    assert!(on_demand(".", "empty/y.ts").is_empty());
    assert_eq!(on_demand(".", "ws/z.ts"), ["ws/AGENTS.md"]);
    assert!(on_demand(".", "pkg/x.ts").is_empty());
    assert!(on_demand("deep", "sib/w.ts").is_empty());
    assert_eq!(on_demand("deep", "deep/a/b/c/v.ts"), ["deep/a/b/AGENTS.md"]);
    assert!(on_demand("deep/a/b/c", "deep/a/b/c/v.ts").is_empty());
}

/// What OpenCode 1.18.33's schema refuses and accepts, one configuration
/// per launch directory (`opencode.schema_edges.in-*`): refused are a
/// `type` other than local or remote, a remote without `url`, a text
/// `timeout` or `enabled`, `environment` as a list, a number as a header,
/// a `null` server, `instructions` or `skills.paths` as one string;
/// accepted are an unknown key in a server, a name with a space, and an
/// empty `command` (listed, with a warning that nothing can start).
#[test]
fn schema_edges_refused_and_accepted() {
    let refused =
        |c: &EffectiveAgentConfig| c.diagnostics.iter().any(|d| d.severity == Severity::Error);
    for cwd in [
        "sse",
        "remote_no_url",
        "timeout_str",
        "enabled_str",
        "env_list",
        "remote_headers_num",
        "null_server",
        "instructions_string",
        "skill_paths_string",
    ] {
        let c = KIT.run("schema_edges", cwd);
        assert!(refused(&c), "{cwd} should be refused");
    }
    for (cwd, server) in [
        ("extra_key", "x"),
        ("spaced_name", "my server"),
        ("local_empty_cmd", "l"),
    ] {
        let c = KIT.run("schema_edges", cwd);
        assert!(!refused(&c), "{cwd} should load");
        assert_eq!(
            mcp(&c, server).applicability,
            Applicability::Effective,
            "{cwd}"
        );
    }
    let empty = KIT.run("schema_edges", "local_empty_cmd");
    assert!(has(
        &empty,
        DiagnosticCode::McpInvalidEntry,
        "empty `command`"
    ));
}

/// Compiles, at the root, a repository holding `# Root` in `AGENTS.md`
/// and `json` as `opencode.json`.
fn with_opencode_json(json: &str) -> playbookdiff_model::EffectiveAgentConfig {
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path();
    playbookdiff_testkit::fs::write(root, "AGENTS.md", "# Root\n");
    playbookdiff_testkit::fs::write(root, "opencode.json", json);
    KIT.compile_at(root, ".", None)
}

/// Checks that OpenCode starts with `json` as `opencode.json`: no
/// `config-refused`, and the root `AGENTS.md` received.
fn starts_with(json: &str) {
    let c = with_opencode_json(json);
    assert!(
        diags(&c, DiagnosticCode::ConfigRefused).is_empty(),
        "{json}: {:?}",
        c.diagnostics
    );
    assert_eq!(received(&c), ["AGENTS.md"], "{json}");
}

/// OpenCode 1.18.33 validates every configuration file against its schema,
/// so a typed setting of another kind (`"model": 5`: "Expected string |
/// undefined, got 5 model"; `null`; an array for an object) stops it like a
/// malformed MCP entry, whatever the setting does; an unknown key does not.
#[test]
fn a_typed_setting_of_the_wrong_kind_stops_opencode() {
    for (setting, key) in [
        (r#""model": 5"#, "model"),
        (r#""small_model": null"#, "small_model"),
        (r#""share": true"#, "share"),
        (r#""autoupdate": 1"#, "autoupdate"),
        (r#""plugin": {}"#, "plugin"),
        (r#""agent": []"#, "agent"),
        (r#""permission": 5"#, "permission"),
        (r#""lsp": "off""#, "lsp"),
    ] {
        let c = with_opencode_json(&format!("{{\n  {setting}\n}}\n"));
        let refused = diags(&c, DiagnosticCode::ConfigRefused);
        assert_eq!(refused.len(), 1, "{setting}: {:?}", c.diagnostics);
        let at = refused[0].source.as_ref().expect("a source");
        assert_eq!(at.path, rp("opencode.json"));
        assert_eq!(
            at.lines.map(|l| (l.start, l.end)),
            Some((2, 2)),
            "{setting}"
        );
        assert!(
            refused[0].message.contains(&format!("`{key}`")),
            "{}",
            refused[0].message
        );
        assert!(received(&c).is_empty(), "{setting}: {:?}", received(&c));
    }
    // The right kinds, and a key the schema does not know: it starts.
    starts_with(
        r#"{"model": "a/b", "share": "manual", "autoupdate": "notify", "lsp": false,
            "permission": "ask", "agent": {}, "plugin": [], "bogus": 1}"#,
    );
}

/// An instruction file over the 4 MiB read limit, on the AGENTS.md chain or
/// matched by an `instructions` entry: OpenCode reads instruction files
/// whole, so it receives the file at startup; the analysis does not read
/// it. One account: effective, its size in `bytes`, no text, and one
/// `file-too-large` saying OpenCode sends it whole (before, the chain file
/// was `unavailable` and the matched one had no diagnostic at all).
#[test]
fn an_instruction_file_over_the_read_limit_is_received_with_its_text_unread() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    let big = "Use pnpm.\n".repeat(500_000);
    std::fs::write(root.join("AGENTS.md"), &big).unwrap();
    std::fs::write(root.join("big.md"), &big).unwrap();
    std::fs::write(
        root.join("opencode.json"),
        r#"{"instructions": ["big.md"]}"#,
    )
    .unwrap();
    let c = KIT.compile_at(root, ".", None);
    for path in ["AGENTS.md", "big.md"] {
        let i = inst(&c, path);
        assert_eq!(
            (i.load_phase, i.applicability),
            (LoadPhase::Startup, Applicability::Effective),
            "{path}"
        );
        assert_eq!(i.bytes, big.len() as u64, "{path}");
        assert!(i.content.is_empty(), "{path}");
        let d: Vec<_> = c
            .diagnostics
            .iter()
            .filter(|d| d.source.as_ref().is_some_and(|s| s.path.as_str() == path))
            .collect();
        assert_eq!(d.len(), 1, "{path}: {d:#?}");
        assert_eq!(d[0].code, DiagnosticCode::FileTooLarge);
        assert!(
            d[0].message.contains("OpenCode would send it whole"),
            "{}",
            d[0].message
        );
    }
    assert_eq!(received(&c), ["AGENTS.md", "big.md"]);
}

/// OpenCode 1.18.33 refuses a string that is none of an enum setting's
/// values (`"share": "bogus"`: "Expected \"manual\" | \"auto\" |
/// \"disabled\", got \"bogus\" share"; the same for `autoupdate`, `layout`,
/// `logLevel` and `permission`, case included), and accepts each listed
/// value; a free string setting (`model`) takes any string.
#[test]
fn an_enum_setting_outside_its_values_stops_opencode() {
    for (setting, key, values) in [
        (
            r#""share": "bogus""#,
            "share",
            &["manual", "auto", "disabled"][..],
        ),
        (
            r#""share": "Manual""#,
            "share",
            &["manual", "auto", "disabled"],
        ),
        (r#""autoupdate": "bogus""#, "autoupdate", &["notify"]),
        (r#""layout": "bogus""#, "layout", &["auto", "stretch"]),
        (
            r#""logLevel": "debug""#,
            "logLevel",
            &["DEBUG", "INFO", "WARN", "ERROR"],
        ),
        (
            r#""permission": "bogus""#,
            "permission",
            &["ask", "allow", "deny"],
        ),
    ] {
        let c = with_opencode_json(&format!("{{\n  {setting}\n}}\n"));
        let refused = diags(&c, DiagnosticCode::ConfigRefused);
        assert_eq!(refused.len(), 1, "{setting}: {:?}", c.diagnostics);
        let invalid = diags(&c, DiagnosticCode::InvalidValue);
        assert_eq!(invalid.len(), 1, "{setting}: {:?}", c.diagnostics);
        for d in [refused[0], invalid[0]] {
            let at = d.source.as_ref().expect("a source");
            assert_eq!(at.path, rp("opencode.json"));
            assert_eq!(
                at.lines.map(|l| (l.start, l.end)),
                Some((2, 2)),
                "{setting}"
            );
            assert!(d.message.contains(&format!("`{key}`")), "{}", d.message);
            for v in values {
                assert!(d.message.contains(&format!("\"{v}\"")), "{}", d.message);
            }
            assert!(
                !d.message.contains("bogus")
                    && !d.message.contains("\"debug\"")
                    && !d.message.contains("Manual"),
                "the value is never quoted: {}",
                d.message
            );
        }
        assert!(received(&c).is_empty(), "{setting}: {:?}", received(&c));
    }
    // Every listed value, the other kinds an enum setting allows, and a
    // free string: it starts.
    for settings in [
        r#"{"share": "manual", "autoupdate": "notify", "layout": "auto", "logLevel": "DEBUG", "permission": "ask", "model": "bogus"}"#,
        r#"{"share": "auto", "autoupdate": true, "layout": "stretch", "logLevel": "INFO", "permission": "allow"}"#,
        r#"{"share": "disabled", "autoupdate": false, "logLevel": "WARN", "permission": "deny"}"#,
        r#"{"logLevel": "ERROR", "permission": {"edit": "ask"}}"#,
    ] {
        starts_with(settings);
    }
}

/// `agent_edges`: agent files at the edges of their front matter, as
/// OpenCode 1.18.33 reads them (case `opencode.agent_edges`): a
/// byte-order mark, CRLF and a `----` closing line still give the front
/// matter, a `...` close gives none (`dots` has no `mode`, so `all`),
/// `description: yes` is text rather than a refused boolean; dot files,
/// links, names with spaces and subfolders are agents too; the skills
/// `dash-skill` (closed by `----`) and `yes-skill` load and are listed.
#[test]
fn agent_front_matter_edges_as_opencode_reads_them() {
    use playbookdiff_model::AgentMode;
    let c = KIT.run("agent_edges", ".");
    assert!(!c
        .diagnostics
        .iter()
        .any(|d| d.severity == playbookdiff_model::Severity::Error));
    let by = |n: &str| c.subagents.iter().find(|a| a.name == n).unwrap();
    for n in [
        "bom",
        "crlf",
        "four-dashes",
        "yes-desc",
        ".hidden",
        "linked",
        "Upper Name",
        "nested/deep/x",
    ] {
        assert_eq!(by(n).mode, AgentMode::Subagent, "{n}");
        assert_eq!(by(n).applicability, Applicability::Effective, "{n}");
    }
    assert_eq!(by("dots").mode, AgentMode::All);
    assert_eq!(by("no-front").mode, AgentMode::All);
    assert_eq!(by("yes-desc").description.as_deref(), Some("yes"));
    assert_eq!(c.subagents.len(), 11);
    // Skills are split the same way: `----` closes, `yes` is text.
    let skills: Vec<(&str, Option<&str>)> = c
        .skills
        .iter()
        .map(|s| (s.name.as_str(), s.description.as_deref()))
        .collect();
    assert_eq!(
        skills,
        [
            ("dash-skill", Some("Closed by four dashes")),
            ("yes-skill", Some("yes"))
        ]
    );
}

/// Agents of `.opencode/agent`, `.opencode/agents` (subfolders named by
/// path), `.opencode/mode` and the `agent` key, as `opencode debug config`
/// lists them (case `opencode.agents_and_commands`): `mode` decides who
/// may call one (a mode, and `mode: primary`, are primary agents the
/// `task` tool does not list; no `mode` is `all`), `disable: true` turns
/// one off, and `tools: {write: false}` takes a tool away. The `task` tool
/// lists `inline`, `review` and `team/helper`, as recorded.
#[test]
fn agents_modes_and_commands_are_modelled_as_opencode_lists_them() {
    use playbookdiff_model::AgentMode;
    let c = KIT.run("agents_and_commands", ".");
    let mut all: Vec<&str> = c.subagents.iter().map(|a| a.name.as_str()).collect();
    all.sort();
    assert_eq!(
        all,
        ["focus", "inline", "lead", "off", "review", "team/helper"]
    );
    let by = |n: &str| c.subagents.iter().find(|a| a.name == n).unwrap();
    assert_eq!(by("focus").mode, AgentMode::Primary);
    assert_eq!(by("lead").mode, AgentMode::Primary);
    assert_eq!(by("team/helper").mode, AgentMode::All);
    assert_eq!(by("off").applicability, Applicability::Excluded);
    assert_eq!(by("review").disallowed_tools, ["write"]);
    let mut listed: Vec<&str> = c
        .subagents
        .iter()
        .filter(|a| a.listed_by.is_some() && a.applicability == Applicability::Effective)
        .map(|a| a.name.as_str())
        .collect();
    listed.sort();
    assert_eq!(listed, ["inline", "review", "team/helper"]);
    let mut commands: Vec<&str> = c.commands.iter().map(|x| x.name.as_str()).collect();
    commands.sort();
    assert_eq!(commands, ["git/commit", "hello", "test"]);
    let test = c.commands.iter().find(|x| x.name == "test").unwrap();
    assert_eq!(test.agent.as_deref(), Some("review"));
}

/// From `a`, both `.opencode` folders define `review`: the root's is read
/// last and merged over the closer one, its fields winning (seen with
/// `opencode debug config`, case `opencode.agents_and_commands.in-a`), the
/// closer one is shadowed with a duplicate note at its file.
#[test]
fn the_root_definition_of_an_agent_wins_over_a_closer_one() {
    let c = KIT.run("agents_and_commands", "a");
    let reviews: Vec<(&str, Applicability)> = c
        .subagents
        .iter()
        .filter(|a| a.name == "review")
        .map(|a| (a.source.path.as_str(), a.applicability))
        .collect();
    assert_eq!(
        reviews,
        [
            ("a/.opencode/agent/review.md", Applicability::Shadowed),
            (".opencode/agent/review.md", Applicability::Effective)
        ]
    );
    assert!(has(&c, DiagnosticCode::SubagentDuplicate, "`review`"));
}

/// OpenCode merges every definition of one agent name in its read order,
/// the later fields winning and the others kept (seen with 1.18.33 on the
/// oracle fixture `opencode_agent_merge`, cases `oracle.opencode_agent_merge`
/// and `.in-a`; fuzzer seeds 294 and 308). From `a`: the project's
/// `opencode.json` before the root's `.opencode` files, the files of
/// `a/.opencode` before the root's `.opencode/opencode.json`.
#[test]
fn the_definitions_of_one_agent_name_merge_in_read_order() {
    use playbookdiff_model::AgentMode;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../oracle/fixtures/opencode_agent_merge");
    let c = KIT.compile_at(&dir, "a", None);
    let last = |name: &str| {
        let all: Vec<_> = c.subagents.iter().filter(|a| a.name == name).collect();
        assert!(all[..all.len() - 1]
            .iter()
            .all(|a| a.applicability == Applicability::Shadowed));
        all[all.len() - 1].clone()
    };
    // Configuration, then a file without `mode`; a file without `mode`,
    // then configuration: primary both ways.
    assert_eq!(last("cfg-first").mode, AgentMode::Primary);
    assert_eq!(last("file-first").mode, AgentMode::Primary);
    // The fields one side alone sets are kept.
    for (name, description) in [
        ("cfg-first-kept", "described by the configuration"),
        ("file-first-kept", "described by the later configuration"),
    ] {
        let a = last(name);
        assert_eq!(a.mode, AgentMode::Subagent, "{name}");
        assert_eq!(a.description.as_deref(), Some(description), "{name}");
        assert_eq!(a.applicability, Applicability::Effective, "{name}");
    }
    assert_eq!(last("off").applicability, Applicability::Excluded);
    // A mode file is primary over an entry `mode: subagent`.
    assert_eq!(last("both").mode, AgentMode::Primary);
    assert!(has(&c, DiagnosticCode::SubagentDuplicate, "merges them"));
}

/// `path` made a FIFO (a socket where `mkfifo` is missing): a file that
/// is neither regular nor a directory, which git cannot hold.
fn mkfifo(path: &std::path::Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        std::os::unix::net::UnixListener::bind(path).unwrap();
    }
}

/// OpenCode 1.18.33 does not start when a configuration file it reads is
/// not a regular file (docs/fidelity.md, "OpenCode configuration that is
/// not a file"): a directory `opencode.json` exits 1 ("Unexpected error",
/// `BadResource: FileSystem.readFile`), a FIFO blocks the read until the
/// agent is killed. Every configuration file name, at the root and in
/// `.opencode`, as a directory or a FIFO: one `not-a-regular-file` error
/// on the file and one refusal that quotes no message OpenCode does not
/// print, and nothing is received, not even the valid AGENTS.md.
#[test]
fn a_configuration_file_that_is_not_a_file_stops_opencode() {
    let observed = KIT.run("config_is_a_directory", ".");
    assert_eq!(diags(&observed, DiagnosticCode::ConfigRefused).len(), 1);
    for name in [
        "opencode.json",
        "opencode.jsonc",
        ".opencode/opencode.json",
        ".opencode/opencode.jsonc",
    ] {
        for fifo in [false, true] {
            let t = tempfile::tempdir().unwrap();
            let root = t.path();
            std::fs::write(root.join("AGENTS.md"), "# Rules\n\nUse tabs.\n").unwrap();
            std::fs::create_dir_all(root.join(".opencode")).unwrap();
            if fifo {
                mkfifo(&root.join(name));
            } else {
                std::fs::create_dir_all(root.join(name)).unwrap();
            }
            let c = KIT.compile_at(root, ".", None);
            let not_a_file = diags(&c, DiagnosticCode::NotARegularFile);
            assert_eq!(not_a_file.len(), 1, "{name} {fifo}: {:?}", c.diagnostics);
            assert_eq!(not_a_file[0].severity, Severity::Error);
            let at = not_a_file[0].source.as_ref().expect("a source");
            assert_eq!(at.path, rp(name));
            assert!(
                not_a_file[0].message.contains("does not start"),
                "{}",
                not_a_file[0].message
            );
            let refused = diags(&c, DiagnosticCode::ConfigRefused);
            assert_eq!(refused.len(), 1, "{name} {fifo}: {:?}", c.diagnostics);
            // OpenCode prints no "Configuration is invalid" here: the
            // read fails (or blocks) before it validates anything.
            assert!(
                !refused[0].message.contains("Configuration is invalid"),
                "{}",
                refused[0].message
            );
            assert!(received(&c).is_empty(), "{name}: {:?}", received(&c));
            assert!(!c
                .diagnostics
                .iter()
                .any(|d| d.code == DiagnosticCode::Unreadable));
        }
    }
}

/// A command or agent file's front matter `name` names it, in both folders
/// of its kind and below a subfolder; a file without one is named by its
/// path (random repositories, `fuzz.opencode.10`, `fuzz.opencode.29`:
/// 1.18.33 listed the command `ship.md` with `name: FIX` as `FIX`, `fix.md`
/// with `name: has space` as `has space`, the agent `plan.md` with
/// `name: rev` as `rev`).
#[test]
fn a_command_or_agent_is_named_by_the_name_of_its_front_matter() {
    let t = tempfile::tempdir().unwrap();
    let put = |rel: &str, text: &str| {
        let p = t.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    put(
        ".opencode/commands/ship.md",
        "---\nname: FIX\n---\nship it\n",
    );
    put(
        ".opencode/command/fix.md",
        "---\nname: has space\n---\nfix\n",
    );
    put(".opencode/commands/git/commit.md", "---\nname: c\n---\nc\n");
    put(
        ".opencode/commands/plain.md",
        "---\ndescription: d\n---\np\n",
    );
    put(
        ".opencode/agents/plan.md",
        "---\nname: rev\ndescription: d\n---\nr\n",
    );
    put(
        ".opencode/agent/team/x.md",
        "---\nname: why\ndescription: d\n---\nr\n",
    );
    put(".opencode/agents/plain.md", "---\ndescription: d\n---\nr\n");
    let c = KIT.compile_at(t.path(), ".", None);
    let mut commands: Vec<&str> = c.commands.iter().map(|x| x.name.as_str()).collect();
    commands.sort();
    assert_eq!(commands, ["FIX", "c", "has space", "plain"]);
    let mut agents: Vec<&str> = c
        .subagents
        .iter()
        .filter(|a| a.source.path.as_str().starts_with(".opencode/"))
        .map(|a| a.name.as_str())
        .collect();
    agents.sort();
    assert_eq!(agents, ["plain", "rev", "why"]);
}

/// OpenCode 1.1.34, the release published before 1.1.53 (cases
/// `opencode.instruction_sources` and
/// `opencode.fallback_levels.read-a-b-c-d-x.ts` in
/// `oracle/bisect/opencode.older.json`): it sends the empty `AGENTS.md`
/// of the root first, and its read of `a/b/c/d/x.ts` attaches no file;
/// 1.1.53 leaves the empty file out and attaches `a/b/c/AGENTS.md`,
/// `a/b/CONTEXT.md` and `a/AGENTS.md`.
#[test]
fn before_1_1_53_empty_files_are_sent_and_a_read_attaches_nothing() {
    let at = |fixture: &str, target: Option<&str>, version: &str| {
        let ctx = playbookdiff_testkit::at_root().version(version);
        let ctx = match target {
            Some(t) => ctx.target(t),
            None => ctx,
        };
        KIT.compile_dir(&KIT.fixture(fixture), &ctx)
    };
    let startup = |c: &EffectiveAgentConfig| -> Vec<String> {
        received(c)
            .into_iter()
            .filter(|p| {
                c.instructions
                    .iter()
                    .any(|i| i.source.path.as_str() == p && i.load_phase == LoadPhase::Startup)
            })
            .collect()
    };
    let old = at("instruction_sources", None, "1.1.34");
    assert_eq!(startup(&old)[0], "AGENTS.md");
    assert!(old
        .agent_profile
        .as_ref()
        .is_some_and(|p| p.version == "1.1.34"));
    let new = at("instruction_sources", None, "1.1.53");
    assert!(!startup(&new).contains(&"AGENTS.md".to_string()));

    let on_demand = |c: &EffectiveAgentConfig| -> Vec<String> {
        c.instructions
            .iter()
            .filter(|i| {
                i.load_phase == LoadPhase::OnDemand && i.applicability == Applicability::Effective
            })
            .map(|i| i.source.path.to_string())
            .collect()
    };
    let old = at("fallback_levels", Some("a/b/c/d/x.ts"), "1.1.34");
    assert!(on_demand(&old).is_empty());
    assert!(old
        .instructions
        .iter()
        .any(|i| i.source.path.as_str() == "a/b/c/AGENTS.md"
            && i.applicability == Applicability::OutOfScope));
    let new = at("fallback_levels", Some("a/b/c/d/x.ts"), "1.1.53");
    assert_eq!(
        on_demand(&new),
        ["a/b/c/AGENTS.md", "a/b/CONTEXT.md", "a/AGENTS.md"]
    );
}

/// The fixture `name` compiled at the root for OpenCode `version`.
fn at_version(name: &str, version: &str) -> EffectiveAgentConfig {
    let ctx = playbookdiff_testkit::at_root().version(version);
    KIT.compile_dir(&KIT.fixture(name), &ctx)
}

/// The names of the subagents and commands defined under `.opencode`,
/// sorted.
fn defined(c: &EffectiveAgentConfig) -> (Vec<String>, Vec<String>) {
    let mut agents: Vec<String> = c.subagents.iter().map(|a| a.name.clone()).collect();
    let mut commands: Vec<String> = c.commands.iter().map(|a| a.name.clone()).collect();
    agents.sort();
    commands.sort();
    (agents, commands)
}

/// OpenCode 1.0.152 to 1.0.185 (`oracle/bisect/opencode.older.json`):
/// a `.opencode/agents` or `.opencode/commands` folder stops it with
/// "Directory "agents" in .opencode is not valid" (case
/// `opencode.agents_and_commands`, exit 1), so it receives nothing; it
/// finds no skill (case `opencode.duplicate_skill_names`); and the
/// `instructions` of `.opencode/opencode.json` replace those of the root
/// `opencode.jsonc` (case `opencode.instruction_sources`: `AGENTS.md` and
/// `dot-root.md` alone). 1.1.11, the next release published, does none of
/// it.
#[test]
fn before_1_1_11_plural_folders_refuse_no_skill_is_found_and_lists_replace() {
    let old = at_version("agents_and_commands", "1.0.185");
    let refused = diags(&old, DiagnosticCode::ConfigRefused);
    assert_eq!(refused.len(), 1, "{:?}", old.diagnostics);
    assert!(has(
        &old,
        DiagnosticCode::InvalidValue,
        "Directory \"agents\""
    ));
    assert!(has(
        &old,
        DiagnosticCode::InvalidValue,
        "Directory \"commands\""
    ));
    assert!(received(&old).is_empty(), "{:?}", received(&old));
    let new = at_version("agents_and_commands", "1.1.11");
    assert!(diags(&new, DiagnosticCode::ConfigRefused).is_empty());
    assert_eq!(received(&new), ["AGENTS.md"]);

    assert!(at_version("duplicate_skill_names", "1.0.185")
        .skills
        .is_empty());
    assert_eq!(
        listed(&at_version("duplicate_skill_names", "1.1.11")),
        ["dup"]
    );

    let old = at_version("instruction_sources", "1.0.185");
    assert_eq!(received(&old), ["AGENTS.md", "dot-root.md"]);
    let new = at_version("instruction_sources", "1.1.11");
    assert_eq!(
        received(&new),
        [
            "AGENTS.md",
            "rules/one.md",
            "rules/two.md",
            "CLAUDE.md",
            "a/b/deep.md",
            "dot-root.md"
        ]
    );
}

/// OpenCode 1.1.11 names an agent or command in a subfolder of
/// `.opencode/agents` or `.opencode/commands` by its file name alone
/// (`helper`, `commit`); 1.1.16 by its path (`team/helper`,
/// `git/commit`). A subfolder of the singular folder is named by its path
/// in both (case `opencode.agents_and_commands`).
#[test]
fn before_1_1_16_a_plural_folders_nested_file_is_named_by_its_file_name() {
    let (agents, commands) = defined(&at_version("agents_and_commands", "1.1.11"));
    assert!(agents.contains(&"helper".to_string()), "{agents:?}");
    assert!(!agents.contains(&"team/helper".to_string()), "{agents:?}");
    assert!(commands.contains(&"commit".to_string()), "{commands:?}");
    let (agents, commands) = defined(&at_version("agents_and_commands", "1.1.16"));
    assert!(agents.contains(&"team/helper".to_string()), "{agents:?}");
    assert!(commands.contains(&"git/commit".to_string()), "{commands:?}");
}

/// 1.0.152, the window's first release, maps to its own profile without
/// a warning; 1.0.98, before it, gets that profile with the diagnostic.
#[test]
fn the_window_starts_at_1_0_152() {
    let first = at_version("unknown_top_level_key", "1.0.152");
    assert_eq!(first.agent_profile.as_ref().unwrap().version, "1.0.152");
    assert!(diags(&first, DiagnosticCode::UnknownAgentVersion).is_empty());
    let before = at_version("unknown_top_level_key", "1.0.98");
    assert_eq!(before.agent_profile.as_ref().unwrap().version, "1.0.152");
    assert_eq!(diags(&before, DiagnosticCode::UnknownAgentVersion).len(), 1);
}

/// In local mode OpenCode before 1.1.11 checks the user's configuration
/// directories too (`assertValid` over every directory it reads: the
/// global one, `~/.opencode`, `$OPENCODE_CONFIG_DIR`; 1.0.185's shipped
/// code): a `~/.config/opencode/agents` folder stops it as the project's
/// would; 1.1.11 reads it.
#[test]
fn before_1_1_11_a_plural_folder_of_the_users_stops_opencode_too() {
    let home = tempfile::tempdir().unwrap();
    let agents = home.path().join(".config/opencode/agents");
    std::fs::create_dir_all(&agents).unwrap();
    std::fs::write(
        agents.join("mine.md"),
        "---\ndescription: Mine.\n---\nBody.\n",
    )
    .unwrap();
    let machine = playbookdiff_source::Machine::new(Some(home.path().to_path_buf()));
    let tree = WorkingTree::open(&KIT.fixture("unknown_top_level_key")).unwrap();
    let repo = Repo::new(&tree);
    let ctx = playbookdiff_testkit::at_root().local().context();
    let at = |version| {
        let inputs = playbookdiff_adapter::Inputs {
            version: Some(version),
            machine: Some(&machine),
            ..Default::default()
        };
        ADAPTER.compile_with(&repo, &ctx, &inputs)
    };
    let old = at("1.0.185");
    assert_eq!(diags(&old, DiagnosticCode::ConfigRefused).len(), 1);
    assert!(has(
        &old,
        DiagnosticCode::InvalidValue,
        "Directory \"agents\""
    ));
    let new = at("1.1.11");
    assert!(diags(&new, DiagnosticCode::ConfigRefused).is_empty());
    assert!(new.subagents.iter().any(|a| a.name == "mine"));
}

/// OpenCode's read tool attaches the instruction files of the directories
/// from the file read up to the launch directory, but not the file read
/// itself: reading `b/AGENTS.md` attaches nothing, reading `a/x.py`
/// attaches `a/AGENTS.md`, white space only as it is (1.18.33, cases
/// `opencode.blank_on_demand.read-b-agents` and `.read-a-x`; found by the
/// fuzzer, case `fuzz.opencode.505`).
#[test]
fn the_file_read_is_not_attached_as_its_own_instruction() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../oracle/fixtures/opencode-blank-on-demand");
    let attached = |target: &str| -> Vec<String> {
        let c = KIT.compile_at(&dir, ".", Some(target));
        c.instructions
            .iter()
            .filter(|i| {
                i.load_phase == LoadPhase::OnDemand && i.applicability == Applicability::Effective
            })
            .map(|i| i.source.path.to_string())
            .collect()
    };
    assert!(attached("b/AGENTS.md").is_empty());
    assert_eq!(attached("a/x.py"), ["a/AGENTS.md"]);
    let c = KIT.compile_at(&dir, ".", Some("b/AGENTS.md"));
    let b = inst(&c, "b/AGENTS.md");
    assert_eq!(b.applicability, Applicability::Shadowed);
    assert!(b.reason.contains("targetPath itself"), "{}", b.reason);
}

/// `~/.config/opencode/AGENTS.md` a link to nothing does not exist for
/// OpenCode (`existsSafe` follows links): the user's global instruction
/// is then `~/.claude/CLAUDE.md`, as when the first is absent.
#[cfg(unix)]
#[test]
fn a_dangling_global_agents_md_falls_back_to_the_claude_file() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join(".config/opencode");
    std::fs::create_dir_all(&config).unwrap();
    std::os::unix::fs::symlink("missing.md", config.join("AGENTS.md")).unwrap();
    std::fs::create_dir_all(home.path().join(".claude")).unwrap();
    std::fs::write(home.path().join(".claude/CLAUDE.md"), "Use tabs.\n").unwrap();
    let machine = playbookdiff_source::Machine::new(Some(home.path().to_path_buf()));
    let tree = WorkingTree::open(&KIT.fixture("unknown_top_level_key")).unwrap();
    let repo = Repo::new(&tree);
    let ctx = playbookdiff_testkit::at_root().local().context();
    let inputs = playbookdiff_adapter::Inputs {
        machine: Some(&machine),
        ..Default::default()
    };
    let config = ADAPTER.compile_with(&repo, &ctx, &inputs);
    let global: Vec<&str> = config
        .instructions
        .iter()
        .filter(|i| i.source.path.is_on_machine())
        .map(|i| i.source.path.as_str())
        .collect();
    assert_eq!(global, ["~/.claude/CLAUDE.md"], "{:?}", config.instructions);
}
