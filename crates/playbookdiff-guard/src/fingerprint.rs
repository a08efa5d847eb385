//! A protected file's fingerprint, as the guard compares it around a
//! shell call: taken before the call (`PreToolUse`), compared after it
//! (`PostToolUse`); a difference is a change of a protected file that the
//! shell parser did not see.
//!
//! A fingerprint is the file's metadata, links not followed: size,
//! modification time, status-change time (`ctime`) and inode. The
//! modification time alone can be set back (`touch -r`, `utimensat`); the
//! status-change time cannot, short of changing the clock, and moves on
//! every write, rename onto the path, `chmod` and new hard link. Both are
//! as fine as the file system's clock, which on Linux advances by a timer
//! tick (1 to 10 ms), not by the nanosecond its field can hold: a file
//! written twice within one tick, with the same size, keeps the same
//! metadata. So a file whose metadata changed within
//! [`RACY_NANOS`] of the moment its fingerprint is taken (git's "racily
//! clean" entries, `Documentation/technical/racy-git.txt`) also carries a
//! hash of its content, compared each time.
//!
//! This module does no I/O: the caller hands in the metadata and, when
//! asked, the content.

use sha2::{Digest, Sha256};
use std::fmt;

/// How close to the moment a fingerprint is taken a change of the file
/// makes its metadata untrustworthy: 2 seconds, in nanoseconds. Covers
/// the timer tick of Linux file systems, the one-second stamps of some
/// (ext3, HFS+) and the two-second ones of FAT.
pub const RACY_NANOS: i128 = 2_000_000_000;

/// A time stamp of the file system: seconds and nanoseconds since the
/// Unix epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stamp {
    /// Whole seconds (negative before 1970).
    pub secs: i64,
    /// Nanoseconds within the second, 0 to 999,999,999.
    pub nanos: u32,
}

impl Stamp {
    fn as_nanos(self) -> i128 {
        i128::from(self.secs) * 1_000_000_000 + i128::from(self.nanos)
    }
}

/// The metadata of a file that a fingerprint holds (`lstat`'s fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meta {
    /// Size in bytes.
    pub len: u64,
    /// Last modification of the content.
    pub mtime: Stamp,
    /// Last change of the content or the metadata.
    pub ctime: Stamp,
    /// Inode number.
    pub ino: u64,
}

impl Meta {
    /// Whether a rewrite could leave this metadata as it is when the
    /// fingerprint is taken at `now`: the file changed less than
    /// [`RACY_NANOS`] before `now` (or its stamps lie after `now`).
    pub fn is_racy(&self, now: Stamp) -> bool {
        let newest = self.mtime.max(self.ctime).as_nanos();
        newest > now.as_nanos() - RACY_NANOS
    }
}

/// The longest text of a [`Meta`] in bytes: a size and an inode of 20
/// digits each, two stamps of a sign, 19 digits, a point and 9 digits,
/// three colons.
const META_TEXT_MAX: usize = 20 + 2 * (1 + 19 + 1 + 9) + 20 + 3;

/// A [`Meta`] as a fingerprint writes it (`SIZE:MTIME:CTIME:INODE`), on
/// the stack.
struct MetaText {
    buf: [u8; META_TEXT_MAX],
    len: usize,
}

impl MetaText {
    fn push(&mut self, bytes: &[u8]) {
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    fn number(&mut self, n: impl itoa::Integer) {
        self.push(itoa::Buffer::new().format(n).as_bytes());
    }

    fn stamp(&mut self, s: Stamp) {
        self.number(s.secs);
        self.push(b".");
        self.number(s.nanos);
    }

    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Meta {
    /// The metadata as [`Print`]'s [`fmt::Display`] writes it (the one
    /// place of that text), without the formatter (digits by `itoa`).
    fn text(&self) -> MetaText {
        let mut t = MetaText {
            buf: [0; META_TEXT_MAX],
            len: 0,
        };
        t.number(self.len);
        t.push(b":");
        t.stamp(self.mtime);
        t.push(b":");
        t.stamp(self.ctime);
        t.push(b":");
        t.number(self.ino);
        t
    }
}

/// What a fingerprint knows of a file's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// Nothing: the metadata was old enough to be trusted.
    Unhashed,
    /// The first 16 bytes of the SHA-256 of the content.
    Hash([u8; 16]),
    /// The file was racy and could not be read: the fingerprint never
    /// matches (fail closed).
    Unreadable,
}

/// A file's fingerprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Print {
    /// No file at the path.
    Missing,
    /// The path could not be examined (a permission, an I/O error): the
    /// fingerprint never matches (fail closed).
    Unknown,
    /// A file (or link, or directory) with this metadata and content.
    Present(Meta, Content),
}

impl Print {
    /// The fingerprint of a file with metadata `meta` (`Ok(None)`:
    /// missing, `Err(())`: not examined) taken at `now`; `read` gives the
    /// content, asked for only when the metadata is racy
    /// ([`Meta::is_racy`]).
    pub fn taken(
        meta: Result<Option<Meta>, ()>,
        now: Stamp,
        read: impl FnOnce() -> Option<Vec<u8>>,
    ) -> Print {
        let meta = match meta {
            Ok(Some(m)) => m,
            Ok(None) => return Print::Missing,
            Err(()) => return Print::Unknown,
        };
        let content = if meta.is_racy(now) {
            read().map_or(Content::Unreadable, |b| Content::Hash(hash(&b)))
        } else {
            Content::Unhashed
        };
        Print::Present(meta, content)
    }

    /// Whether a file with metadata `meta` now (`Ok(None)`: missing,
    /// `Err(())`: not examined, which never matches) is the file this
    /// fingerprint was taken of; `read` gives its content, asked for only
    /// when the fingerprint holds a hash.
    pub fn matches(
        &self,
        meta: Result<Option<Meta>, ()>,
        read: impl FnOnce() -> Option<Vec<u8>>,
    ) -> bool {
        match (self, meta) {
            (Print::Missing, Ok(None)) => true,
            (Print::Present(before, content), Ok(Some(now))) if *before == now => match content {
                Content::Unhashed => true,
                Content::Hash(h) => read().is_some_and(|b| hash(&b) == *h),
                Content::Unreadable => false,
            },
            _ => false,
        }
    }

    /// Whether a file with metadata `meta` now (as for
    /// [`Print::matches`]) is the file of the fingerprint written as
    /// `text` (as [`fmt::Display`] writes it), compared as bytes: the
    /// metadata is written as the fingerprint writes it and must be the
    /// start of `text`, so no number is parsed. The answer is
    /// [`Print::parse`] then [`Print::matches`]'s for every text
    /// [`fmt::Display`] writes; any other text (leading zeros, a
    /// malformed line) matches nothing, so the caller counts a change
    /// (fail closed). `read` is asked for only when `text` holds a hash.
    pub fn matches_text(
        text: &[u8],
        meta: Result<Option<Meta>, ()>,
        read: impl FnOnce() -> Option<Vec<u8>>,
    ) -> bool {
        let now = match (text, meta) {
            (b"-", Ok(None)) => return true,
            (_, Ok(Some(now))) => now,
            _ => return false,
        };
        let Some(rest) = text.strip_prefix(now.text().as_bytes()) else {
            return false;
        };
        match rest {
            [] => true,
            [b':', hex @ ..] => unhex(hex).is_some_and(|h| read().is_some_and(|b| hash(&b) == h)),
            _ => false,
        }
    }

    /// The fingerprint written as `text` (as [`fmt::Display`] writes
    /// it), when it is one. A shell call compares the text instead
    /// ([`Print::matches_text`]).
    pub fn parse(text: &str) -> Option<Print> {
        match text {
            "-" => return Some(Print::Missing),
            "?" => return Some(Print::Unknown),
            _ => {}
        }
        let mut c = Cursor {
            rest: text.as_bytes(),
        };
        let len = c.number()?;
        c.byte(b':')?;
        let mtime = c.stamp()?;
        c.byte(b':')?;
        let ctime = c.stamp()?;
        c.byte(b':')?;
        let ino = c.number()?;
        let content = match c.rest {
            [] => Content::Unhashed,
            b":?" => Content::Unreadable,
            [b':', hex @ ..] => Content::Hash(unhex(hex)?),
            _ => return None,
        };
        let meta = Meta {
            len,
            mtime,
            ctime,
            ino,
        };
        Some(Print::Present(meta, content))
    }
}

/// The unread rest of a fingerprint's text.
struct Cursor<'a> {
    rest: &'a [u8],
}

impl Cursor<'_> {
    fn byte(&mut self, b: u8) -> Option<()> {
        let (first, rest) = self.rest.split_first()?;
        (*first == b).then(|| self.rest = rest)
    }

    /// Decimal digits (at least one) as a number that fits in 64 bits,
    /// in one pass.
    fn number(&mut self) -> Option<u64> {
        let mut n: u64 = 0;
        let mut digits = 0;
        while let Some(&b) = self.rest.get(digits) {
            if !b.is_ascii_digit() {
                break;
            }
            n = n.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
            digits += 1;
        }
        self.rest = &self.rest[digits..];
        (digits > 0).then_some(n)
    }

    /// `SECONDS.NANOSECONDS`, the seconds possibly negative.
    fn stamp(&mut self) -> Option<Stamp> {
        let negative = self.byte(b'-').is_some();
        let secs = i64::try_from(self.number()?).ok()?;
        self.byte(b'.')?;
        let nanos = u32::try_from(self.number()?).ok()?;
        (nanos < 1_000_000_000).then_some(Stamp {
            secs: if negative { -secs } else { secs },
            nanos,
        })
    }
}

/// `-` when missing, `?` when not examined, else `SIZE:MTIME:CTIME:INODE` with each time as
/// `SECONDS.NANOSECONDS`, and `:HASH` (32 hex digits) or `:?` (racy and
/// unreadable) when the content was asked for.
impl fmt::Display for Print {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (m, content) = match self {
            Print::Missing => return f.write_str("-"),
            Print::Unknown => return f.write_str("?"),
            Print::Present(m, content) => (m, content),
        };
        f.write_str(std::str::from_utf8(m.text().as_bytes()).map_err(|_| fmt::Error)?)?;
        match content {
            Content::Unhashed => Ok(()),
            Content::Unreadable => f.write_str(":?"),
            Content::Hash(h) => {
                f.write_str(":")?;
                h.iter().try_for_each(|b| write!(f, "{b:02x}"))
            }
        }
    }
}

fn hash(bytes: &[u8]) -> [u8; 16] {
    let digest = Sha256::digest(bytes);
    let mut out = [0; 16];
    out.copy_from_slice(&digest[..16]);
    out
}

fn unhex(hex: &[u8]) -> Option<[u8; 16]> {
    if hex.len() != 32 {
        return None;
    }
    let digit = |b: u8| {
        char::from(b)
            .to_digit(16)
            .and_then(|d| u8::try_from(d).ok())
    };
    let mut out = [0; 16];
    for (i, pair) in hex.chunks(2).enumerate() {
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Stamp = Stamp {
        secs: 1_800_000_000,
        nanos: 500,
    };

    fn meta(secs_before_now: i64, len: u64) -> Meta {
        let t = Stamp {
            secs: NOW.secs - secs_before_now,
            nanos: 500,
        };
        Meta {
            len,
            mtime: t,
            ctime: t,
            ino: 7,
        }
    }

    fn content(text: &str) -> impl FnOnce() -> Option<Vec<u8>> + '_ {
        move || Some(text.as_bytes().to_vec())
    }

    #[test]
    fn an_old_file_is_its_metadata_and_its_content_is_not_read() {
        let p = Print::taken(Ok(Some(meta(60, 4))), NOW, || panic!("read"));
        assert_eq!(p, Print::Present(meta(60, 4), Content::Unhashed));
        assert!(p.matches(Ok(Some(meta(60, 4))), || panic!("read")));
        assert!(!p.matches(Ok(Some(meta(59, 4))), || panic!("read")));
        assert!(!p.matches(Ok(None), || panic!("read")));
    }

    /// A same-size rewrite within the clock's tick keeps every field of
    /// the metadata: a file changed just before its fingerprint is taken
    /// is compared by content too.
    #[test]
    fn a_same_size_rewrite_within_a_tick_of_a_racy_file_is_a_change() {
        let racy = meta(1, 4);
        let p = Print::taken(Ok(Some(racy)), NOW, content("abcd"));
        assert!(matches!(p, Print::Present(_, Content::Hash(_))));
        assert!(p.matches(Ok(Some(racy)), content("abcd")));
        assert!(!p.matches(Ok(Some(racy)), content("abce")));
        assert!(!p.matches(Ok(Some(racy)), || None));
        let unreadable = Print::taken(Ok(Some(racy)), NOW, || None);
        assert!(!unreadable.matches(Ok(Some(racy)), content("abcd")));
    }

    /// `touch -r` sets the modification time back; the status-change
    /// time moves on.
    #[test]
    fn a_modification_time_set_back_is_a_change() {
        let before = meta(60, 4);
        let p = Print::taken(Ok(Some(before)), NOW, || None);
        let after = Meta {
            ctime: NOW,
            ..before
        };
        assert!(!p.matches(Ok(Some(after)), content("abcd")));
    }

    /// A path that cannot be examined matches nothing, before or after.
    #[test]
    fn what_cannot_be_examined_is_a_change() {
        assert!(Print::Missing.matches(Ok(None), || None));
        assert!(!Print::Missing.matches(Err(()), || None));
        assert!(!Print::Unknown.matches(Ok(None), || None));
        let p = Print::taken(Err(()), NOW, || None);
        assert_eq!(p, Print::Unknown);
        assert!(!p.matches(Err(()), || None));
        let old = Print::taken(Ok(Some(meta(60, 4))), NOW, || None);
        assert!(!old.matches(Err(()), || None));
    }

    #[test]
    fn a_stamp_in_the_future_is_racy() {
        assert!(meta(-5, 1).is_racy(NOW));
        assert!(meta(1, 1).is_racy(NOW));
        assert!(!meta(2, 1).is_racy(NOW));
    }

    /// Comparing the text as bytes answers as parsing it and comparing
    /// the fingerprint, for every written fingerprint and every state of
    /// the file (same metadata, any one field changed, missing, not
    /// examined; content the same or rewritten); a text that does not
    /// parse, or is not as written, matches nothing.
    #[test]
    fn the_text_compared_as_bytes_answers_as_the_parsed_fingerprint() {
        let old = meta(60, 4);
        let racy = meta(1, 4);
        let edge = Meta {
            len: u64::MAX,
            mtime: Stamp {
                secs: i64::MIN + 1,
                nanos: 999_999_999,
            },
            ctime: Stamp { secs: -5, nanos: 0 },
            ino: u64::MAX,
        };
        let prints = [
            Print::Missing,
            Print::Unknown,
            Print::Present(old, Content::Unhashed),
            Print::Present(racy, Content::Hash(hash(b"abcd"))),
            Print::Present(racy, Content::Unreadable),
            Print::Present(edge, Content::Unhashed),
        ];
        let mut states: Vec<Result<Option<Meta>, ()>> = vec![Ok(None), Err(())];
        for m in [old, racy, edge] {
            let t = |secs| Stamp { secs, nanos: 500 };
            states.extend([m, Meta { len: 5, ..m }, Meta { ino: 8, ..m }].map(|m| Ok(Some(m))));
            states.extend(
                [Meta { mtime: t(3), ..m }, Meta { ctime: t(3), ..m }].map(|m| Ok(Some(m))),
            );
        }
        for p in prints {
            let text = p.to_string();
            for &state in &states {
                for body in ["abcd", "abce"] {
                    assert_eq!(
                        Print::matches_text(text.as_bytes(), state, content(body)),
                        p.matches(state, content(body)),
                        "{text} against {state:?} with {body}"
                    );
                }
            }
        }
        let same = Ok(Some(old));
        assert!(Print::matches_text(
            b"4:1799999940.500:1799999940.500:7",
            same,
            || None
        ));
        for bad in [
            "",
            "?",
            "04:1799999940.500:1799999940.500:7",
            "4:1799999940.500:1799999940.500:7:",
            "4:1799999940.500:1799999940.500:70",
            "4:1799999940.500:1799999940.500:7:?",
            "4:1799999940.500:1799999940.500",
        ] {
            assert!(!Print::matches_text(bad.as_bytes(), same, || None), "{bad}");
        }
    }

    #[test]
    fn prints_read_back_as_written_and_nothing_else_parses() {
        let prints = [
            Print::Missing,
            Print::Unknown,
            Print::Present(meta(60, 4), Content::Unhashed),
            Print::Present(meta(1, 0), Content::Hash([0xab; 16])),
            Print::Present(meta(1, 9), Content::Unreadable),
            Print::Present(
                Meta {
                    mtime: Stamp { secs: -5, nanos: 7 },
                    ..meta(60, u64::MAX)
                },
                Content::Unhashed,
            ),
        ];
        for p in prints {
            assert_eq!(Print::parse(&p.to_string()), Some(p), "{p}");
        }
        for bad in [
            "",
            "--",
            "4:1.2:3.4",
            "4:1.2:3.4:5:6:7",
            "4:1.2:3.4:x",
            "4:1.2000000000:3.4:5",
            "4:1.2:3.4:5:abc",
            "4:1.2:3.4:5:",
            "99999999999999999999:1.2:3.4:5",
            "4:1.2:3.4:5:ABCDEFABCDEFABCDEFABCDEFABCDEFXY",
            // The fingerprint before the status-change time was kept.
            "68:1796442395.380337793:10207350",
        ] {
            assert_eq!(Print::parse(bad), None, "{bad}");
        }
    }
}
