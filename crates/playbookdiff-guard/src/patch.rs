//! Codex's `apply_patch` format: which files a patch adds, updates,
//! deletes or moves. Source: Codex's `apply-patch` crate (the patch
//! grammar of `*** Begin Patch` / `*** End Patch` with the headers
//! `*** Add File: PATH`, `*** Update File: PATH`, `*** Delete File: PATH`
//! and `*** Move to: PATH` after an update).

/// One file a patch touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `*** Add File: PATH`.
    Add(String),
    /// `*** Update File: PATH`.
    Update(String),
    /// `*** Delete File: PATH`.
    Delete(String),
    /// `*** Move to: PATH` (the new name of the file updated before it).
    MoveTo(String),
}

impl Op {
    /// The path the operation names, as written.
    pub fn path(&self) -> &str {
        match self {
            Op::Add(p) | Op::Update(p) | Op::Delete(p) | Op::MoveTo(p) => p,
        }
    }
}

/// A header's operation, made from its path.
type MakeOp = fn(String) -> Op;

/// The files `text` touches, in order.
///
/// # Errors
/// A sentence when the patch names no file, or a header names an empty
/// path: the guard cannot tell what such a patch changes.
pub fn parse(text: &str) -> Result<Vec<Op>, String> {
    let mut ops = Vec::new();
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        let headers: [(&str, MakeOp); 4] = [
            ("*** Add File:", Op::Add),
            ("*** Update File:", Op::Update),
            ("*** Delete File:", Op::Delete),
            ("*** Move to:", Op::MoveTo),
        ];
        for (prefix, make) in headers {
            if let Some(rest) = line.trim_start().strip_prefix(prefix) {
                let path = rest.trim();
                if path.is_empty() {
                    return Err(format!("the patch has a `{prefix}` line without a path"));
                }
                ops.push(make(path.to_string()));
            }
        }
    }
    if ops.is_empty() {
        return Err("the patch names no file (no `*** Add File:`, `*** Update File:`, `*** Delete File:` or `*** Move to:` line)".to_string());
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_header_kind_is_read() {
        let text = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: CLAUDE.md\n@@\n-a\n+b\n*** Move to: docs/CLAUDE.md\n*** Delete File: .mcp.json\n*** End Patch\n";
        assert_eq!(
            parse(text).unwrap(),
            vec![
                Op::Add("a.txt".into()),
                Op::Update("CLAUDE.md".into()),
                Op::MoveTo("docs/CLAUDE.md".into()),
                Op::Delete(".mcp.json".into()),
            ]
        );
        assert!(parse("*** Begin Patch\n*** End Patch").is_err());
        assert!(parse("*** Add File:   \n").is_err());
    }
}
