//! The allowed signers file: who may sign a ruling.
//!
//! The format is OpenSSH's (`ssh-keygen(1)`, section "ALLOWED SIGNERS",
//! OpenSSH 9.x), the file git reads through `gpg.ssh.allowedSignersFile`:
//! one key a line, `principals [options] keytype base64-key [comment]`;
//! empty lines and lines starting with `#` are ignored. Principals are a
//! comma-separated list of patterns (`*`, `?`, a leading `!` negates);
//! the options understood are `namespaces="git,..."`, `valid-after` and
//! `valid-before` (`YYYYMMDD[HHMM[SS]]`, optionally ending in `Z`; read as
//! UTC either way) and `cert-authority`.
//!
//! Fails closed: a line that cannot be read is a problem and allows no
//! one; a `cert-authority` line is a problem too (certificates are not
//! verified here), as is an option not listed above.

use ssh_key::PublicKey;

/// One line of the file: who, under which conditions, with which key.
#[derive(Debug, Clone)]
pub struct AllowedSigner {
    /// 1-based line in the file.
    pub line: u32,
    /// The principal patterns, as written (`alice@example.com`, `*@example.com`).
    pub principals: Vec<String>,
    /// `namespaces="..."`: the namespace patterns the key may sign in;
    /// `None` allows every namespace.
    pub namespaces: Option<Vec<String>>,
    /// `valid-after`, seconds since the Unix epoch (UTC).
    pub valid_after: Option<i64>,
    /// `valid-before`, seconds since the Unix epoch (UTC).
    pub valid_before: Option<i64>,
    /// The public key.
    pub key: PublicKey,
}

/// A line that cannot be used, with its 1-based line and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignerProblem {
    /// 1-based line in the file.
    pub line: u32,
    /// What is wrong, in one sentence.
    pub message: String,
}

/// The whole file: the usable lines and the problems of the others.
#[derive(Debug, Clone, Default)]
pub struct AllowedSigners {
    /// The usable lines, in file order.
    pub signers: Vec<AllowedSigner>,
    /// The lines that allow no one, and why.
    pub problems: Vec<SignerProblem>,
}

/// Reads an allowed signers file. Never fails: a line that cannot be read
/// is a [`SignerProblem`] and allows no one.
pub fn parse(text: &str) -> AllowedSigners {
    let mut out = AllowedSigners::default();
    for (index, raw) in text.lines().enumerate() {
        let line = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        match parse_line(trimmed, line) {
            Ok(s) => out.signers.push(s),
            Err(message) => out.problems.push(SignerProblem { line, message }),
        }
    }
    out
}

fn parse_line(text: &str, line: u32) -> Result<AllowedSigner, String> {
    let fields = fields(text);
    let [principals, rest @ ..] = fields.as_slice() else {
        return Err("the line has no principals".into());
    };
    let (options, key_fields) = match rest {
        [first, ..] if is_key_type(first) => ("", rest),
        [first, tail @ ..] => (first.as_str(), tail),
        [] => return Err("the line has no key".into()),
    };
    let [kind, base64, ..] = key_fields else {
        return Err("the line has no key after its principals and options".into());
    };
    let key = PublicKey::from_openssh(&format!("{kind} {base64}"))
        .map_err(|e| format!("the key cannot be read ({e})"))?;
    let mut signer = AllowedSigner {
        line,
        principals: principals.split(',').map(str::to_string).collect(),
        namespaces: None,
        valid_after: None,
        valid_before: None,
        key,
    };
    for option in split_unquoted(options, ',') {
        read_option(&mut signer, &option)?;
    }
    Ok(signer)
}

fn read_option(signer: &mut AllowedSigner, option: &str) -> Result<(), String> {
    let (name, value) = option.split_once('=').unwrap_or((option, ""));
    let value = value.trim_matches('"');
    match name.to_ascii_lowercase().as_str() {
        "" => Ok(()),
        "namespaces" => {
            signer.namespaces = Some(value.split(',').map(str::to_string).collect());
            Ok(())
        }
        "valid-after" => {
            signer.valid_after = Some(timestamp(value)?);
            Ok(())
        }
        "valid-before" => {
            signer.valid_before = Some(timestamp(value)?);
            Ok(())
        }
        "cert-authority" => Err(
            "`cert-authority` lines are not used: certificates are not verified; list each key"
                .into(),
        ),
        other => Err(format!("the option `{other}` is not known")),
    }
}

/// Whitespace-separated fields; a double-quoted part keeps its spaces.
fn fields(text: &str) -> Vec<String> {
    split_unquoted(text, ' ')
        .into_iter()
        .flat_map(|f| {
            if f.contains('"') {
                vec![f]
            } else {
                f.split_whitespace().map(str::to_string).collect()
            }
        })
        .filter(|f| !f.is_empty())
        .collect()
}

/// `text` split at `sep` outside double quotes.
fn split_unquoted(text: &str, sep: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut quoted = false;
    for c in text.chars() {
        if c == '"' {
            quoted = !quoted;
        }
        if c == sep && !quoted {
            parts.push(String::new());
        } else if let Some(p) = parts.last_mut() {
            p.push(c);
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

fn is_key_type(field: &str) -> bool {
    ["ssh-", "ecdsa-", "sk-"]
        .iter()
        .any(|prefix| field.starts_with(prefix))
}

/// Seconds since the Unix epoch of `YYYYMMDD[HHMM[SS]][Z]`, read as UTC.
fn timestamp(value: &str) -> Result<i64, String> {
    let digits = value.strip_suffix(['Z', 'z']).unwrap_or(value);
    let bad = || format!("`{value}` is not a time of the form YYYYMMDD[HHMM[SS]]");
    if !digits.bytes().all(|b| b.is_ascii_digit()) || ![8, 12, 14].contains(&digits.len()) {
        return Err(bad());
    }
    let n = |range: std::ops::Range<usize>| -> i64 {
        digits.get(range).and_then(|s| s.parse().ok()).unwrap_or(0)
    };
    let (year, month, day) = (n(0..4), n(4..6), n(6..8));
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return Err(bad());
    }
    let seconds = n(8..10) * 3600 + n(10..12) * 60 + n(12..14);
    Ok(days_from_civil(year, month, day) * 86_400 + seconds)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard
/// Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Whether `name` matches the OpenSSH pattern list `patterns` (each
/// pattern with `*` and `?`; a match of a `!` pattern refuses).
pub fn matches_list(patterns: &[String], name: &str) -> bool {
    let mut matched = false;
    for p in patterns {
        match p.strip_prefix('!') {
            Some(negated) if wildcard(negated.as_bytes(), name.as_bytes()) => return false,
            Some(_) => {}
            None => matched |= wildcard(p.as_bytes(), name.as_bytes()),
        }
    }
    matched
}

fn wildcard(pattern: &[u8], text: &[u8]) -> bool {
    match (pattern.split_first(), text.split_first()) {
        (None, None) => true,
        (Some((b'*', rest)), _) => {
            wildcard(rest, text) || (!text.is_empty() && wildcard(pattern, &text[1..]))
        }
        (Some((b'?', rest)), Some((_, tail))) => wildcard(rest, tail),
        (Some((p, rest)), Some((t, tail))) => p.eq_ignore_ascii_case(t) && wildcard(rest, tail),
        _ => false,
    }
}

impl AllowedSigner {
    /// Whether the line lets its key sign in `namespace` at `time`
    /// (seconds since the Unix epoch).
    pub fn allows(&self, namespace: &str, time: i64) -> Result<(), String> {
        if let Some(ns) = &self.namespaces {
            if !matches_list(ns, namespace) {
                return Err(format!(
                    "line {} allows the key only in the namespaces `{}`, not `{namespace}`",
                    self.line,
                    ns.join(",")
                ));
            }
        }
        if self.valid_after.is_some_and(|t| time < t) || self.valid_before.is_some_and(|t| time > t)
        {
            return Err(format!(
                "line {} does not allow the key at the commit's time",
                self.line
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGwQHeTfX/Nsrsnc0MB+6b4NZYMaNZFut/HEK9yeZ0xh";

    #[test]
    fn lines_options_and_problems() {
        let text = format!(
            "# who may rule\n\nalice@example.com {KEY} alice\n\
             *@example.com,!bob@example.com namespaces=\"git,file\",valid-after=\"20260101\" {KEY}\n\
             carol@example.com cert-authority {KEY}\n\
             dave@example.com ssh-ed25519 notbase64\n\
             erin@example.com valid-before=\"yesterday\" {KEY}\n\
             frank@example.com\n"
        );
        let s = parse(&text);
        assert_eq!(s.signers.len(), 2, "{:?}", s.problems);
        assert_eq!(s.signers[0].line, 3);
        assert_eq!(s.signers[0].principals, ["alice@example.com"]);
        assert!(s.signers[0].namespaces.is_none());
        let second = &s.signers[1];
        assert_eq!(second.line, 4);
        assert_eq!(
            second.namespaces.as_deref(),
            Some(&["git".to_string(), "file".to_string()][..])
        );
        assert_eq!(second.valid_after, Some(1_767_225_600));
        let lines: Vec<u32> = s.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [5, 6, 7, 8]);
        assert!(s.problems[0].message.contains("cert-authority"));
        assert!(s.problems[2].message.contains("YYYYMMDD"));
    }

    #[test]
    fn principal_patterns() {
        let list = |s: &str| s.split(',').map(str::to_string).collect::<Vec<_>>();
        assert!(matches_list(
            &list("*@example.com,!bob@example.com"),
            "alice@example.com"
        ));
        assert!(!matches_list(
            &list("*@example.com,!bob@example.com"),
            "bob@example.com"
        ));
        assert!(!matches_list(&list("*@example.com"), "alice@example.org"));
        assert!(matches_list(&list("al?ce@x"), "alice@x"));
        assert!(!matches_list(&list("alice@x"), "alice@xy"));
    }

    #[test]
    fn namespaces_and_validity() {
        let s = parse(&format!(
            "a@x namespaces=\"file\" {KEY}\nb@x valid-before=\"20000101Z\" {KEY}\nc@x {KEY}\n"
        ));
        assert!(s.signers[0]
            .allows("git", 0)
            .unwrap_err()
            .contains("namespaces"));
        assert!(s.signers[1].allows("git", 1_800_000_000).is_err());
        assert!(s.signers[2].allows("git", 1_800_000_000).is_ok());
    }
}
