//! Whether a commit is signed by an allowed signer, from the commit
//! object's bytes alone.
//!
//! git stores an SSH signature in the commit's `gpgsig` header (its
//! continuation lines start with a space) as an armored `SSHSIG` (OpenSSH
//! `PROTOCOL.sshsig`) over the commit object without that header, made
//! in the namespace `git` (git's `gpg-interface.c`, `sign_buffer_ssh`).
//! The signature is verified with RustCrypto's `ssh-key` crate
//! ([`ssh_key::PublicKey::verify`]), never by running `ssh-keygen`.
//!
//! A signer counts when its key is on a line of the allowed signers file
//! ([`crate::signers`]) that allows the namespace `git` at the commit's
//! committer time and whose principals match the committer's email (as
//! the forges require for a "verified" commit; `git verify-commit` itself
//! does not compare them).

use crate::signers::{matches_list, AllowedSigners};
use ssh_key::{HashAlg, SshSig};

/// The namespace git signs commits in.
pub const GIT_NAMESPACE: &str = "git";

/// A person as a commit header names them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Identity {
    /// The name.
    pub name: String,
    /// The email, without angle brackets.
    pub email: String,
    /// Seconds since the Unix epoch.
    pub time: i64,
}

/// The parts of a commit object the verification needs.
#[derive(Debug, Clone, Default)]
pub struct CommitObject {
    /// The bytes that were signed: the object without its `gpgsig` header.
    pub payload: Vec<u8>,
    /// The `gpgsig` header's value (continuation lines joined), if any.
    pub signature: Option<String>,
    /// The `author` header.
    pub author: Identity,
    /// The `committer` header.
    pub committer: Identity,
    /// How many `parent` headers.
    pub parents: usize,
}

impl CommitObject {
    /// Reads a raw commit object (the bytes git hashes, without the
    /// `commit <size>\0` prefix). Headers it does not know are kept in
    /// the payload.
    pub fn parse(raw: &[u8]) -> CommitObject {
        let header_end = raw
            .windows(2)
            .position(|w| w == b"\n\n")
            .map_or(raw.len(), |i| i + 1);
        let mut out = CommitObject::default();
        let mut payload = Vec::with_capacity(raw.len());
        let mut in_signature = false;
        for line in raw[..header_end].split_inclusive(|b| *b == b'\n') {
            let text = String::from_utf8_lossy(line);
            if let (true, Some(more)) = (in_signature, text.strip_prefix(' ')) {
                if let Some(s) = out.signature.as_mut() {
                    s.push_str(more);
                }
                continue;
            }
            in_signature = false;
            let (name, value) = text.split_once(' ').unwrap_or((&text, ""));
            match name {
                "gpgsig" | "gpgsig-sha256" => {
                    in_signature = true;
                    out.signature = Some(value.to_string());
                    continue;
                }
                "author" => out.author = identity(value),
                "committer" => out.committer = identity(value),
                "parent" => out.parents += 1,
                _ => {}
            }
            payload.extend_from_slice(line);
        }
        payload.extend_from_slice(&raw[header_end..]);
        out.payload = payload;
        out
    }

    /// Whether the commit was written by someone other than its author,
    /// or later than it was authored: what a squash or rebase merge, a
    /// cherry-pick or an amend leaves (the committer is the forge or the
    /// person who merged).
    pub fn rewritten(&self) -> bool {
        self.author != self.committer
    }
}

/// `Name <email> 1700000000 +0100` to an [`Identity`].
fn identity(value: &str) -> Identity {
    let value = value.trim_end();
    let (who, when) = value.rsplit_once('>').unwrap_or((value, ""));
    let (name, email) = who.split_once('<').unwrap_or((who, ""));
    Identity {
        name: name.trim().to_string(),
        email: email.trim().to_string(),
        time: when
            .split_whitespace()
            .next()
            .and_then(|t| t.parse().ok())
            .unwrap_or(0),
    }
}

/// Who signed, when the signature counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signer {
    /// The principals of the allowed signers line that matched.
    pub principals: String,
    /// The 1-based line of that entry in the allowed signers file.
    pub line: u32,
    /// The key's SHA-256 fingerprint (`SHA256:...`).
    pub fingerprint: String,
}

/// Why a commit's signature does not count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unverified {
    /// No signature. `rewritten`: the commit is a copy another person or
    /// a forge committed (a squash or rebase merge drops signatures).
    Unsigned {
        /// See [`CommitObject::rewritten`].
        rewritten: bool,
    },
    /// An OpenPGP signature (a forge signs its squash and rebase merges
    /// so): only SSH signatures of listed keys count.
    OpenPgp {
        /// See [`CommitObject::rewritten`].
        rewritten: bool,
    },
    /// The signature block cannot be read.
    Malformed(String),
    /// The signature was made in another namespace than `git`.
    Namespace(String),
    /// The signing key is on no line of the allowed signers file.
    UnlistedKey(String),
    /// The signature does not verify over this commit's content.
    BadSignature(String),
    /// The key is listed, but of a type this build does not verify (DSA,
    /// ECDSA P-521): its algorithm's name and its fingerprint.
    UnsupportedKey {
        /// The key's algorithm as OpenSSH names it.
        algorithm: String,
        /// The key's SHA-256 fingerprint.
        fingerprint: String,
    },
    /// The key is listed, but no line of it allows this commit: the
    /// namespace, the time, or the committer's email; why.
    NotAllowed(String),
}

impl Unverified {
    /// One sentence: what is wrong and, where one exists, what to do.
    pub fn sentence(&self) -> String {
        match self {
            Unverified::Unsigned { rewritten: true } | Unverified::OpenPgp { rewritten: true } => {
                "the commit was rewritten by a squash or rebase merge (its committer is not its author), which drops the signature; rule again in a signed commit, or merge with a merge commit".into()
            }
            Unverified::Unsigned { rewritten: false } => {
                "the commit is not signed; commit the ruling with `git -c gpg.format=ssh commit -S`".into()
            }
            Unverified::OpenPgp { rewritten: false } => {
                "the commit is signed with OpenPGP; only SSH signatures of keys in the allowed signers file count".into()
            }
            Unverified::Malformed(why) => format!("the signature cannot be read ({why})"),
            Unverified::Namespace(ns) => format!(
                "the signature was made in the namespace `{ns}`, not `{GIT_NAMESPACE}`"
            ),
            Unverified::UnlistedKey(fp) => {
                format!("the key {fp} is not in the base branch's allowed signers file")
            }
            Unverified::BadSignature(fp) => format!(
                "the signature by {fp} does not verify over this commit's content"
            ),
            Unverified::UnsupportedKey { algorithm, fingerprint } => format!(
                "the key {fingerprint} is of type `{algorithm}`, which is not verified here (Ed25519, ECDSA P-256 and P-384, RSA, and their FIDO2 forms are); sign with one of those"
            ),
            Unverified::NotAllowed(why) => why.clone(),
        }
    }
}

/// Verifies `commit`'s SSH signature against `signers`.
///
/// # Errors
/// [`Unverified`] saying why the signature does not count.
pub fn verify(commit: &CommitObject, signers: &AllowedSigners) -> Result<Signer, Unverified> {
    let rewritten = commit.rewritten();
    let Some(armored) = commit.signature.as_deref() else {
        return Err(Unverified::Unsigned { rewritten });
    };
    if armored.starts_with("-----BEGIN PGP") {
        return Err(Unverified::OpenPgp { rewritten });
    }
    let sig =
        SshSig::from_pem(armored.trim_end()).map_err(|e| Unverified::Malformed(e.to_string()))?;
    let fingerprint = sig.public_key().fingerprint(HashAlg::Sha256).to_string();
    if sig.namespace() != GIT_NAMESPACE {
        return Err(Unverified::Namespace(sig.namespace().to_string()));
    }
    let listed: Vec<_> = signers
        .signers
        .iter()
        .filter(|s| s.key.key_data() == sig.public_key())
        .collect();
    let Some(first) = listed.first() else {
        return Err(Unverified::UnlistedKey(fingerprint));
    };
    if !verifiable(sig.public_key()) {
        return Err(Unverified::UnsupportedKey {
            algorithm: sig.public_key().algorithm().to_string(),
            fingerprint,
        });
    }
    first
        .key
        .verify(GIT_NAMESPACE, &commit.payload, &sig)
        .map_err(|_| Unverified::BadSignature(fingerprint.clone()))?;
    let mut why = String::new();
    for s in &listed {
        let email = &commit.committer.email;
        let allowed = s
            .allows(GIT_NAMESPACE, commit.committer.time)
            .and_then(|()| {
                if matches_list(&s.principals, email) {
                    Ok(())
                } else {
                    Err(format!(
                        "line {} lists the key for `{}`, not for the committer `{email}`",
                        s.line,
                        s.principals.join(",")
                    ))
                }
            });
        match allowed {
            Ok(()) => {
                return Ok(Signer {
                    principals: s.principals.join(","),
                    line: s.line,
                    fingerprint,
                })
            }
            Err(e) if why.is_empty() => why = e,
            Err(_) => {}
        }
    }
    Err(Unverified::NotAllowed(why))
}

/// True for the key types this build verifies: the workspace's
/// `ssh-key` features (`ed25519`, `p256`, `p384`, `rsa`); DSA and ECDSA
/// P-521 are not built in.
fn verifiable(key: &ssh_key::public::KeyData) -> bool {
    use ssh_key::public::{EcdsaPublicKey, KeyData};
    match key {
        KeyData::Ed25519(_)
        | KeyData::SkEd25519(_)
        | KeyData::SkEcdsaSha2NistP256(_)
        | KeyData::Rsa(_) => true,
        KeyData::Ecdsa(k) => matches!(k, EcdsaPublicKey::NistP256(_) | EcdsaPublicKey::NistP384(_)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_header_is_cut_out_of_the_payload() {
        let raw = b"tree 1234\nparent abcd\nauthor A <a@x> 1700000000 +0000\ncommitter B <b@x> 1700000001 +0100\ngpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lH\n -----END SSH SIGNATURE-----\n\nmessage\n\nbody\n";
        let c = CommitObject::parse(raw);
        assert_eq!(
            c.signature.as_deref(),
            Some("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n")
        );
        assert_eq!(
            String::from_utf8(c.payload.clone()).unwrap(),
            "tree 1234\nparent abcd\nauthor A <a@x> 1700000000 +0000\ncommitter B <b@x> 1700000001 +0100\n\nmessage\n\nbody\n"
        );
        assert_eq!(c.parents, 1);
        assert_eq!(c.author.email, "a@x");
        assert_eq!(c.committer.time, 1_700_000_001);
        assert!(c.rewritten());
        assert!(matches!(
            verify(&c, &AllowedSigners::default()),
            Err(Unverified::Malformed(_))
        ));
    }

    #[test]
    fn unsigned_and_openpgp_commits_do_not_count() {
        let plain = CommitObject::parse(
            b"tree 1\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n\nm\n",
        );
        assert_eq!(
            verify(&plain, &AllowedSigners::default()),
            Err(Unverified::Unsigned { rewritten: false })
        );
        let forge = CommitObject::parse(
            b"tree 1\nauthor A <a@x> 1 +0000\ncommitter GitHub <noreply@github.com> 2 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n x\n -----END PGP SIGNATURE-----\n\nRotate the tokens, squashed\n",
        );
        let e = verify(&forge, &AllowedSigners::default()).unwrap_err();
        assert_eq!(e, Unverified::OpenPgp { rewritten: true });
        assert!(e.sentence().contains("squash or rebase"));
    }
}
