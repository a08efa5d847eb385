//! `playbookdiff-guard hook --host HOST`: the guard's hook alone, the
//! executable `playbookdiff guard install` registers. It answers exactly
//! as `playbookdiff guard hook --host HOST` does (the same
//! `guard_disk::hook`, compiled into both), but links only what one decision
//! needs and is linked without position independence (see `build.rs`), so
//! a host that runs it before every tool call waits less for it to start.
//!
//! Exit status: 0 with the host's answer on standard output; 2 when the
//! guard cannot decide (the reason on standard error), which every host
//! reads as a block, and for any other command line.

// The hook's I/O, shared with `playbookdiff guard hook`; the helpers only
// the other guard commands use (`guard audit`, `guard log`) are unused here.
#[allow(dead_code)]
#[path = "../guard_disk.rs"]
mod guard_disk;
// The round's brief the guard reads, and its signed rulings.
#[allow(dead_code)]
#[path = "../brief_disk.rs"]
mod brief_disk;
#[allow(dead_code)]
#[path = "../round_rulings.rs"]
mod round_rulings;

use guard_disk as disk;
use playbookdiff_guard::Host;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let host = match words.as_slice() {
        ["hook", "--host", id] => Host::from_id(id),
        _ => None,
    };
    let Some(host) = host else {
        let ids: Vec<&str> = Host::ALL.iter().map(|h| h.id()).collect();
        let _ = writeln!(
            std::io::stderr(),
            "usage: playbookdiff-guard hook --host {} (the command `playbookdiff guard install` registers; see `playbookdiff guard --help`)",
            ids.join("|")
        );
        return ExitCode::from(2);
    };
    let answer = disk::hook(host);
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_all(answer.stdout.as_bytes())
        .and_then(|()| stdout.flush());
    if !answer.stderr.is_empty() {
        let _ = std::io::stderr().write_all(answer.stderr.as_bytes());
    }
    match (written, answer.status) {
        (Ok(()), 0) => ExitCode::SUCCESS,
        _ => ExitCode::from(2),
    }
}
