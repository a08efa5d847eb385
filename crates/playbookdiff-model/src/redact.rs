//! Keeping secrets out of the output: classification of configured values,
//! URLs and arguments. Pure functions; shared by every adapter.
//!
//! Rules: a `${VAR}` / `${VAR:-default}` placeholder is kept verbatim (a
//! default that looks like a secret is replaced by `<redacted>`); every other
//! literal value of an environment variable or header is redacted whole; URL
//! credentials and literal query values are redacted; an argument is
//! redacted when it follows a secret-named flag or looks like a token.

use crate::ConfiguredValue;

/// What replaces a secret in strings that must stay strings.
pub const REDACTED: &str = "<redacted>";

/// True when a variable, header or flag name suggests a secret.
pub fn is_secret_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "key",
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "auth",
        "credential",
        "cookie",
        "session",
        "private",
        "pat",
    ]
    .iter()
    .any(|w| {
        n.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|part| part == *w || part.ends_with(w))
    }) || n.contains("apikey")
        || n.contains("api_key")
        || n.contains("authorization")
}

/// True when a literal looks like a credential: a known token prefix, or a
/// long run of letters and digits mixing cases or digits.
pub fn looks_like_secret(value: &str) -> bool {
    let v = value.trim();
    let v = v
        .strip_prefix("Bearer ")
        .or_else(|| v.strip_prefix("bearer "))
        .unwrap_or(v);
    const PREFIXES: &[&str] = &[
        "sk-",
        "sk_",
        "pk_live",
        "rk_live",
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "github_pat_",
        "glpat-",
        "xox",
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
    ];
    if PREFIXES.iter().any(|p| v.starts_with(p)) && v.len() >= 12 {
        return true;
    }
    if v.len() < 20 || v.contains(char::is_whitespace) || v.contains('/') && v.contains('.') {
        return false;
    }
    let alnum = v.chars().filter(|c| c.is_ascii_alphanumeric()).count();
    let digits = v.chars().filter(|c| c.is_ascii_digit()).count();
    let upper = v.chars().filter(|c| c.is_ascii_uppercase()).count();
    let lower = v.chars().filter(|c| c.is_ascii_lowercase()).count();
    alnum * 10 >= v.len() * 8
        && digits > 0
        && (upper > 0 || lower > 0)
        && (upper > 0 && lower > 0 || digits * 4 >= alnum)
}

/// True when `value` holds a `${…}` placeholder.
pub fn has_placeholder(value: &str) -> bool {
    value.contains("${")
}

/// Redacts the default of every `${VAR:-default}` whose default looks like
/// a secret; placeholders themselves are kept.
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
                    Some((var, def)) if looks_like_secret(def) => {
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

/// Classifies the value of an environment variable or header.
///
/// Returns the model value and whether a literal secret was found (the
/// caller reports it by name only).
pub fn classify_value(name: &str, value: &str) -> (ConfiguredValue, bool) {
    if has_placeholder(value) {
        let expression = redact_defaults(value);
        let secret_default = expression != value;
        // A literal prefix such as "Bearer " is harmless; a literal secret
        // around a placeholder is not.
        let literal_part: String = strip_placeholders(value);
        let secret_literal = looks_like_secret(literal_part.trim());
        if secret_literal {
            return (ConfiguredValue::redacted(), true);
        }
        return (ConfiguredValue::Reference { expression }, secret_default);
    }
    let secret = !value.is_empty() && (is_secret_name(name) || looks_like_secret(value));
    (ConfiguredValue::redacted(), secret)
}

fn strip_placeholders(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(i) = rest.find("${") {
        out.push_str(&rest[..i]);
        match rest[i..].find('}') {
            Some(j) => rest = &rest[i + j + 1..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// Redacts credentials in a URL (`scheme://user:secret@host`) and every
/// literal query value; placeholders stay. Returns the redacted URL and
/// whether anything secret was found.
pub fn redact_url(url: &str) -> (String, bool) {
    let mut found = false;
    let mut out = url.to_string();
    if let Some(scheme_end) = out.find("://") {
        let auth_start = scheme_end + 3;
        let auth_end = out[auth_start..]
            .find(['/', '?', '#'])
            .map(|i| auth_start + i)
            .unwrap_or(out.len());
        if let Some(at) = out[auth_start..auth_end].rfind('@') {
            let userinfo = &out[auth_start..auth_start + at];
            if !has_placeholder(userinfo) || looks_like_secret(&strip_placeholders(userinfo)) {
                found = true;
                out = format!(
                    "{}{}{}",
                    &out[..auth_start],
                    REDACTED,
                    &out[auth_start + at..]
                );
            }
        }
    }
    if let Some(q) = out.find('?') {
        let (base, query) = out.split_at(q + 1);
        let (query, frag) = match query.find('#') {
            Some(h) => (&query[..h], &query[h..]),
            None => (query, ""),
        };
        let parts: Vec<String> = query
            .split('&')
            .map(|kv| match kv.split_once('=') {
                Some((k, v)) if !v.is_empty() && !has_placeholder(v) => {
                    if is_secret_name(k) || looks_like_secret(v) {
                        found = true;
                    }
                    format!("{k}={REDACTED}")
                }
                _ => kv.to_string(),
            })
            .collect();
        out = format!("{base}{}{frag}", parts.join("&"));
    }
    (out, found)
}

/// Redacts arguments that carry secrets: the value after a secret-named flag
/// (`--api-key VALUE`, `--token=VALUE`), a header argument such as
/// `Authorization: Bearer VALUE`, and anything that looks like a token.
/// Returns the arguments and whether anything was redacted.
pub fn redact_args(args: &[String]) -> (Vec<String>, bool) {
    let mut found = false;
    let mut out = Vec::with_capacity(args.len());
    let mut prev_secret_flag = false;
    for a in args {
        if has_placeholder(a) && !looks_like_secret(&strip_placeholders(a)) {
            out.push(a.clone());
            prev_secret_flag = false;
            continue;
        }
        if prev_secret_flag && !a.starts_with('-') {
            found = true;
            out.push(REDACTED.to_string());
            prev_secret_flag = false;
            continue;
        }
        prev_secret_flag = false;
        if a.starts_with('-') {
            if let Some((flag, value)) = a.split_once('=') {
                if is_secret_name(flag) && !value.is_empty() {
                    found = true;
                    out.push(format!("{flag}={REDACTED}"));
                    continue;
                }
            } else if is_secret_name(a) {
                prev_secret_flag = true;
            }
        }
        if let Some((hname, hval)) = a.split_once(':') {
            if is_secret_name(hname) && !hval.trim().is_empty() && !hname.contains("//") {
                found = true;
                out.push(format!("{hname}: {REDACTED}"));
                continue;
            }
        }
        if looks_like_secret(a) {
            found = true;
            out.push(REDACTED.to_string());
            continue;
        }
        out.push(a.clone());
    }
    (out, found)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let (_, secret) = classify_value("NODE_ENV", "production");
        assert!(!secret);
    }

    #[test]
    fn urls_lose_credentials_and_query_values() {
        let (u, f) = redact_url("https://bob:s3cr3t@example.com/mcp?key=abc&x=${Y}");
        assert_eq!(
            u,
            "https://<redacted>@example.com/mcp?key=<redacted>&x=${Y}"
        );
        assert!(f);
        assert_eq!(
            redact_url("https://example.com/mcp").0,
            "https://example.com/mcp"
        );
    }

    #[test]
    fn args_after_secret_flags_are_redacted() {
        let a: Vec<String> = [
            "--api-key",
            "abc123",
            "--token=xyz",
            "--port",
            "8080",
            "ghp_0123456789abcdefghij",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let (r, f) = redact_args(&a);
        assert!(f);
        assert_eq!(
            r,
            [
                "--api-key",
                "<redacted>",
                "--token=<redacted>",
                "--port",
                "8080",
                "<redacted>"
            ]
        );
        let (r, _) = redact_args(&["-y".into(), "@modelcontextprotocol/server-github".into()]);
        assert_eq!(r[1], "@modelcontextprotocol/server-github");
    }
}
