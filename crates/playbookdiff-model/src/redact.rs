//! Keeping secrets out of the output: detection and redaction of literal
//! values in MCP configuration, shared by every adapter.
//!
//! Output contract "McpServer": literal values, headers, bearer tokens and
//! URL credentials are never written out; spec 000 and 004: names of
//! variables and `${VAR}` placeholders stay symbolic.
//!
//! Detection is a heuristic that decides only whether to emit
//! `mcp-literal-secret`: every literal `env` and header value is redacted
//! whether or not it looks like a secret. Command words, arguments and URL
//! parts are redacted when they look like secrets.

use crate::ConfiguredValue;

/// What replaces a redacted part of a command, an argument or a URL.
pub const REDACTED: &str = "<redacted>";

/// Prefixes of well-known credential formats.
const SECRET_PREFIXES: &[&str] = &[
    "sk-",
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "pk_live_",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xoxs-",
    "xapp-",
    "AKIA",
    "ASIA",
    "AIza",
    "ya29.",
    "eyJ",
    "npm_",
    "pypi-",
    "hf_",
    "dop_v1_",
    "shpat_",
    "SG.",
    "-----BEGIN",
];

/// Words of a variable, header or flag name that mark its value secret.
const SECRET_WORDS: &[&str] = &[
    "KEY",
    "AUTH",
    "AUTHORIZATION",
    "PASS",
    "PAT",
    "CREDENTIAL",
    "CREDENTIALS",
    "COOKIE",
    "BEARER",
    "SIG",
    "SIGNATURE",
    "JWT",
    "DSN",
];

/// Fragments that mark a name secret wherever they occur in a word.
const SECRET_FRAGMENTS: &[&str] = &[
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "APIKEY",
    "PRIVATEKEY",
];

/// A fingerprint of a value that is never written out (a literal `env`
/// or header value, a URL with credentials): a 64-bit hash of its bytes,
/// the same for the same value within one run, so that two revisions'
/// values are compared without keeping either. It is never serialized or
/// printed.
pub fn fingerprint(raw: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    raw.hash(&mut h);
    // 0 means "unknown".
    h.finish().max(1)
}

/// True when `s` contains a `${...}` placeholder.
pub fn has_placeholder(s: &str) -> bool {
    match s.find("${") {
        Some(i) => s[i + 2..].contains('}'),
        None => false,
    }
}

/// `s` with every complete `${...}` placeholder removed.
pub fn without_placeholders(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("${") {
        match rest[i + 2..].find('}') {
            Some(j) => {
                out.push_str(&rest[..i]);
                rest = &rest[i + 2 + j + 1..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// True when `s` is made only of placeholders and white space (or empty).
pub fn placeholder_only(s: &str) -> bool {
    without_placeholders(s).trim().is_empty()
}

/// The upper-case words of a name: split at every non-alphanumeric
/// character and at each lower-to-upper case change (`apiKey` → API, KEY).
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase();
        cur.extend(c.to_uppercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// True when a variable, header or flag name suggests its value is a
/// secret (`OPENAI_API_KEY`, `X-Api-Key`, `--token`, `Authorization`).
pub fn secret_name(name: &str) -> bool {
    words(name).iter().any(|w| {
        SECRET_WORDS.contains(&w.as_str()) || SECRET_FRAGMENTS.iter().any(|f| w.contains(f))
    })
}

/// True when a literal value looks like a credential: a known token
/// prefix, an `Authorization` scheme with a value, a long random-looking
/// word, or any non-trivial value under a secret-sounding name.
pub fn looks_like_secret(value: &str, name: Option<&str>) -> bool {
    let v = without_placeholders(value);
    let v = v.trim();
    if v.is_empty() {
        return false;
    }
    let lower = v.to_ascii_lowercase();
    if name.is_some_and(secret_name)
        && v.chars().count() >= 4
        && !matches!(
            lower.as_str(),
            "true" | "false" | "none" | "null" | "yes" | "no"
        )
    {
        return true;
    }
    if SECRET_PREFIXES
        .iter()
        .any(|p| v.starts_with(p) && v.len() >= p.len() + 8)
    {
        return true;
    }
    for scheme in ["bearer ", "basic ", "token "] {
        if let Some(i) = lower.find(scheme) {
            if v[i + scheme.len()..].trim().chars().count() >= 8 {
                return true;
            }
        }
    }
    random_looking(v)
}

/// A long single word of token characters mixing letters and digits
/// heavily enough to be a key rather than a name or a path.
fn random_looking(v: &str) -> bool {
    let n = v.chars().count();
    if n < 20 || v.contains("://") || v.starts_with(['/', '.', '~']) {
        return false;
    }
    if !v
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_.=+/".contains(c))
    {
        return false;
    }
    let digits = v.chars().filter(char::is_ascii_digit).count();
    let upper = v.chars().filter(char::is_ascii_uppercase).count();
    let lower = v.chars().filter(char::is_ascii_lowercase).count();
    let slashes = v.matches('/').count();
    if slashes > 0 && (n < 32 || v.contains('.')) {
        return false; // a path or a package name such as @scope/pkg
    }
    digits >= 1 && upper + lower >= 1 && ((upper >= 1 && lower >= 1 && digits >= 2) || digits >= 6)
}

/// A URL with user information, path segments that look like keys and
/// literal query (and fragment) values replaced by [`REDACTED`];
/// placeholders stay verbatim. Returns the text and whether something that
/// looks like a secret (credentials, a key-like segment or query value)
/// was found. A string without `://` is returned unchanged.
pub fn redact_url(s: &str) -> (String, bool) {
    let Some(scheme_end) = s.find("://") else {
        return (s.to_string(), false);
    };
    let start = scheme_end + 3;
    let auth_end = s[start..]
        .find(['/', '?', '#'])
        .map(|i| start + i)
        .unwrap_or(s.len());
    let authority = &s[start..auth_end];
    let mut secret = false;
    let mut out = s[..start].to_string();
    match authority.rfind('@') {
        Some(at) if !placeholder_only(&authority[..at].replace(':', "")) => {
            out.push_str(REDACTED);
            out.push_str(&authority[at..]);
            secret = true;
        }
        _ => out.push_str(authority),
    }
    let tail = &s[auth_end..];
    let (before_frag, frag) = match tail.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (tail, None),
    };
    let (path, query) = match before_frag.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (before_frag, None),
    };
    let segments: Vec<String> = path
        .split('/')
        .map(|seg| {
            if looks_like_secret(seg, None) {
                secret = true;
                REDACTED.to_string()
            } else {
                seg.to_string()
            }
        })
        .collect();
    out.push_str(&segments.join("/"));
    if let Some(q) = query {
        out.push('?');
        out.push_str(&redact_pairs(q, &mut secret));
    }
    if let Some(f) = frag {
        out.push('#');
        if f.contains('=') {
            out.push_str(&redact_pairs(f, &mut secret));
        } else {
            out.push_str(f);
        }
    }
    (out, secret)
}

/// `k=v&k2=v2` with every literal value redacted.
fn redact_pairs(q: &str, secret: &mut bool) -> String {
    q.split('&')
        .map(|pair| match pair.split_once('=') {
            Some((k, v)) if !placeholder_only(v) => {
                if secret_name(k) || looks_like_secret(v, Some(k)) {
                    *secret = true;
                }
                format!("{k}={REDACTED}")
            }
            Some(_) => pair.to_string(),
            None if looks_like_secret(pair, None) => {
                *secret = true;
                REDACTED.to_string()
            }
            None => pair.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// Redacts secret-looking arguments: a URL's credentials and query values,
/// `--flag=value` and `NAME=value` where the name sounds secret, the word
/// after a secret-sounding flag (`--token abc`), and any key-like word.
/// Returns the arguments and whether something was redacted because it
/// looks like a secret.
pub fn redact_args(args: &[String]) -> (Vec<String>, bool) {
    let mut out = Vec::with_capacity(args.len());
    let mut secret = false;
    let mut prev_secret_flag = false;
    for a in args {
        let mut redacted = a.clone();
        let mut flag_now = false;
        if a.contains("://") {
            let (r, s) = redact_url(a);
            redacted = r;
            secret |= s;
        } else if let Some((k, v)) = a
            .split_once('=')
            .filter(|(k, _)| !k.is_empty() && !k.contains(' '))
        {
            if !placeholder_only(v) && (secret_name(k) || looks_like_secret(v, None)) {
                redacted = format!("{k}={REDACTED}");
                secret = true;
            }
        } else if a.starts_with('-') {
            flag_now = secret_name(a);
        } else if (prev_secret_flag && !placeholder_only(a)) || looks_like_secret(a, None) {
            redacted = REDACTED.to_string();
            secret = true;
        }
        prev_secret_flag = flag_now;
        out.push(redacted);
    }
    (out, secret)
}

/// A command line with secret-looking words redacted as by
/// [`redact_args`]; unchanged when nothing was redacted.
pub fn redact_command(cmd: &str) -> (String, bool) {
    let words: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
    let (redacted, secret) = redact_args(&words);
    if redacted == words {
        (cmd.to_string(), false)
    } else {
        (redacted.join(" "), secret)
    }
}

/// True when `name` is a portable environment variable name
/// (`[A-Za-z_][A-Za-z0-9_]*`).
pub fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Redacts the default of every `${VAR:-default}` whose default looks like
/// a secret; the placeholders themselves are kept.
fn redact_defaults(expr: &str) -> String {
    let mut out = String::new();
    let mut rest = expr;
    while let Some(i) = rest.find("${") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        match after.find('}') {
            Some(j) => {
                let inner = &after[2..j];
                match inner.split_once(":-") {
                    Some((var, def)) if looks_like_secret(def, Some(var)) => {
                        out.push_str(&format!("${{{var}:-{REDACTED}}}"));
                    }
                    _ => out.push_str(&after[..=j]),
                }
                rest = &after[j + 1..];
            }
            None => {
                out.push_str(after);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Classifies the value of an environment variable or header named `name`.
///
/// A value with a `${…}` placeholder stays a `reference` (a default that
/// looks like a secret is replaced by `<redacted>`, and a secret literal
/// around the placeholder makes the whole value redacted); any other
/// literal is `configured` and redacted. The flag says whether a literal
/// secret was found (the caller reports it by name only).
pub fn classify_value(name: &str, value: &str) -> (ConfiguredValue, bool) {
    if has_placeholder(value) {
        if looks_like_secret(&without_placeholders(value), None) {
            return (ConfiguredValue::redacted_literal(value), true);
        }
        let expression = redact_defaults(value);
        let secret_default = expression != value;
        return (ConfiguredValue::Reference { expression }, secret_default);
    }
    (
        ConfiguredValue::redacted_literal(value),
        looks_like_secret(value, Some(name)),
    )
}

/// The environment variable a remedy suggests for a literal secret that
/// MCP server `server` sets under `key`: `key` itself when it is already
/// a conventional variable name that sounds secret (`GITHUB_TOKEN`: an
/// `env` entry), else the server's name in capitals, each run of other
/// characters one `_`, with `_TOKEN` (`Authorization` of server
/// `sentry-mcp`: `SENTRY_MCP_TOKEN`; a header name is no variable name).
/// Every harness's remedy names its variable by this rule.
pub fn suggested_variable(server: &str, key: &str) -> String {
    let conventional = is_variable_name(key) && !key.chars().any(|c| c.is_ascii_lowercase());
    if conventional && secret_name(key) {
        return key.to_string();
    }
    let mut stem = String::new();
    for c in server.chars() {
        match c.is_ascii_alphanumeric() {
            true => stem.push(c.to_ascii_uppercase()),
            false if !stem.is_empty() && !stem.ends_with('_') => stem.push('_'),
            false => {}
        }
    }
    let stem = stem.trim_end_matches('_');
    match stem.chars().next() {
        None => "MCP_TOKEN".to_string(),
        Some(c) if c.is_ascii_digit() => format!("MCP_{stem}_TOKEN"),
        Some(_) => format!("{stem}_TOKEN"),
    }
}

/// Where a literal secret found in the file at `path` lies, as a clause
/// for a diagnostic's message: "it is committed to the repository" for a
/// repository file, "it is written in a file of the user's or the
/// machine's, outside the repository" for a file local mode reads from
/// the home or the machine ([`crate::RepoPath::is_on_machine`]).
pub fn secret_location(path: &crate::RepoPath) -> &'static str {
    if path.is_on_machine() {
        "it is written in a file of the user's or the machine's, outside the repository"
    } else {
        "it is committed to the repository"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(secret_name("OPENAI_API_KEY"));
        assert!(secret_name("X-Api-Key"));
        assert!(secret_name("accessToken"));
        assert!(secret_name("--token"));
        assert!(secret_name("Authorization"));
        assert!(!secret_name("LOG_LEVEL"));
        assert!(!secret_name("GIT_AUTHOR_NAME"));
        assert!(!secret_name("KEYBOARD_LAYOUT"));
    }

    #[test]
    fn values() {
        assert!(looks_like_secret("sk-abcdefghijklmnop", None));
        assert!(looks_like_secret("ghp_0123456789abcdefghij", None));
        assert!(looks_like_secret("Bearer abcdefgh12345", None));
        assert!(looks_like_secret("hunter22", Some("DB_PASSWORD")));
        assert!(looks_like_secret("a8F3kL9qZ2xW7mN4pR6tY1uV", None));
        assert!(!looks_like_secret("debug", Some("LOG_LEVEL")));
        assert!(!looks_like_secret(
            "${OPENAI_API_KEY}",
            Some("OPENAI_API_KEY")
        ));
        assert!(!looks_like_secret(
            "@modelcontextprotocol/server-github",
            None
        ));
        assert!(!looks_like_secret("mcp-server-postgres-2024", None));
        assert!(!looks_like_secret("/usr/local/bin/server", None));
    }

    #[test]
    fn urls() {
        let (u, s) = redact_url("https://alice:pw123@example.com/mcp?token=abc&mode=${MODE}#x");
        assert_eq!(
            u,
            "https://<redacted>@example.com/mcp?token=<redacted>&mode=${MODE}#x"
        );
        assert!(s);
        let (u, s) = redact_url("https://${USER}:${PASS}@example.com/mcp");
        assert_eq!(u, "https://${USER}:${PASS}@example.com/mcp");
        assert!(!s);
        let (u, s) = redact_url("https://example.com/mcp?region=eu");
        assert_eq!(u, "https://example.com/mcp?region=<redacted>");
        assert!(!s);
    }

    #[test]
    fn args() {
        let a: Vec<String> = [
            "--token",
            "abc123xyz",
            "--api-key=sk-abcdefghijklmnop",
            "-y",
            "pkg",
            "API_KEY=zzz9",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let (r, s) = redact_args(&a);
        assert!(s);
        assert_eq!(
            r,
            [
                "--token",
                "<redacted>",
                "--api-key=<redacted>",
                "-y",
                "pkg",
                "API_KEY=<redacted>"
            ]
        );
        let (c, s) = redact_command("npx -y server");
        assert_eq!(c, "npx -y server");
        assert!(!s);
    }

    #[test]
    fn suggested_variables_are_conventional_names() {
        // (server, key, suggested): a conventional secret variable is
        // kept; a header name, a lowercase or a harmless-sounding key is
        // replaced by the server's name with `_TOKEN`.
        let table = [
            ("github", "GITHUB_TOKEN", "GITHUB_TOKEN"),
            ("sentry-mcp", "Authorization", "SENTRY_MCP_TOKEN"),
            ("sentry", "X-API-Key", "SENTRY_TOKEN"),
            ("My Server!", "api_key", "MY_SERVER_TOKEN"),
            ("db", "URL", "DB_TOKEN"),
            ("42web", "Authorization", "MCP_42WEB_TOKEN"),
            ("--", "Authorization", "MCP_TOKEN"),
        ];
        for (server, key, want) in table {
            let got = suggested_variable(server, key);
            assert_eq!(got, want, "{server} {key}");
            assert!(is_variable_name(&got), "{got}");
        }
    }

    #[test]
    fn variable_names() {
        assert!(is_variable_name("GITHUB_TOKEN"));
        assert!(!is_variable_name("ghp 123"));
        assert!(!is_variable_name("1X"));
    }

    #[test]
    fn placeholders_stay_literals_go() {
        assert_eq!(
            classify_value("API_KEY", "${API_KEY}").0,
            ConfiguredValue::Reference {
                expression: "${API_KEY}".into()
            }
        );
        assert_eq!(
            classify_value("X", "${X:-sk-live-abcdefghijklmnop}").0,
            ConfiguredValue::Reference {
                expression: "${X:-<redacted>}".into()
            }
        );
        let (v, secret) = classify_value("API_KEY", "hunter2-plain");
        assert_eq!(v, ConfiguredValue::redacted());
        assert!(secret);
        assert!(!classify_value("NODE_ENV", "production").1);
    }
}
